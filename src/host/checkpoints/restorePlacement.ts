import * as path from 'node:path';
import { Policy } from '../../policy/policy';
import { RuleSet } from '../../policy/rules';
import type { Placement } from '../../session/restorePlan';
import { isInside } from '../../workspace/pathPolicy';
import { pathForms, rootsOf } from '../../workspace/policyPaths';
import { PathRefusal, realpathOfExistingPart } from '../../workspace/realPaths';

/** The protected glob any of a path's forms matches (Policy.protectedGlob over the user's protected paths). */
export type ProtectedGlob = (forms: readonly string[]) => string | undefined;

/**
 * The protected glob of the policy's defaults and `userPaths` (acpHost.protectedPaths, read at each
 * call). The policy, whose globs compile at first use, is built again only when that list changes
 * (the host hands the same array until the settings change), not for every file of a restore.
 */
export function protectedGlobOf(userPaths: () => readonly string[]): ProtectedGlob {
  let built: { paths: readonly string[]; policy: Policy } | undefined;
  return (forms) => {
    const paths = userPaths();
    if (built?.paths !== paths) built = { paths, policy: new Policy({ settings: new RuleSet([]), remembered: new RuleSet([]), protectedPaths: paths, autoApprove: 'off' }) };
    return built.policy.protectedGlob(forms);
  };
}

/**
 * Where a restore (a checkpoint's, or an Undo in the review) may write `fsPath` (VS Code-free:
 * unit-tested on a temp folder). Symlinks are followed once, of the path or of its nearest
 * existing parent for a file to re-create: a real path outside every root (a link planted after
 * the change, or a parent folder swapped for one) is refused, as is a path that cannot be
 * followed (a dangling link would create its target, wherever it is). The real path is given
 * under the workspace folder as it was opened. Whether it is protected is decided on every form
 * of it, as named and as resolved, relative to each root, from that one resolution.
 */
export async function placeForRestore(fsPath: string, roots: readonly string[], protectedGlob: ProtectedGlob): Promise<Placement> {
  let real: string;
  try {
    real = await realpathOfExistingPart(fsPath);
  } catch (error) {
    if (error instanceof PathRefusal) return { ok: false, reason: `not restored: ${error.message}` };
    throw error;
  }
  const { given, real: realRoots } = await rootsOf(roots);
  const inside = realRoots.findIndex((realRoot) => isInside(realRoot, real));
  if (inside === -1) return { ok: false, reason: `not restored: it leads outside the workspace folders (to ${real})` };
  // Under the folder as the workspace opened it: a folder opened through a link (macOS's /tmp)
  // keeps its documents' names, so VS Code's undo finds the edit; no link below it is followed again.
  const placed = path.join(given[inside], path.relative(realRoots[inside], real));
  const forms = pathForms([path.resolve(fsPath), real], [...new Set([...given, ...realRoots])]);
  return { ok: true, real: placed, protectedBy: protectedGlob([...forms.names, ...forms.absolute]) };
}
