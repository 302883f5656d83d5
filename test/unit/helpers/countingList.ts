import type { EntryList } from '../../../src/session/entryList';
import type { Entry } from '../../../src/session/model';

/** An entry list of `size` agent messages that counts how many entries a fold reads. */
export function countingList(size: number): { list: EntryList; reads: () => number } {
  const entries: Entry[] = Array.from({ length: size }, () => ({ kind: 'agent', text: 'x' }));
  let reads = 0;
  const list: EntryList = {
    at: (index) => {
      reads++;
      return entries[index];
    },
    get length() {
      return entries.length;
    },
    push: (entry) => void entries.push(entry),
    replace: (index, entry) => void (entries[index] = entry),
  };
  return { list, reads: () => reads };
}
