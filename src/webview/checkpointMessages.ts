import type { EntryView } from './protocol';

/** Restore checkpoint and Edit are disabled on a message whose checkpoint is older than the oldest kept, or when none is. */
export function checkpointDropped(checkpoint: number, oldest: number | null): boolean {
  return oldest === null || checkpoint < oldest;
}

/**
 * The user's messages that have a checkpoint, by checkpoint id: which messages change when the
 * oldest checkpoint kept moves on. Once the workspace's checkpoints reach their budget, every
 * prompt drops the oldest one: re-rendering every user message then cost a long session's panel
 * 140–180 ms per turn at 5,000 messages (a cost growing with the conversation), where only the
 * messages of the checkpoints dropped change.
 */
export class CheckpointMessages {
  /** Checkpoint id → the indexes of the messages taken with it (one, unless a transcript repeats it). */
  private readonly byCheckpoint = new Map<number, Set<number>>();

  /** A snapshot: every entry is new. */
  reset(entries: readonly (EntryView | undefined)[]): void {
    this.byCheckpoint.clear();
    entries.forEach((entry, index) => this.add(index, entry));
  }

  /** Entry `index` was `before` and is `after` now. */
  replaced(index: number, before: EntryView | undefined, after: EntryView | undefined): void {
    const checkpoint = checkpointOf(before);
    const indexes = checkpoint === undefined ? undefined : this.byCheckpoint.get(checkpoint);
    if (indexes?.delete(index) && indexes.size === 0) this.byCheckpoint.delete(checkpoint!);
    this.add(index, after);
  }

  /**
   * The indexes of the messages whose checkpoint is dropped under one of `from` and `to` (the oldest
   * checkpoint kept, before and after) and not under the other. An eviction moves the oldest on by
   * a few ids: those ids are looked up, whatever the number of messages. Otherwise (no checkpoint
   * before or after, or a jump past more ids than there are messages) every message is checked.
   */
  *changed(from: number | null, to: number | null): Iterable<number> {
    if (from !== null && to !== null && Math.abs(to - from) <= this.byCheckpoint.size) {
      for (let checkpoint = Math.min(from, to); checkpoint < Math.max(from, to); checkpoint++) yield* this.byCheckpoint.get(checkpoint) ?? [];
      return;
    }
    for (const [checkpoint, indexes] of this.byCheckpoint) if (checkpointDropped(checkpoint, from) !== checkpointDropped(checkpoint, to)) yield* indexes;
  }

  private add(index: number, entry: EntryView | undefined): void {
    const checkpoint = checkpointOf(entry);
    if (checkpoint === undefined) return;
    const indexes = this.byCheckpoint.get(checkpoint) ?? new Set();
    this.byCheckpoint.set(checkpoint, indexes.add(index));
  }
}

function checkpointOf(entry: EntryView | undefined): number | undefined {
  return entry?.kind === 'user' ? entry.checkpoint : undefined;
}
