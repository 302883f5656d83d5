import { realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { PathFlavour } from './pathPolicy';
import { realpathOfExistingPart } from './realPaths';

/**
 * Every form of a path the policy judges. A path is protected when any form is: the order of a
 * workspace's folders cannot hide `.git/hooks/x` by listing `.git` first (it is then also
 * `hooks/x`, but still `.git/hooks/x` relative to the outer folder and in its absolute form).
 */
export interface PathForms {
  /**
   * What rules speak of: the path relative to each root below which it lies, `/`-separated, as
   * named and as it really is (through symlinks); a path below no root: its absolute form
   * without the root (`home/me/.ssh/config`). Deny and ask rules match any; an allow needs all.
   */
  names: string[];
  /** The absolute forms without the root, for the protected list: a root inside `.git` protects all below it. */
  absolute: string[];
  /** How a card names it: relative to the outermost root holding it, and its real target when a symlink leads elsewhere (`src/notes.txt → .git/config`). */
  shown: string;
}

/**
 * The forms of `targets` (the path as named, then as it really is; absolute and normalized)
 * among `roots` (absolute; each as given and as it really is). Pure.
 */
export function pathForms(targets: readonly string[], roots: readonly string[], p: PathFlavour = nodePath): PathForms {
  const names = new Set<string>();
  const absolute = new Set<string>();
  const shown: string[] = [];
  for (const target of targets) {
    const relative = roots.flatMap((root) => {
      const rel = p.relative(root, target);
      return rel === '' || rel.split(p.sep)[0] === '..' || p.isAbsolute(rel) ? [] : [slashes(rel, p)];
    });
    const whole = slashes(target.slice(p.parse(target).root.length), p);
    for (const name of relative.length > 0 ? relative : [whole]) names.add(name);
    absolute.add(whole);
    // The outermost root gives the longest and most telling name.
    const longest = relative.reduce<string | undefined>((a, b) => (a === undefined || b.length > a.length ? b : a), undefined) ?? target;
    if (!shown.includes(longest)) shown.push(longest);
  }
  return { names: [...names], absolute: [...absolute].filter((a) => !names.has(a)), shown: shown.join(' → ') };
}

/**
 * The forms of `requested` among `roots`, following symlinks (of its nearest existing parent
 * for a file yet to be created). A path that cannot be followed (a loop, a dangling link) is
 * judged as named: this is for what is only judged, never served (a permission request's
 * locations); what is served is resolved, and refused when it cannot be (runtime/resolvedPath.ts).
 */
export async function judgedForms(requested: string, roots: readonly string[]): Promise<PathForms> {
  // Relative to nothing certain (ACP paths are absolute): judged as written.
  if (!nodePath.isAbsolute(requested)) return { names: [requested.replace(/\\/g, '/')], absolute: [], shown: requested };
  const named = nodePath.resolve(requested);
  const real = await realpathOfExistingPart(named).catch(() => named);
  const { given, real: realRoots } = await rootsOf(roots);
  return pathForms([named, real], [...new Set([...given, ...realRoots])]);
}

/** The absolute `roots`, as given and as they really are (as given when that cannot be found). */
export async function rootsOf(roots: readonly string[]): Promise<{ given: string[]; real: string[] }> {
  const given = roots.filter((r) => nodePath.isAbsolute(r)).map((r) => nodePath.resolve(r));
  return { given, real: await Promise.all(given.map((r) => realpath(r).catch(() => r))) };
}

function slashes(path: string, p: PathFlavour): string {
  return path.split(p.sep).join('/');
}
