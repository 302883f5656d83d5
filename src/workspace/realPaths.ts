import * as path from 'node:path';
import { lstat, realpath } from 'node:fs/promises';

/** Why a path cannot be followed to a real path; the caller turns it into its own refusal. */
export class PathRefusal extends Error {}

/**
 * realpath of `p`; for a path that does not exist yet, realpath of its nearest existing parent
 * plus the rest. A name that exists but cannot be followed (a dangling symlink, a loop) is
 * refused: writing through a dangling symlink would create its target, wherever that is.
 */
export async function realpathOfExistingPart(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new PathRefusal('it goes through a symlink loop');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new PathRefusal(`it cannot be resolved (${code ?? String(error)})`);
    const exists = await lstat(p).then(
      () => true,
      () => false,
    );
    if (exists) throw new PathRefusal('it is a symlink whose target does not exist');
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(await realpathOfExistingPart(parent), path.basename(p));
  }
}
