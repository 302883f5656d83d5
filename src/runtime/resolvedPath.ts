import { RpcError } from '../protocol/errors';
import type { ConnectionLog } from '../agent/connection';
import { checkAgentPath, isInside } from '../workspace/pathPolicy';
import { pathForms, rootsOf } from '../workspace/policyPaths';
import type { PathForms } from '../workspace/policyPaths';
import { PathRefusal, realpathOfExistingPart } from '../workspace/realPaths';

// The session layer reaches the workspace's path forms through here (seams: session does not import workspace).
export type { PathForms };
export { judgedForms } from '../workspace/policyPaths';

/**
 * A path an agent named, confined to a session's roots and followed through symlinks, once:
 * the policy judges its forms and the read or write goes to its `real` path, so what was judged
 * is what is used. Only `resolve` makes one (the constructor is private), and the host's reader
 * and writer take nothing else: an unresolved path cannot reach them.
 *
 * Confinement: the form is checked first (pathPolicy.ts: absolute, no NUL, no `~`, UNC, URI,
 * device or overlong path), then symlinks are followed (of the path, or of its nearest existing
 * parent for a file yet to be created) and the real path must lie inside one of the roots (each
 * also followed to its real path): a symlink in one root that points outside every root is
 * refused, and so is a name that cannot be followed (a dangling link, a loop). A refusal is
 * -32602 and logged, before any I/O on the path itself.
 *
 * What this cannot do: an agent process has the user's own file system rights, so this guards
 * what the client does on its behalf, not what the agent does itself. A symlink swapped in
 * between this check and the write (a race the agent would have to win) is not prevented.
 */
export class ResolvedPath {
  private constructor(
    /** As the agent named it. */
    readonly requested: string,
    /** Where it really is: absolute, symlinks followed, inside one of the roots. What is read or written. */
    readonly real: string,
    /** Its forms for the policy: relative to every root holding it and absolute, as named and as it really is. */
    readonly forms: PathForms,
  ) {}

  /** Confines `requested` to `roots` (a session's); throws -32602 when it is refused. */
  static async resolve(requested: string, roots: readonly string[], log?: Pick<ConnectionLog, 'warn'>): Promise<ResolvedPath> {
    const refuse = (why: string) => {
      const shown = JSON.stringify(requested.length > 300 ? `${requested.slice(0, 300)}…` : requested);
      log?.warn(`Refused path ${shown}: ${why}`);
      return RpcError.invalidParams(`Refused path ${shown}: ${why}`);
    };
    const form = checkAgentPath(requested);
    if (!form.ok) throw refuse(form.reason);
    let real: string;
    try {
      real = await realpathOfExistingPart(form.path);
    } catch (error) {
      if (error instanceof PathRefusal) throw refuse(error.message);
      throw error;
    }
    // No folder open gives an empty cwd: relative to nothing certain, it holds nothing (only absolute roots are kept).
    const { given, real: realRoots } = await rootsOf(roots);
    if (!realRoots.some((root) => isInside(root, real))) throw refuse('it is outside the workspace folders of this session');
    return new ResolvedPath(requested, real, pathForms([form.path, real], [...new Set([...given, ...realRoots])]));
  }
}
