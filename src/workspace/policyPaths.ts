import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { realpathOfExistingPart } from './realPaths';

/**
 * The forms of `requested` the policy matches its globs against: relative to the workspace
 * folder it is in, `/`-separated, both as named and as it really is (a symlink named
 * `notes.txt` that points at `.git/hooks/pre-commit` is a write to the hook). A path in no folder
 * keeps its absolute form without the root (`home/me/.ssh/config`), so `**`-globs still see it.
 */
export async function policyPaths(requested: string, roots: readonly string[]): Promise<string[]> {
  const named = path.resolve(requested);
  // A path that cannot be followed (a loop, a dangling link) is confinement's to refuse: here it stays as named.
  const real = await realpathOfExistingPart(named).catch(() => named);
  const resolved = roots.map((r) => path.resolve(r));
  const allRoots = [...resolved, ...(await Promise.all(resolved.map((r) => realpath(r).catch(() => r))))];
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
