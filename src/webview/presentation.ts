import { z } from 'zod';
import type { EntryView } from './protocol';
import { loadState, saveState } from './vscode';

// Saved with vscode.setState; parsed leniently since an older build may have written it.
const SavedSchema = z.object({
  open: z.array(z.number().int()).catch([]),
  expanded: z.array(z.string()).catch([]),
  draft: z.string().catch(''),
});
type Saved = z.infer<typeof SavedSchema>;

/**
 * What the user did to the view rather than what the host sent: thoughts opened, long outputs
 * expanded, the unsent prompt. Keyed by entry index (+ content index), kept across reloads.
 */
export class Presentation {
  private readonly open: Set<number>;
  private readonly expanded: Set<string>;
  private draftText: string;

  constructor() {
    const parsed = SavedSchema.safeParse(loadState() ?? {});
    const saved: Saved = parsed.success ? parsed.data : { open: [], expanded: [], draft: '' };
    this.open = new Set(saved.open);
    this.expanded = new Set(saved.expanded);
    this.draftText = saved.draft;
  }

  isOpen(index: number): boolean {
    return this.open.has(index);
  }

  setOpen(index: number, open: boolean): void {
    if (open === this.open.has(index)) return;
    if (open) this.open.add(index);
    else this.open.delete(index);
    this.save();
  }

  isExpanded(index: number, contentIndex: number): boolean {
    return this.expanded.has(`${index}:${contentIndex}`);
  }

  setExpanded(index: number, contentIndex: number, expanded: boolean): void {
    if (expanded) this.expanded.add(`${index}:${contentIndex}`);
    else this.expanded.delete(`${index}:${contentIndex}`);
    this.save();
  }

  get draft(): string {
    return this.draftText;
  }

  set draft(text: string) {
    this.draftText = text;
    this.save();
  }

  /** After a snapshot: forget state about entries that are gone or are now something else (a new session). */
  prune(entries: readonly (EntryView | undefined)[]): void {
    for (const index of this.open) if (entries[index]?.kind !== 'thought') this.open.delete(index);
    for (const key of this.expanded) {
      const [index = -1, contentIndex = -1] = key.split(':').map(Number);
      const entry = entries[index];
      if (entry?.kind !== 'tool' || entry.content[contentIndex]?.type !== 'text') this.expanded.delete(key);
    }
    this.save();
  }

  private save(): void {
    const saved: Saved = { open: [...this.open], expanded: [...this.expanded], draft: this.draftText };
    saveState(saved);
  }
}
