import * as z from 'zod/mini';
import type { EntryView } from './protocol';
import { loadState, saveState } from './vscode';

// Saved with vscode.setState; parsed leniently since an older build may have written it.
const SavedSchema = z.object({
  /** Open disclosures: `index` (a thought) or `index:part` (a tool's input or output, a compaction's summary); older builds saved numbers. */
  open: z.catch(z.array(z.union([z.pipe(z.int(), z.transform(String)), z.string()])), []),
  expanded: z.catch(z.array(z.string()), []),
  draft: z.catch(z.string(), ''),
  /** The pinned plan is folded to its header. */
  planFolded: z.catch(z.boolean(), false),
});
type Saved = z.infer<typeof SavedSchema>;

/** Entries with disclosures the user opens: a re-render keeps them as the user left them. */
const DISCLOSING = new Set<EntryView['kind']>(['thought', 'tool', 'compaction']);

/**
 * What the user did to the view rather than what the host sent: disclosures opened (thoughts,
 * a tool's raw input and output, a compaction's summary), long outputs expanded, the unsent
 * prompt. Keyed by entry index (+ part or content index), kept across reloads.
 */
export class Presentation {
  private readonly open: Set<string>;
  private readonly expanded: Set<string>;
  private draftText: string;
  private folded: boolean;

  constructor() {
    const parsed = SavedSchema.safeParse(loadState() ?? {});
    const saved: Saved = parsed.success ? parsed.data : { open: [], expanded: [], draft: '', planFolded: false };
    this.open = new Set(saved.open);
    this.expanded = new Set(saved.expanded);
    this.draftText = saved.draft;
    this.folded = saved.planFolded;
  }

  /** `part`: which disclosure of the entry (none for a thought's one). */
  isOpen(index: number, part = ''): boolean {
    return this.open.has(openKey(index, part));
  }

  setOpen(index: number, open: boolean, part = ''): void {
    const key = openKey(index, part);
    if (open === this.open.has(key)) return;
    if (open) this.open.add(key);
    else this.open.delete(key);
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

  /** Whether the user folded the pinned plan: it stays folded for the next plans too, until unfolded. */
  get planFolded(): boolean {
    return this.folded;
  }

  set planFolded(folded: boolean) {
    this.folded = folded;
    this.save();
  }

  /** After a snapshot: forget state about entries that are gone or are now something else (a new session). */
  prune(entries: readonly (EntryView | undefined)[]): void {
    for (const key of this.open) {
      const kind = entries[parseInt(key, 10)]?.kind;
      if (!kind || !DISCLOSING.has(kind)) this.open.delete(key);
    }
    for (const key of this.expanded) {
      const [index = -1, contentIndex = -1] = key.split(':').map(Number);
      const entry = entries[index];
      if (entry?.kind !== 'tool' || entry.content[contentIndex]?.type !== 'text') this.expanded.delete(key);
    }
    this.save();
  }

  private save(): void {
    const saved: Saved = { open: [...this.open], expanded: [...this.expanded], draft: this.draftText, planFolded: this.folded };
    saveState(saved);
  }
}

function openKey(index: number, part: string): string {
  return part ? `${index}:${part}` : String(index);
}
