import vscode = require('vscode');
import { COMMAND_CHARS, shown } from '../../base/shownText';
import { chosenChanges, describeRestore, planRestore, restoreChoices } from '../../session/restorePlan';
import type { Earlier, Placement, RestoreCandidate, RestoreChange, RestorePlan } from '../../session/restorePlan';
import { ContentCache } from '../editor/review/contentCache';
import { workspaceRoots } from '../editor/workspacePaths';
import { placeForRestore, protectedGlobOf } from './restorePlacement';
import type { ProtectedGlob } from './restorePlacement';

/** What a restore is confined by: the workspace's folders, and the user's protected paths. */
export interface RestoreGuard {
  roots(): readonly string[];
  protectedGlob: ProtectedGlob;
}

/** The workspace's local folders, and the policy's protected paths with the user's (`protectedPaths`, read at each restore). */
export function workspaceGuard(protectedPaths: () => readonly string[]): RestoreGuard {
  return { roots: workspaceRoots, protectedGlob: protectedGlobOf(protectedPaths) };
}

/** A modal asking `message` with `choices` as its buttons: the label picked, or undefined (declined). Tests replace it. */
export type Confirm = (message: string, detail: string, choices: readonly string[]) => Promise<string | undefined>;

export const modalConfirm: Confirm = (message, detail, choices) => Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices));

const NOT_WORKSPACE: Placement = { ok: false, reason: 'not restored: not a file of the workspace (or under .git or node_modules)' };

/**
 * The restore of `files` given their earlier states: each placed inside the workspace (or
 * refused), its state now read at its real path (`state`), then planned (session/restorePlan.ts).
 */
export async function planFiles(files: readonly { path: string; earlier: Earlier }[], guard: RestoreGuard, state: (fsPath: string) => Promise<string | null | undefined>): Promise<RestorePlan> {
  const candidates: RestoreCandidate[] = [];
  for (const { path, earlier } of files) {
    // Only the workspace's files, never .git or node_modules: the same rule as the review.
    const placement = ContentCache.reviewable(vscode.Uri.file(path)) ? await placeForRestore(path, guard.roots(), guard.protectedGlob) : NOT_WORKSPACE;
    candidates.push({ path, earlier, placement, now: placement.ok ? await state(placement.real) : undefined });
  }
  return planRestore(candidates);
}

/**
 * Asks before a restore: `message`, every change and what is left alone in the detail, and a
 * button per choice (protected files only with the one naming them). The changes to make, or
 * undefined when the user declined.
 */
export async function confirmRestore(plan: RestorePlan, confirm: Confirm, message: string, verb: string, footer = ''): Promise<RestoreChange[] | undefined> {
  const choices = restoreChoices(plan, verb, relative);
  const picked = await confirm(message, `${describeRestore(plan, relative)}${footer}`, choices.map((c) => c.label));
  const choice = choices.find((c) => c.label === picked);
  return choice && chosenChanges(plan, choice.includeProtected);
}

/** A path as the user knows it: relative to its workspace folder; escaped and capped (shownText.ts), as the agent named the file. */
export function relative(fsPath: string): string {
  return shown(vscode.workspace.asRelativePath(fsPath, false), COMMAND_CHARS);
}
