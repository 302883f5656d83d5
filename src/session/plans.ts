import type { PlanEntry, PlanUpdateContent } from '../protocol';
import type { EntryList } from './entryList';
import { KeyedEntries } from './keyedEntries';
import type { Entry, PlanContent, PlanItem } from './model';

/** A live plan: null is the `plan`, a string the id of an id-addressed one. */
type PlanKey = string | null;

/**
 * The transcript's plans: the one `plan` (each replaces the last wholesale, ACP §11) and the
 * id-addressed ones (unstable `plan_update` replaces plan `planId`, `plan_removed` marks it
 * removed), each found by its index rather than by a search back through the transcript. The
 * current plan (the one pinned above the prompt box) is the live plan changed last: a reference
 * kept as plans change, never looked for in the entries.
 */
export class Plans {
  /** The entry index of the last `plan`. */
  private last: number | undefined;
  private readonly byId: KeyedEntries<'planById'>;
  /** The plans not removed, the one changed last at the end (a Set keeps insertion order). */
  private readonly live = new Set<PlanKey>();
  /** The last of `live`, kept so reading it costs nothing. */
  private currentKey: PlanKey | undefined;

  constructor(
    private readonly entries: EntryList,
    /** Told after every change of `current`. */
    private readonly onCurrent: () => void = () => {},
  ) {
    this.byId = new KeyedEntries(entries, 'planById', (entry) => entry.planId);
  }

  /** The current plan's content; null when there is none (never sent, removed, or a `plan` with no steps). */
  get current(): PlanContent | null {
    if (this.currentKey === undefined) return null;
    if (this.currentKey !== null) return this.byId.get(this.currentKey)?.content ?? null;
    const plan = this.entries.at(this.last ?? -1);
    return plan?.kind === 'plan' && plan.entries.length > 0 ? { type: 'items', entries: plan.entries } : null;
  }

  set(items: readonly PlanEntry[]): void {
    const plan: Entry = { kind: 'plan', entries: planItems(items) };
    if (this.last === undefined) {
      this.last = this.entries.length;
      this.entries.push(plan);
    } else this.entries.replace(this.last, plan);
    this.touch(null);
  }

  update(plan: PlanUpdateContent): void {
    this.byId.set({ kind: 'planById', planId: plan.planId, content: planContent(plan) });
    this.touch(plan.planId);
  }

  /** A plan never announced has nothing to remove. */
  remove(planId: string): void {
    if (!this.byId.get(planId)) return;
    this.byId.set({ kind: 'planById', planId, content: null });
    this.live.delete(planId);
    // The live plan changed last becomes current: a walk over the live plans, never over the transcript.
    if (this.currentKey === planId) this.currentKey = lastOf(this.live);
    this.onCurrent();
  }

  /** Indexes the plans of a restored transcript (the current one is the last live plan in it). */
  restored(entries: readonly Entry[]): void {
    const last = entries.findLastIndex((entry) => entry.kind === 'plan');
    this.last = last === -1 ? undefined : last;
    this.byId.restored(entries);
    this.live.clear();
    // Each plan has one entry: in the transcript's order, the plan shown last stands for the one changed last.
    for (const entry of entries) {
      if (entry.kind === 'plan') this.live.add(null);
      else if (entry.kind === 'planById' && entry.content !== null) this.live.add(entry.planId);
    }
    this.currentKey = lastOf(this.live);
    this.onCurrent();
  }

  clear(): void {
    this.last = undefined;
    this.byId.clear();
    this.live.clear();
    this.currentKey = undefined;
    this.onCurrent();
  }

  /** Plan `key` changed: it is the current plan now. */
  private touch(key: PlanKey): void {
    this.live.delete(key);
    this.live.add(key);
    this.currentKey = key;
    this.onCurrent();
  }
}

function lastOf<T>(set: ReadonlySet<T>): T | undefined {
  let last: T | undefined;
  for (const value of set) last = value;
  return last;
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
