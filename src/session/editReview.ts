import { summariseDiff } from './diffSummary';
import type { ReviewFile } from './model';

/**
 * What a file held before the agent touched it: its text, or null when it did not exist. A
 * file seen changing without a usable earlier state (binary, too large, never cached) has an
 * unknown baseline: it cannot be diffed or restored, so it is not listed (undoing it would
 * guess), but it stays recorded so that a later, already-changed state is not taken for it.
 */
export type Baseline = { known: true; text: string | null } | { known: false };

/** The current state of a file: its text, or null when it does not exist (now). */
export type CurrentText = string | null;

/**
 * Review of the agent's edits, whoever wrote them (pure: no vscode, no I/O). Per workspace path,
 * the baseline recorded first wins until the user keeps or undoes that file, so a file changed
 * over several turns is reviewed against its state before the first of them.
 */
export class EditReview {
  private readonly baselines = new Map<string, Baseline>();

  /** Records `path`'s baseline unless one is recorded already. Returns true when it was recorded now. */
  record(path: string, text: string | null): boolean {
    if (this.baselines.has(path)) return false;
    this.baselines.set(path, { known: true, text });
    return true;
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
      if (baseline.known && current.has(path) && current.get(path) === baseline.text) this.baselines.delete(path);
    }
  }

  /** The user keeps `path`'s changes (or everything's, without a path): the baseline goes. */
  keep(path?: string): void {
    if (path === undefined) this.baselines.clear();
    else this.baselines.delete(path);
  }

  /** Same as keep, for a file whose baseline was restored (undo): there is nothing left to review. */
  forget(path: string): void {
    this.baselines.delete(path);
  }
}
