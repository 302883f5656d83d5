import type { Entry } from './model';

/**
 * What the transcript's parts (tool cards, questions) may do to its entries: read one, add one,
 * replace one. The transcript owns the list and tells the panel of every change.
 */
export interface EntryList {
  at(index: number): Entry | undefined;
  readonly length: number;
  push(entry: Entry): void;
  replace(index: number, entry: Entry): void;
}
