import type { EntryView } from '../../webview-protocol/entries';

/**
 * What of a transcript is saved (pure: no vscode). Each entry is sized on its own: one huge
 * entry (a 50 MB tool output, a runaway reply) is clipped, or stood in for by a marker when even
 * clipped it does not fit, so it costs neither the rest of the transcript nor the save. Then the
 * newest entries that fit the total budget are kept, after a marker saying how many earlier ones
 * were not.
 */

/** The budget of one saved transcript, in characters of JSON. */
export const MAX_TRANSCRIPT_CHARS = 2_000_000;
/** The budget of one entry in it. */
export const MAX_ENTRY_CHARS = 200_000;
/** Strings are clipped to this at the least before an entry is given up for a marker. */
const MIN_CLIP_CHARS = 1_000;
/** Room kept for the marker of dropped earlier entries. */
const MARKER_CHARS = 300;

const notice = (message: string): EntryView => ({ kind: 'error', message });

/**
 * The JSON size of each entry saved as it is (nothing in it clipped). Entries are replaced, never
 * changed, so a save at a turn's end fits only the entries that are new since the one before:
 * fitting every entry the budget keeps cost ~35 ms a turn in a long session.
 */
const fittedSizes = new WeakMap<EntryView, number>();

/** A JSON value with every string longer than `cap` clipped, and what that clipping left (in characters of strings). */
function clipStrings(value: unknown, cap: number, count: { chars: number; clipped: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= cap) {
      count.chars += value.length;
      return value;
    }
    // Not between the halves of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(value[cap - 1]) ? cap - 1 : cap;
    const clipped = `${value.slice(0, end)}\n\n… [${(value.length - end).toLocaleString('en-US')} more characters were not saved]`;
    count.chars += clipped.length;
    count.clipped = true;
    return clipped;
  }
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, cap, count));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipStrings(item, cap, count)]));
  }
  return value;
}

/** `entry` within MAX_ENTRY_CHARS, with its JSON size: as it is, clipped, or a marker in its place. */
export function fitEntry(entry: EntryView): { entry: EntryView; size: number } {
  const known = fittedSizes.get(entry);
  if (known !== undefined) return { entry, size: known };
  for (let cap = MAX_ENTRY_CHARS; ; cap = Math.max(MIN_CLIP_CHARS, Math.floor(cap / 4))) {
    const count = { chars: 0, clipped: false };
    const clipped = clipStrings(entry, cap, count) as EntryView;
    // The strings alone already say when it cannot fit: no JSON of it is made then.
    if (count.chars <= MAX_ENTRY_CHARS) {
      const size = JSON.stringify(clipped).length;
      if (size <= MAX_ENTRY_CHARS) {
        if (count.clipped) return { entry: clipped, size };
        // Nothing clipped: the entry is saved as it is, and its size is known to the next save.
        fittedSizes.set(entry, size);
        return { entry, size };
      }
    }
    if (cap === MIN_CLIP_CHARS) break;
  }
  const marker = notice(`This ${entry.kind === 'tool' ? 'tool call' : `${entry.kind} entry`} was too large to save.`);
  return { entry: marker, size: JSON.stringify(marker).length };
}

/** What is saved of `entries`: each entry fitted, the newest that fit MAX_TRANSCRIPT_CHARS, a marker for the rest. */
export function savedEntries(entries: readonly EntryView[]): EntryView[] {
  const kept: EntryView[] = [];
  let total = 2; // the brackets
  let index = entries.length - 1;
  for (; index >= 0; index--) {
    const { entry, size } = fitEntry(entries[index]);
    if (total + size + 1 > MAX_TRANSCRIPT_CHARS - MARKER_CHARS) break;
    kept.push(entry);
    total += size + 1;
  }
  kept.reverse();
  const dropped = index + 1;
  if (dropped > 0) kept.unshift(notice(`${dropped === 1 ? 'The entry' : `The ${dropped.toLocaleString('en-US')} entries`} before this point ${dropped === 1 ? 'was' : 'were'} not saved: a saved transcript keeps the newest ${MAX_TRANSCRIPT_CHARS.toLocaleString('en-US')} characters.`));
  return kept;
}
