import type { EntryList } from './entryList';
import type { Entry } from './model';

type EntryOf<K extends Entry['kind']> = Extract<Entry, { kind: K }>;

/**
 * Entries of one kind the agent addresses by an id of its own (tool calls, compactions, id-addressed plans):
 * each id's entry index, so an update finds its entry at once, whatever the transcript's length.
 */
export class KeyedEntries<K extends Entry['kind']> {
  private readonly index = new Map<string, number>();

  constructor(
    private readonly entries: EntryList,
    private readonly kind: K,
    private readonly idOf: (entry: EntryOf<K>) => string,
  ) {}

  /** The ids, in the order their entries were added. */
  ids(): IterableIterator<string> {
    return this.index.keys();
  }

  get(id: string): EntryOf<K> | undefined {
    const at = this.index.get(id);
    // An unknown id reads nothing, whatever an EntryList's `at` would make of a negative index.
    const entry = at === undefined ? undefined : this.entries.at(at);
    return entry?.kind === this.kind ? (entry as EntryOf<K>) : undefined;
  }

  /** Replaces the entry of `entry`'s id in place, or adds it at the end when the id is new. */
  set(entry: EntryOf<K>): void {
    const id = this.idOf(entry);
    const at = this.index.get(id);
    if (at !== undefined) {
      this.entries.replace(at, entry);
      return;
    }
    this.index.set(id, this.entries.length);
    this.entries.push(entry);
  }

  /** Indexes the entries of a restored transcript. */
  restored(entries: readonly Entry[]): void {
    entries.forEach((entry, at) => {
      if (entry.kind === this.kind) this.index.set(this.idOf(entry as EntryOf<K>), at);
    });
  }

  clear(): void {
    this.index.clear();
  }
}
