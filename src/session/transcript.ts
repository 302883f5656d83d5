import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import type { CreateElicitationResponse, RequestPermissionResponse, SessionUpdate, StopReason, ToolCall, ToolCallContent, ToolCallUpdate } from '../protocol';
import type { ElicitationState } from '../forms/elicitationForm';
import { contentText } from './contentText';
import { DiffTexts } from './diffTexts';
import type { DiffSource } from './diffTexts';
import { Waits } from './waits';
import type { AttachmentLabel, Entry, FormEntry, PermissionOption, PlanItem, TerminalState, TextEntry, ToolContent, ToolEntry } from './model';

/**
 * The transcript of one session, folded from `session/update`s (Zed's acp_thread is the model):
 * append to the last entry when the kind matches, upsert tool calls by id, merge only the fields
 * present, replace plans wholesale. Its entries are the panel's view model already (pure data,
 * no ACP types), so the host posts them as they are. Entries are only ever added or replaced, so
 * an index names one entry for the transcript's life (until `clear`).
 */
export type TranscriptEvent =
  | { type: 'added' | 'updated'; index: number }
  /** Text entry `index` grew by `text` (the rest of it is unchanged). */
  | { type: 'appended'; index: number; text: string }
  /** Everything was dropped (a new session). */
  | { type: 'reset' };

export type { DiffSource } from './diffTexts';

const NO_OUTPUT: TerminalState = { output: '', truncated: false, exitStatus: null };
/** Streamed chunks are joined into their entry's text in blocks of this many (see `appendText`). */
const JOINED_CHUNKS = 64;

export class Transcript {
  private list: Entry[] = [];
  private readonly toolIndex = new Map<string, number>();
  /** Elicitation entries by their request key. */
  private readonly elicitationIndex = new Map<string, number>();
  /** The permission requests waiting on the user, by tool call (the entry shows the options). */
  private readonly permissionWaits = new Waits<RequestPermissionResponse>({ outcome: { outcome: 'cancelled' } });
  /** The forms waiting on the user, by request key. */
  private readonly formWaits = new Waits<CreateElicitationResponse>({ action: 'cancel' });
  /** Per tool call, its diffs' summaries and (within the session's budget) full texts. */
  private readonly diffs: DiffTexts;
  /** What each client terminal has shown, for the cards that embed it (and for cards that embed it later). */
  private readonly terminals = new Map<string, TerminalState>();
  /** The `messageId` of the last text entry, when the agent gives them: a new id starts a new entry. */
  private openMessageId: string | undefined;
  /**
   * The text entry chunks stream into, while its entry lags behind: its text so far, and the
   * chunks since (`pieces`). The entry is rebuilt when `entries` is read (the panel's feed
   * reads it once per post, however many chunks came since), not per chunk: a copy of the entry
   * per chunk, and its garbage, were a third of the fold's cost (bench/throughput.mjs).
   */
  private open: { index: number; text: string; pieces: string[] } | undefined;
  private readonly changed = new Emitter<TranscriptEvent>();
  /** Fired for every change, in order: the feed, follow and the review walk it. */
  readonly onChange: Event<TranscriptEvent> = this.changed.event;

  /** `diffTextChars`: what the full texts of diffs may take (diffTexts.ts). */
  constructor(diffTextChars?: number) {
    this.diffs = new DiffTexts(diffTextChars);
  }

  get entries(): readonly Entry[] {
    this.settle();
    return this.list;
  }

