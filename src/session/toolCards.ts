// Not through '../protocol': the session layer loads without building ACP's schemas (lazySchemas.ts).
import { parentToolCallIdOf } from '../protocol/schema/subagentMeta';
import type { ToolCall, ToolCallContent, ToolCallUpdate } from '../protocol';
import { contentText } from './contentText';
import { DiffTexts } from './diffTexts';
import type { DiffSource } from './diffTexts';
import type { EntryList } from './entryList';
import { KeyedEntries } from './keyedEntries';
import type { Entry, TerminalState, ToolContent, ToolEntry } from './model';
import { rawJson } from './rawJson';

const NO_OUTPUT: TerminalState = { output: '', truncated: false, exitStatus: null };

/**
 * The transcript's tool call cards: upserted by id, merging only the fields present (ACP §8:
 * `content` and `locations` replace the stored arrays; `rawInput` and `rawOutput` are kept as
 * bounded, masked JSON text), with their diffs' full texts (within the
 * session's budget) and the output of the client terminals they embed.
 */
export class ToolCards {
  private readonly cards: KeyedEntries<'tool'>;
  /** Per tool call, its diffs' summaries and (within the session's budget) full texts. */
  private readonly diffs: DiffTexts;
  /** What each client terminal has shown, for the cards that embed it (and for cards that embed it later). */
  private readonly terminals = new Map<string, TerminalState>();
  /** Per client terminal, the cards that embed it: its output updates those, whatever the number of cards. */
  private readonly embedding = new Map<string, Set<string>>();
  /** The cards announced or updated in the turn that runs, if one does: what its end may mark unfinished. */
  private turn: Set<string> | undefined;
  /** Cards ACP Host made for its own questions (`hostCard`): no update of the agent's changes them. */
  private readonly hostCards = new Set<string>();

  constructor(entries: EntryList, diffTextChars?: number) {
    this.cards = new KeyedEntries(entries, 'tool', (entry) => entry.toolCallId);
    this.diffs = new DiffTexts(diffTextChars);
  }

  /** The card of `toolCallId`, when it was announced. */
  entry(toolCallId: string): ToolEntry | undefined {
    return this.cards.get(toolCallId);
  }

  /** The kind of tool call `toolCallId`, when it was announced. */
  kindOf(toolCallId: string): string | undefined {
    return this.entry(toolCallId)?.toolKind;
  }

  /** The ids of the cards whose call is still pending or running (of the turn that runs, with `inTurn`). */
  running(inTurn = false): string[] {
    return [...(inTurn ? (this.turn ?? []) : this.cards.ids())].filter((id) => {
      const status = this.entry(id)?.status;
      return status === 'pending' || status === 'in_progress';
    });
  }

  /** A turn begins; `adoptRunning`: the cards still running are its own (a turn the agent carries on after a load). */
  beginTurn(adoptRunning = false): void {
    this.turn = new Set(adoptRunning ? this.running() : []);
  }

  /** The turn ended: the ids of its cards still pending or running. */
  endTurn(): string[] {
    const running = this.running(true);
    this.turn = undefined;
    return running;
  }

  /**
   * The agent's word on a tool call (its `tool_call`, `tool_call_update`, or the tool call of its
   * permission request). False, and nothing changes, when the card is ACP Host's own.
   */
  upsert(update: ToolCall | ToolCallUpdate): boolean {
    if (this.hostCards.has(update.toolCallId)) return false;
    this.merge(update);
    return true;
  }

  /** A card of ACP Host's own (its policy's question, when no tool call of the agent's runs), created or updated; only ACP Host changes it. */
  hostCard(update: ToolCallUpdate): void {
    this.hostCards.add(update.toolCallId);
    this.merge(update);
  }

  /** Whether `toolCallId` is a card of ACP Host's own (`hostCard`). */
  isHostCard(toolCallId: string): boolean {
    return this.hostCards.has(toolCallId);
  }

