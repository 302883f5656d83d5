import type { CompactionSummaryChunk, CompactionUpdate } from '../protocol';
import { clipString } from '../runtime/trace';
import { contentText } from './contentText';
import type { EntryList } from './entryList';
import { KeyedEntries } from './keyedEntries';
import type { CompactionEntry, Entry } from './model';

/** A compaction's summary is kept (and posted, and saved) up to this many characters, then clipped with a note. */
export const COMPACTION_SUMMARY_MAX = 64 * 1024;

/**
 * The transcript's context compactions, by id: `compaction_update` upserts one (its first update
 * fixes its place; `summary` and `error` are patches where null clears), `compaction_summary_chunk`
 * appends to its summary (a first-seen id starts one, in progress).
 */
export class Compactions {
  private readonly byId: KeyedEntries<'compaction'>;

  constructor(entries: EntryList) {
    this.byId = new KeyedEntries(entries, 'compaction', (entry) => entry.compactionId);
  }

  update(update: CompactionUpdate): void {
    const entry = { ...this.entry(update.compactionId), status: update.status };
    // Absent leaves the summary; null or [] clears it; blocks replace it.
    if (update.summary !== undefined) entry.summary = clipString((update.summary ?? []).map(contentText).join(''), COMPACTION_SUMMARY_MAX);
    if (update.error !== undefined) entry.error = update.error;
    this.byId.set(entry);
  }

  appendSummary(chunk: CompactionSummaryChunk): void {
    const entry = this.entry(chunk.compactionId);
    // A clipped summary (longer than the bound by its note) already says the rest was dropped.
    if (entry.summary.length > COMPACTION_SUMMARY_MAX) return;
    this.byId.set({ ...entry, summary: clipString(entry.summary + contentText(chunk.content), COMPACTION_SUMMARY_MAX) });
  }

  restored(entries: readonly Entry[]): void {
    this.byId.restored(entries);
  }

  clear(): void {
    this.byId.clear();
  }

  private entry(compactionId: string): CompactionEntry {
    return this.byId.get(compactionId) ?? { kind: 'compaction', compactionId, status: 'in_progress', summary: '', error: null };
  }
}