  /** Returns false for updates that are not transcript entries (session state, unknown kinds). */
  apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        this.appendText('user', contentText(update.content), update.messageId ?? undefined);
        return true;
      case 'agent_message_chunk':
        this.appendText('agent', contentText(update.content), update.messageId ?? undefined);
        return true;
      case 'agent_thought_chunk':
        this.appendText('thought', contentText(update.content), update.messageId ?? undefined);
        return true;
      case 'tool_call':
      case 'tool_call_update':
        this.upsertTool(update);
        return true;
      case 'plan':
        this.setPlan(update.entries);
        return true;
      default:
        return false;
    }
  }

  /** What the user sent; `attachments` are the labels of its context (files, selection, images). */
  addUserPrompt(text: string, attachments: readonly AttachmentLabel[] = []): void {
    this.push(attachments.length > 0 ? { kind: 'user', text, attachments: [...attachments] } : { kind: 'user', text });
  }

  addError(message: string): void {
    this.push({ kind: 'error', message });
  }

  /**
   * Ends a turn: tool calls still running are marked unfinished (the agent may never say), and a
   * permission still asked on one of them is answered `cancelled`.
   */
  endTurn(stopReason: StopReason): void {
    for (const [toolCallId, index] of this.toolIndex) {
      const entry = this.list[index];
      if (entry.kind === 'tool' && (entry.status === 'pending' || entry.status === 'in_progress')) {
        this.replace(index, { ...entry, status: 'unfinished', permission: undefined });
        this.permissionWaits.answer(toolCallId);
      }
    }
    this.push({ kind: 'turnEnd', stopReason });
  }

  /**
   * A permission request is state of its tool call (which it creates if never announced): the
   * entry shows the options, the transcript holds the answer. A second request for the same call
   * supersedes the first, which is answered `cancelled`: each request gets exactly one answer.
   * `policyNote` is ACP Host's own word on the card (why the host asks).
   */
  askPermission(toolCall: ToolCallUpdate, options: PermissionOption[], policyNote?: string): Promise<RequestPermissionResponse> {
    const answer = this.permissionWaits.ask(toolCall.toolCallId);
    this.upsertTool(toolCall);
    this.patchTool(toolCall.toolCallId, { permission: options, policyNote });
    return answer;
  }

  /** The kind of tool call `toolCallId`, when it was announced. */
  toolKindOf(toolCallId: string): string | undefined {
    const entry = this.list[this.toolIndex.get(toolCallId) ?? -1];
    return entry?.kind === 'tool' ? entry.toolKind : undefined;
  }

  /** ACP Host's word on a tool call's card (which it creates if never announced): how its policy answered. */
  notePolicy(toolCall: ToolCallUpdate, policyNote: string): void {
    this.upsertTool(toolCall);
    this.patchTool(toolCall.toolCallId, { policyNote });
  }

  /**
   * The user's choice for the permission asked on `toolCallId`. Refused (false, nothing sent)
   * when nothing is asked there, or `optionId` is not one of the options offered.
   */
  answerPermission(toolCallId: string, optionId: string): boolean {
    const entry = this.list[this.toolIndex.get(toolCallId) ?? -1];
    const offered = entry?.kind === 'tool' && entry.permission?.some((o) => o.optionId === optionId);
    if (!offered || !this.permissionWaits.answer(toolCallId, { outcome: { outcome: 'selected', optionId } })) return false;
    this.patchTool(toolCallId, { permission: undefined });
    return true;
  }

  /** An elicitation form (state pending); it is answered through `answerElicitation`. */
  addElicitation(entry: Omit<FormEntry, 'kind' | 'state'>): Promise<CreateElicitationResponse> {
    const answer = this.formWaits.ask(entry.requestKey);
    this.elicitationIndex.set(entry.requestKey, this.list.length);
    this.push({ kind: 'elicitation', ...entry, state: 'pending' });
    return answer;
  }

  /** The form `requestKey` while it waits for an answer. */
  waitingForm(requestKey: string): FormEntry | undefined {
    const entry = this.list[this.elicitationIndex.get(requestKey) ?? -1];
    return this.formWaits.has(requestKey) && entry?.kind === 'elicitation' ? entry : undefined;
  }

  /** The request keys of the forms waiting for an answer, oldest first. */
  get waitingForms(): string[] {
    return this.formWaits.keys;
  }

  /** Answers form `requestKey` and shows how; false when it was not waiting. */
  answerElicitation(requestKey: string, response: CreateElicitationResponse, state: ElicitationState, content?: FormEntry['content']): boolean {
    if (!this.formWaits.answer(requestKey, response)) return false;
    this.updateElicitation(requestKey, { state, error: undefined, content });
    return true;
  }

  /**
   * The turn was cancelled or ended, or the agent went away: every permission still asked is
   * answered `cancelled` and every open form `cancel`, walking what the transcript holds.
   */
  cancelWaiting(): void {
    for (const toolCallId of this.permissionWaits.keys) {
      this.permissionWaits.answer(toolCallId);
      this.patchTool(toolCallId, { permission: undefined });
    }
    for (const requestKey of this.formWaits.keys) this.answerElicitation(requestKey, { action: 'cancel' }, 'cancelled');
  }

  /** The host's verdict on an answer it refused (`error`; undefined clears it), or the state it ended in. */
  updateElicitation(requestKey: string, patch: Partial<Pick<FormEntry, 'state' | 'error' | 'content'>>): void {
    const index = this.elicitationIndex.get(requestKey);
    const entry = index === undefined ? undefined : this.list[index];
    if (index === undefined || entry?.kind !== 'elicitation') return;
    const next: FormEntry = { ...entry, ...patch };
    if (next.error === undefined) delete next.error;
    if (next.content === undefined) delete next.content;
    this.replace(index, next);
  }

  /** The full texts of diff `contentIndex` of the tool call at entry `index`, if it is one. */
  diffSource(index: number, contentIndex: number): DiffSource | undefined {
    const entry = this.list[index];
    return entry?.kind === 'tool' ? this.diffs.source(entry.toolCallId, contentIndex) : undefined;
  }

  /** A client terminal produced output or ended: every card embedding it shows the new state. */
  updateTerminal(terminalId: string, state: TerminalState): void {
    this.terminals.set(terminalId, state);
    for (const index of this.toolIndex.values()) {
      const entry = this.list[index];
      if (entry.kind !== 'tool' || !entry.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) continue;
      const content = entry.content.map((c) => (c.type === 'terminal' && c.terminalId === terminalId ? { ...c, ...state } : c));
      this.replace(index, { ...entry, content });
    }
  }

  /**
   * Shows a session as it was saved (after a window reload, for agents that cannot replay it).
   * What waited for an answer then cannot be answered now: permissions are dropped, forms are
   * cancelled, running tool calls are unfinished. Diffs keep their summary; the full texts were
   * not saved, so they no longer open in the diff editor (their cards say so).
   */
  restore(entries: readonly Entry[]): void {
    this.clear();
    this.list = entries.map((entry): Entry => {
      if (entry.kind === 'elicitation' && entry.state === 'pending') return { ...entry, state: 'cancelled' };
      if (entry.kind !== 'tool') return entry;
      const status = entry.status === 'pending' || entry.status === 'in_progress' ? 'unfinished' : entry.status;
      const content = entry.content.map((c) => (c.type === 'diff' ? { ...c, textsDropped: true } : c));
      return { ...entry, status, content, permission: undefined };
    });
    this.list.forEach((entry, index) => {
      if (entry.kind === 'tool') this.toolIndex.set(entry.toolCallId, index);
    });
    this.emit({ type: 'reset' });
  }

  /** Drops every entry (a new session starts); what still waited on the user is answered first. */
  clear(): void {
    this.cancelWaiting();
    this.list = [];
    this.toolIndex.clear();
    this.elicitationIndex.clear();
    this.diffs.clear();
    this.terminals.clear();
    this.openMessageId = undefined;
    this.open = undefined;
    this.emit({ type: 'reset' });
  }

  private appendText(kind: TextEntry['kind'], text: string, messageId: string | undefined): void {
    if (text === '') return;
    const index = this.list.length - 1;
    const last = this.list[index];
    const sameMessage = messageId === undefined || this.openMessageId === undefined || messageId === this.openMessageId;
    if (last?.kind === kind && sameMessage) {
      if (this.open?.index !== index) {
        this.settle();
        this.open = { index, text: last.text, pieces: [] };
      }
      // Chunks chained one by one into the text all outlive the young-generation GC, which then
      // copies thousands of tiny strings (as costly as the rest of the fold); joined in blocks,
      // they die young.
      this.open.pieces.push(text);
      if (this.open.pieces.length === JOINED_CHUNKS) this.open.text += this.open.pieces.splice(0).join('');
      this.openMessageId ??= messageId;
      this.emit({ type: 'appended', index, text });
    } else {
      this.push({ kind, text });
      this.openMessageId = messageId;
    }
  }

  private upsertTool(update: ToolCall | ToolCallUpdate): void {
    const patch: Partial<ToolEntry> = {};
    if (update.title != null) patch.title = update.title;
    if (update.kind != null) patch.toolKind = update.kind;
    if (update.status != null) patch.status = update.status;
    // A new content or locations array replaces the old one (ACP §8).
    let dropped = new Set<string>();
    if (update.content != null) {
      const sources = update.content.map((c): DiffSource | undefined => (c.type === 'diff' ? { path: c.path, oldText: c.oldText ?? null, newText: c.newText } : undefined));
      const diffs = this.diffs.set(update.toolCallId, sources);
      dropped = diffs.dropped;
      patch.content = update.content.map((c, i) => (c.type === 'diff' ? diffs.views[i]! : this.toolContentView(c)));
    }
    if (update.locations != null) patch.locations = update.locations.map((l) => ({ path: l.path, line: l.line ?? null }));
    if (this.toolIndex.has(update.toolCallId)) {
      this.patchTool(update.toolCallId, patch);
    } else {
      this.toolIndex.set(update.toolCallId, this.list.length);
      // An update for a call never announced still shows: protocol drift stays visible.
      this.push({ kind: 'tool', toolCallId: update.toolCallId, title: 'Tool call', toolKind: 'other', status: 'pending', content: [], locations: [], ...patch });
    }
    // Earlier cards whose diffs lost their full texts to make room say so.
    for (const toolCallId of dropped) {
      const views = this.diffs.views(toolCallId);
      const entry = this.list[this.toolIndex.get(toolCallId) ?? -1];
      if (entry?.kind === 'tool') this.patchTool(toolCallId, { content: entry.content.map((c, i) => views[i] ?? c) });
    }
  }

  private patchTool(toolCallId: string, patch: Partial<ToolEntry>): void {
    const index = this.toolIndex.get(toolCallId);
    const entry = index === undefined ? undefined : this.list[index];
    if (index !== undefined && entry?.kind === 'tool') this.replace(index, { ...entry, ...patch });
  }

  private setPlan(entries: readonly PlanItem[]): void {
    const index = this.list.findLastIndex((e) => e.kind === 'plan');
    const plan: Entry = { kind: 'plan', entries: entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) };
    if (index === -1) this.push(plan);
    else this.replace(index, plan);
  }

  /** The streamed text entry gets its text (as a new object: one handed out earlier keeps its own). */
  private settle(): void {
    if (!this.open) return;
    const { index, text, pieces } = this.open;
    this.list[index] = { ...(this.list[index] as TextEntry), text: text + pieces.join('') };
    this.open = undefined;
  }

  private replace(index: number, entry: Entry): void {
    this.list[index] = entry;
    this.emit({ type: 'updated', index });
  }

  private push(entry: Entry): void {
    this.list.push(entry);
    this.emit({ type: 'added', index: this.list.length - 1 });
  }

  private emit(event: TranscriptEvent): void {
    this.changed.fire(event);
  }

  private toolContentView(content: Exclude<ToolCallContent, { type: 'diff' }>): ToolContent {
    switch (content.type) {
      case 'content':
        return { type: 'text', text: contentText(content.content) };
      case 'terminal':
        return { type: 'terminal', terminalId: content.terminalId, ...(this.terminals.get(content.terminalId) ?? NO_OUTPUT) };
    }
  }
}
