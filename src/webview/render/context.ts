/** The presentation state a renderer needs: entries are pure functions of (entry, index, this). */
export interface RenderContext {
  isOpen(index: number): boolean;
  isExpanded(index: number, contentIndex: number): boolean;
}
