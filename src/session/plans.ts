import type { PlanEntry, PlanUpdateContent } from '../protocol';
import type { EntryList } from './entryList';
import { KeyedEntries } from './keyedEntries';
import type { Entry, PlanContent, PlanItem } from './model';

/**
 * The transcript's plans: the one `plan` (each replaces the last wholesale, ACP §11) and the
 * id-addressed ones (unstable `plan_update` replaces plan `planId`, `plan_removed` marks it
 * removed), each found by its index rather than by a search back through the transcript.
 */
export class Plans {
  /** The entry index of the last `plan`. */
  private last: number | undefined;
  private readonly byId: KeyedEntries<'planById'>;

  constructor(private readonly entries: EntryList) {
    this.byId = new KeyedEntries(entries, 'planById', (entry) => entry.planId);
  }

  set(items: readonly PlanEntry[]): void {
    const plan: Entry = { kind: 'plan', entries: planItems(items) };
    if (this.last === undefined) {
      this.last = this.entries.length;
      this.entries.push(plan);
    } else this.entries.replace(this.last, plan);
  }

  update(plan: PlanUpdateContent): void {
    this.byId.set({ kind: 'planById', planId: plan.planId, content: planContent(plan) });
  }

  /** A plan never announced has nothing to remove. */
  remove(planId: string): void {
    if (this.byId.get(planId)) this.byId.set({ kind: 'planById', planId, content: null });
  }

  /** Indexes the plans of a restored transcript. */
  restored(entries: readonly Entry[]): void {
    const last = entries.findLastIndex((entry) => entry.kind === 'plan');
    this.last = last === -1 ? undefined : last;
    this.byId.restored(entries);
  }

  clear(): void {
    this.last = undefined;
    this.byId.clear();
  }
}

function planItems(items: readonly PlanEntry[]): PlanItem[] {
  return items.map((item) => ({ content: item.content, priority: item.priority, status: item.status }));
}

function planContent(plan: PlanUpdateContent): PlanContent {
  switch (plan.type) {
    case 'items':
      return { type: 'items', entries: planItems(plan.entries) };
    case 'markdown':
      return { type: 'markdown', text: plan.content };
    case 'file':
      return { type: 'file', uri: plan.uri };
  }
}