  private merge(update: ToolCall | ToolCallUpdate): void {
    this.turn?.add(update.toolCallId);
    const at = this.cards.indexOf(update.toolCallId);
    const patch: Partial<ToolEntry> = {};
    if (update.title != null) patch.title = update.title;
    if (update.name != null) patch.name = update.name;
    const parent = parentToolCallIdOf(update._meta);
    if (parent !== undefined && parent !== update.toolCallId) patch.parentToolCallId = parent;
    if (update.kind != null) patch.toolKind = update.kind;
    if (update.status != null) patch.status = update.status;
    // A new content or locations array replaces the old one (ACP §8).
    let dropped = new Set<string>();
    if (update.content != null) {
      const sources = update.content.map((c): DiffSource | undefined => (c.type === 'diff' ? { path: c.path, oldText: c.oldText ?? null, newText: c.newText } : undefined));
      const diffs = this.diffs.set(update.toolCallId, sources);
      dropped = diffs.dropped;
      patch.content = update.content.map((c, i) => (c.type === 'diff' ? diffs.views[i]! : this.contentView(c)));
    }
    if (update.locations != null) patch.locations = update.locations.map((l) => ({ path: l.path, line: l.line ?? null }));
    // Any JSON value; null reads as absent, as for the other fields of an update.
    if (update.rawInput != null) patch.rawInput = rawJson(update.rawInput);
    if (update.rawOutput != null) patch.rawOutput = rawJson(update.rawOutput);
    // An update for a call never announced still shows: protocol drift stays visible.
    const card = this.cards.entryAt(at) ?? { kind: 'tool', toolCallId: update.toolCallId, title: 'Tool call', toolKind: 'other', status: 'pending', content: [], locations: [] };
    if (patch.content) this.indexTerminals(update.toolCallId, card.content, patch.content);
    this.cards.put(at, { ...card, ...patch });
    // Earlier cards whose diffs lost their full texts to make room say so.
    for (const toolCallId of dropped) {
      const views = this.diffs.views(toolCallId);
      const entry = this.entry(toolCallId);
      if (entry) this.patch(toolCallId, { content: entry.content.map((c, i) => views[i] ?? c) });
    }
  }

  /** ACP Host's word on a tool call's card (which `toolCall`, the agent's, creates if never announced): how its policy answered. */
  notePolicy(toolCall: ToolCallUpdate, policyNote: string): void {
    this.upsert(toolCall);
    this.patch(toolCall.toolCallId, { policyNote });
  }

  patch(toolCallId: string, patch: Partial<ToolEntry>): void {
    const at = this.cards.indexOf(toolCallId);
    const entry = this.cards.entryAt(at);
    if (entry) this.cards.put(at, { ...entry, ...patch });
  }

  /** The full texts of diff `contentIndex` of the tool call at entry `index`, if it is one. */
  diffSource(entry: Entry | undefined, contentIndex: number): DiffSource | undefined {
    return entry?.kind === 'tool' ? this.diffs.source(entry.toolCallId, contentIndex) : undefined;
  }

  /** A client terminal produced output or ended: every card embedding it shows the new state. */
  updateTerminal(terminalId: string, state: TerminalState): void {
    this.terminals.set(terminalId, state);
    for (const toolCallId of this.embedding.get(terminalId) ?? []) {
      const at = this.cards.indexOf(toolCallId);
      const entry = this.cards.entryAt(at);
      if (!entry) continue;
      const content = entry.content.map((c) => (c.type === 'terminal' && c.terminalId === terminalId ? { ...c, ...state } : c));
      this.cards.put(at, { ...entry, content });
    }
  }

  /** Indexes the cards of a restored transcript. */
  restored(entries: readonly Entry[]): void {
    this.cards.restored(entries);
    for (const entry of entries) if (entry.kind === 'tool') this.indexTerminals(entry.toolCallId, [], entry.content);
  }

  clear(): void {
    this.turn?.clear();
    this.cards.clear();
    this.hostCards.clear();
    this.diffs.clear();
    this.terminals.clear();
    this.embedding.clear();
  }

  /** A card's content went from `before` to `after`: it embeds the terminals of `after` now. */
  private indexTerminals(toolCallId: string, before: readonly ToolContent[], after: readonly ToolContent[]): void {
    for (const c of before) if (c.type === 'terminal') this.embedding.get(c.terminalId)?.delete(toolCallId);
    for (const c of after) {
      if (c.type !== 'terminal') continue;
      const cards = this.embedding.get(c.terminalId) ?? new Set<string>();
      this.embedding.set(c.terminalId, cards.add(toolCallId));
    }
  }

  private contentView(content: Exclude<ToolCallContent, { type: 'diff' }>): ToolContent {
    switch (content.type) {
      case 'content':
        return { type: 'text', text: contentText(content.content) };
      case 'terminal':
        return { type: 'terminal', terminalId: content.terminalId, ...(this.terminals.get(content.terminalId) ?? NO_OUTPUT) };
    }
  }
}
