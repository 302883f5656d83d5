import { summariseDiff } from './diffSummary';
import type { ReviewFile } from './model';

/**
 * What a file held before the agent touched it: its text, or null when it did not exist. A
 * file seen changing without a usable earlier state (binary, too large, never cached) has an
 * unknown baseline: it cannot be diffed or restored, so it is not listed (undoing it would
 * guess), but it stays recorded so that a later, already-changed state is not taken for it.
 */
export type Baseline = { known: true; text: string | null } | { known: false; overBudget?: true };

/**
 * Characters of earlier texts the review keeps (UTF-16: up to twice the bytes). Past it a changed
 * file's earlier text is not kept: the file cannot be listed, and the review says how many are not.
 */
export const MAX_BASELINE_CHARS = 32_000_000;

/** The current state of a file: its text, or null when it does not exist (now). */
export type CurrentText = string | null;

/**
 * Review of the agent's edits, whoever wrote them (pure: no vscode, no I/O). Per workspace path,
 * the baseline recorded first wins until the user keeps or undoes that file, so a file changed
 * over several turns is reviewed against its state before the first of them.
 */
export class EditReview {
  private readonly baselines = new Map<string, Baseline>();
  private chars = 0;

  constructor(private readonly budget = MAX_BASELINE_CHARS) {}

  /**
   * Records `path`'s baseline unless one is recorded already (past the budget, as unknown). Returns
   * true when it was recorded now.
   */
  record(path: string, text: string | null): boolean {
    if (this.baselines.has(path)) return false;
    const size = text?.length ?? 0;
    if (this.chars + size > this.budget) {
      this.baselines.set(path, { known: false, overBudget: true });
      return true;
    }
    this.baselines.set(path, { known: true, text });
    this.chars += size;
    return true;
  }

  /** Changed files that are not listed because their earlier text was over the budget. */
  get notKept(): number {
    let count = 0;
    for (const baseline of this.baselines.values()) if (!baseline.known && baseline.overBudget) count++;
    return count;
  }

  /** Marks `path` as touched without a usable baseline (unless it has one already). */
  touch(path: string): boolean {
    if (this.baselines.has(path)) return false;
    this.baselines.set(path, { known: false });
    return true;
  }

  has(path: string): boolean {
    return this.baselines.has(path);
  }

  baseline(path: string): Baseline | undefined {
    return this.baselines.get(path);
  }

  /** Every recorded path (the ones whose current state a list needs), sorted. */
  get paths(): string[] {
    return [...this.baselines.keys()].sort();
  }

  /**
   * The files to review given their current states (a path missing from `current` is left out:
   * its state could not be read): those whose current state differs from a known baseline,
   * sorted by path, with +/- line counts.
   */
  list(current: ReadonlyMap<string, CurrentText>): ReviewFile[] {
    const files: ReviewFile[] = [];
    for (const path of this.paths) {
      const baseline = this.baselines.get(path)!;
      if (!baseline.known || !current.has(path)) continue;
      const now = current.get(path)!;
      if (now === baseline.text) continue;
      const change = baseline.text === null ? 'created' : now === null ? 'deleted' : 'modified';
      const { added, removed } = summariseDiff(path, baseline.text, now ?? '');
      files.push({ path, change, added, removed });
    }
    return files;
  }

  /**
   * Forgets the baselines that equal their file's current state (nothing to review). Only
   * between turns: during one, a baseline recorded from a proposed diff precedes the write.
   * Forgetting is safe then: the next change records the same text again, from the cache.
   */
  prune(current: ReadonlyMap<string, CurrentText>): void {
    for (const [path, baseline] of this.baselines) {
      if (baseline.known && current.has(path) && current.get(path) === baseline.text) this.delete(path);
    }
  }

  /** The user keeps `path`'s changes (or everything's, without a path): the baseline goes. */
  keep(path?: string): void {
    if (path !== undefined) return this.delete(path);
    this.baselines.clear();
    this.chars = 0;
  }

  /** Same as keep, for a file whose baseline was restored (undo): there is nothing left to review. */
  forget(path: string): void {
    this.delete(path);
  }

  private delete(path: string): void {
    const baseline = this.baselines.get(path);
    if (baseline?.known) this.chars -= baseline.text?.length ?? 0;
    this.baselines.delete(path);
  }
}
