import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * The forms of `requested` the policy matches its globs against: relative to the workspace
 * folder it is in, `/`-separated, both as named and as it really is (a symlink named
 * `notes.txt` that points at `.git/hooks/pre-commit` is a write to the hook). A path in no folder
 * keeps its absolute form without the root (`home/me/.ssh/config`), so `**`-globs still see it.
 */
export async function policyPaths(requested: string, roots: readonly string[], realpath: (p: string) => Promise<string> = fs.realpath): Promise<string[]> {
  const named = path.resolve(requested);
  const real = await realOf(named, realpath);
  const allRoots = [...roots.map((r) => path.resolve(r)), ...(await Promise.all(roots.map((r) => realOf(path.resolve(r), realpath))))];
  const forms = new Set<string>();
  for (const candidate of [named, real]) forms.add(relativeForm(candidate, allRoots));
  return [...forms];
}

function relativeForm(absolute: string, roots: readonly string[]): string {
  for (const root of roots) {
    const rel = path.relative(root, absolute);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  }
  return absolute.slice(path.parse(absolute).root.length).split(path.sep).join('/');
}

/** The real path of `absolute`: of its nearest existing ancestor, with the rest (not yet created) appended. */
async function realOf(absolute: string, realpath: (p: string) => Promise<string>): Promise<string> {
  const rest: string[] = [];
  let at = absolute;
  for (;;) {
    try {
      return path.join(await realpath(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return absolute;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}
