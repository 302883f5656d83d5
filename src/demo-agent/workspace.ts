// The demo agent's own look at the session cwd. Like many real agents it reads the disk directly
// to choose a file; the actual read then goes through the client (fs/read_text_file).

import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** README.md (any case) if present, else the first regular file of a shallow, sorted listing. */
export async function findDemoFile(cwd: string): Promise<string | undefined> {
  let entries;
  try {
    entries = await fs.readdir(cwd, { withFileTypes: true });
  } catch {
    return undefined; // the cwd may not exist on this machine (e.g. a remote workspace)
  }
  const files = entries.filter((e) => e.isFile()).map((e) => e.name).sort();
  const chosen = files.find((name) => name.toLowerCase() === 'readme.md') ?? files[0];
  return chosen === undefined ? undefined : path.join(cwd, chosen);
}

/** The file's text, or null if it does not exist (or cannot be read). */
export async function readIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** Number of lines, not counting the empty "line" after a final newline. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The names in `dir` as `ls -p` shows them: sorted, no dot files, a slash after directories. */
export async function listLikeLs(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => !e.name.startsWith('.'))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}
