/** The presentation state a renderer needs: entries are pure functions of (entry, index, this). */
export interface RenderContext {
  /** Whether disclosure `part` of entry `index` is open (a thought's one has no part). */
  isOpen(index: number, part?: string): boolean;
  isExpanded(index: number, contentIndex: number): boolean;
  /** The oldest checkpoint still kept: a message with an older one can no longer restore it. */
  oldestCheckpoint(): number | null;
}
