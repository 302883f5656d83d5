import type { EntryList } from './entryList';
import { IdTable } from './idTable';
import type { Entry } from './model';

type EntryOf<K extends Entry['kind']> = Extract<Entry, { kind: K }>;

/**
 * Entries of one kind the agent addresses by an id of its own (tool calls, compactions, id-addressed plans):
 * each id's entry index, so an update finds its entry at once, whatever the transcript's length.
 */
export class KeyedEntries<K extends Entry['kind']> {
  /** Not a Map: a new id's lookup in a Map misses the caches once the index is large (IdTable says why). */
  private readonly index = new IdTable((at) => {
    const entry = this.entryAt(at);
    return entry && this.idOf(entry);
  });

  constructor(
    private readonly entries: EntryList,
    private readonly kind: K,
    private readonly idOf: (entry: EntryOf<K>) => string,
  ) {}

  /** The ids, in the order their entries were added (a walk over every entry: not for a fold). */
  *ids(): IterableIterator<string> {
    for (let at = 0; at < this.entries.length; at++) {
      const entry = this.entryAt(at);
      const id = entry && this.idOf(entry);
      // A restored transcript may hold an id twice; the index names the later entry.
      if (id !== undefined && this.indexOf(id) === at) yield id;
    }
  }

  get(id: string): EntryOf<K> | undefined {
    return this.entryAt(this.indexOf(id));
  }

  /**
   * Where `id`'s entry is (undefined: it has none yet). An upsert passes it to `entryAt` and `put`:
   * one lookup rather than one per step: each one counts (bench/folds.mjs, `tool_call (new)`).
   */
  indexOf(id: string): number | undefined {
    return this.index.get(id);
  }

  entryAt(at: number | undefined): EntryOf<K> | undefined {
    // An unknown id reads nothing, whatever an EntryList's `at` would make of a negative index.
    const entry = at === undefined ? undefined : this.entries.at(at);
    return entry?.kind === this.kind ? (entry as EntryOf<K>) : undefined;
  }

  /** Replaces the entry of `entry`'s id in place, or adds it at the end when the id is new. */
  set(entry: EntryOf<K>): void {
    this.put(this.indexOf(this.idOf(entry)), entry);
  }

  /** `set`, where `at` is `indexOf(entry's id)`, taken since (entries are only added or replaced, so it still holds). */
  put(at: number | undefined, entry: EntryOf<K>): void {
    if (at !== undefined) {
      this.entries.replace(at, entry);
      return;
    }
    this.index.set(this.idOf(entry), this.entries.length);
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
