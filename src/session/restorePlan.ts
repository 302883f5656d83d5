/**
 * What a file held before the agent changed it, as the review or a checkpoint knows it: its text;
 * absent (it is known not to have existed: the agent created it); or unknown (never seen before
 * the change, binary, too large, or not kept). Only "absent" lets a restore delete a file: an
 * unknown one may well have existed, and is left as it is.
 */
export type Earlier = { kind: 'text'; text: string } | { kind: 'absent' } | { kind: 'unknown' };

export const ABSENT: Earlier = { kind: 'absent' };
export const UNKNOWN: Earlier = { kind: 'unknown' };

/** A state read from disk now (text; null, missing; undefined, unreadable) as an earlier state. */
export function earlierOf(state: string | null | undefined): Earlier {
  return state === undefined ? UNKNOWN : state === null ? ABSENT : { kind: 'text', text: state };
}

/**
 * Where a restore may put a file: its real path (symlinks followed, once) inside the workspace
 * folders, and the protected glob any form of it matches; or why it may not be touched at all.
 */
export type Placement = { ok: true; real: string; protectedBy: string | undefined } | { ok: false; reason: string };

/** One file a restore considers: its earlier state, where it may go, and its state now (text; null, missing; undefined, unreadable). */
export interface RestoreCandidate {
  path: string;
  earlier: Earlier;
  placement: Placement;
  now: string | null | undefined;
}

/** A change a restore makes: `text` goes to `real` (null: `real` is removed). */
export interface RestoreChange {
  /** As the review or checkpoint names it (what the user is shown). */
  path: string;
  /** Where the change is written: the path as resolved when it was placed, not resolved again. */
  real: string;
  text: string | null;
  action: 'restored' | 're-created' | 'removed';
  now: string | null | undefined;
  /** The protected glob it matches: changed only when the user says so explicitly. */
  protectedBy: string | undefined;
}

/** What a restore does: the changes, and the files it leaves alone (earlier state unknown, or not placeable). */
export interface RestorePlan {
  changes: RestoreChange[];
  unknown: string[];
  refused: { path: string; reason: string }[];
}

/**
 * The restore of `candidates` (pure): a file whose earlier state is unknown is skipped, never
 * deleted; one that cannot be placed inside the workspace (a symlink pointing out of it, planted
 * after the change) is refused; one already as it was is left out. The rest are changes, those
 * under a protected path flagged.
 */
export function planRestore(candidates: readonly RestoreCandidate[]): RestorePlan {
  const plan: RestorePlan = { changes: [], unknown: [], refused: [] };
  for (const { path, earlier, placement, now } of candidates) {
    if (earlier.kind === 'unknown') {
      plan.unknown.push(path);
      continue;
    }
    if (!placement.ok) {
      plan.refused.push({ path, reason: placement.reason });
      continue;
    }
    const text = earlier.kind === 'text' ? earlier.text : null;
    if (now === text) continue;
    const action = text === null ? 'removed' : now === null ? 're-created' : 'restored';
    plan.changes.push({ path, real: placement.real, text, action, now, protectedBy: placement.protectedBy });
  }
  return plan;
}

/** The changes the user agreed to: all of them, or all but the protected ones. */
export function chosenChanges(plan: RestorePlan, includeProtected: boolean): RestoreChange[] {
  return includeProtected ? plan.changes : plan.changes.filter((c) => c.protectedBy === undefined);
}

/** The buttons of a restore's confirmation, and whether each includes the protected files. */
export interface RestoreChoice {
  label: string;
  includeProtected: boolean;
}

/**
 * The choices a confirmation offers for `plan` (`verb`: Restore, Undo): one button when nothing
 * is protected; otherwise one naming the protected files, which restores them too, and one that
 * leaves them out (when anything else is left to restore).
 */
export function restoreChoices(plan: RestorePlan, verb: string, name: (path: string) => string): RestoreChoice[] {
  const guarded = plan.changes.filter((c) => c.protectedBy !== undefined);
  if (guarded.length === 0) return [{ label: verb, includeProtected: false }];
  const choices = [{ label: `${verb}, including ${listed(guarded.map((c) => name(c.path)))}`, includeProtected: true }];
  if (guarded.length < plan.changes.length) choices.push({ label: `${verb} all but protected files`, includeProtected: false });
  return choices;
}

/** The confirmation's detail: each change, the protected ones apart, then what is left alone and why. */
export function describeRestore(plan: RestorePlan, name: (path: string) => string): string {
  const line = (c: RestoreChange) => `${name(c.path)}: ${c.action}`;
  const open = plan.changes.filter((c) => c.protectedBy === undefined).map(line);
  const guarded = plan.changes.filter((c) => c.protectedBy !== undefined).map((c) => `${line(c)} (protected: ${c.protectedBy})`);
  const parts = [open.join('\n')];
  if (guarded.length > 0) parts.push(`Protected, changed only if you choose so:\n${guarded.join('\n')}`);
  if (plan.unknown.length > 0) parts.push(`Earlier state unknown (never seen before the change, binary, too large or not kept): left as it is:\n${plan.unknown.map(name).join('\n')}`);
  if (plan.refused.length > 0) parts.push(`Not touched:\n${plan.refused.map((r) => `${name(r.path)}: ${r.reason}`).join('\n')}`);
  return parts.filter((p) => p !== '').join('\n\n');
}

/** At most three names, then how many more. */
function listed(names: readonly string[]): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}
