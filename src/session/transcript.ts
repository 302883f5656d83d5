import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import type { ContentBlockOrUnknown, Notice, SessionUpdate } from '../protocol';
import { Compactions } from './compactions';
import { contentText } from './contentText';
import type { DiffSource } from './diffTexts';
import type { EntryList } from './entryList';
import type { AttachmentLabel, Entry, PlanContent, TextEntry, TurnEnd } from './model';
import { Plans } from './plans';
import { Questions } from './questions';
import { ToolCards } from './toolCards';

/**
 * The transcript of one session, folded from `session/update`s (Zed's acp_thread is the model):
 * append to the last entry when the kind matches, upsert tool calls by id (`tools`), replace
 * plans wholesale (`plans`, also by id), upsert compactions by id (`compactions`); what waits on
 * the user is held beside the entries that show it (`questions`). Every fold finds its entry by
 * index, never by a search, so it costs the size of the update, not of the transcript. Its
 * entries are the panel's view model already (pure data, no ACP types), so the host posts them
 * as they are. Entries are only ever added or replaced, so an index names one entry for the
 * transcript's life (until `clear`).
 */
export type TranscriptEvent =
  | { type: 'added' | 'updated'; index: number }
  /** Text entry `index` grew by `text` (the rest of it is unchanged). */
  | { type: 'appended'; index: number; text: string }
  /** Everything was dropped (a new session). */
  | { type: 'reset' };

export type { DiffSource } from './diffTexts';

/** Streamed chunks are joined into their entry's text in blocks of this many (see `appendText`). */
const JOINED_CHUNKS = 64;

export class Transcript {
  private list: Entry[] = [];
  /** Tool call cards by id, with their diffs and embedded terminals. */
  readonly tools: ToolCards;
  /** The permissions and forms waiting on the user. */
  readonly questions: Questions;
  private readonly plans: Plans;
  private readonly compactions: Compactions;
  /** The `messageId` of the last text entry, when the agent gives them: a new id starts a new entry. */
  private openMessageId: string | undefined;
  /**
   * The text entry chunks stream into, while its entry lags behind: its text so far, and the
   * chunks since (`pieces`). The entry is rebuilt when `entries` is read (the panel's feed
   * reads it once per post, however many chunks came since), not per chunk: a copy of the entry
   * per chunk, and its garbage, were a third of the fold's cost (bench/throughput.mjs).
   */
  private open: { index: number; text: string; pieces: string[] } | undefined;
  /**
   * The prompt just shown, while the agent may still echo it back as `user_message_chunk`s (some
   * do, live): what of its text has come back so far, and the echo's `messageId`. Until another
   * entry is added or the turn ends. ACP v1's session/prompt carries no id of ours, so the echo
   * is known by its text; a replay (session/load) has no prompt shown, so it is never held back.
   */
  private echo: { prompt: string; echoed: string; messageId: string | undefined; attachments: boolean } | undefined;
  /** The number of the turn that runs, if one does; `turns` counts them. */
  private turn: number | undefined;
  private turns = 0;
  private stoppedTurn: number | undefined;
  private readonly changed = new Emitter<TranscriptEvent>();
  /** Fired for every change, in order: the feed, follow and the review walk it. */
  readonly onChange: Event<TranscriptEvent> = this.changed.event;
  private readonly planChanged = new Emitter<void>();
  /** Fired when the current plan (`plan`) may have changed. */
  readonly onPlan: Event<void> = this.planChanged.event;

  /** `diffTextChars`: what the full texts of diffs may take (diffTexts.ts). */
  constructor(diffTextChars?: number) {
    // The entries as the transcript's parts see them: every change goes through `push` and `replace`.
    const list = () => this.list;
    const parts: EntryList = {
      at: (index) => list()[index],
      get length() {
        return list().length;
      },
      push: (entry) => this.push(entry),
      replace: (index, entry) => this.replace(index, entry),
    };
    this.tools = new ToolCards(parts, diffTextChars);
    this.questions = new Questions(parts, this.tools);
    this.plans = new Plans(parts, () => this.planChanged.fire());
    this.compactions = new Compactions(parts);
  }

  get entries(): readonly Entry[] {
    this.settle();
    return this.list;
  }

  /** The current plan (the live plan the agent changed last), without a search through the entries. */
  get plan(): PlanContent | null {
    return this.plans.current;
  }

  /** Returns false for updates it does not fold: not transcript entries (session state, unknown kinds), or the agent's update of a card of ACP Host's own. */
  apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        this.appendUserChunk(update.content, update.messageId ?? undefined);
        return true;
      case 'agent_message_chunk':
        this.appendText('agent', contentText(update.content), update.messageId ?? undefined);
        return true;
      case 'agent_thought_chunk':
        this.appendText('thought', contentText(update.content), update.messageId ?? undefined);
        return true;
      case 'tool_call':
      case 'tool_call_update':
        return this.tools.upsert(update);
      case 'plan':
        this.plans.set(update.entries);
        return true;
      case 'plan_update':
        this.plans.update(update.plan);
        return true;
      case 'plan_removed':
        this.plans.remove(update.planId);
        return true;
      case 'compaction_update':
        this.compactions.update(update);
        return true;
      case 'compaction_summary_chunk':
        this.compactions.appendSummary(update);
        return true;
      case 'notice':
        this.addNotice(update);
        return true;
      default:
        return false;
    }
  }

  /** What the user sent; `attachments` are the labels of its context (files, selection, images); `checkpoint`, the files' checkpoint taken as it was sent. */
  addUserPrompt(text: string, attachments: readonly AttachmentLabel[] = [], checkpoint?: number): void {
    this.push({ kind: 'user', text, ...(attachments.length > 0 && { attachments: [...attachments] }), ...(checkpoint !== undefined && { checkpoint }) });
    this.echo = { prompt: text, echoed: '', messageId: undefined, attachments: attachments.length > 0 };
  }

  addError(message: string): void {
    this.push({ kind: 'error', message });
  }

  /** ACP Host's own word in the conversation (not an error). */
  addNote(message: string): void {
    this.push({ kind: 'note', message });
  }

  /**
   * A turn begins: the tool calls and questions from now until it ends are its own. Returns the
   * turn's number, for `endTurn`. `adoptRunning`: the calls still running are its own too (a
   * turn the agent carries on after a load). A turn still open ends first, without a marker.
   */
  beginTurn(adoptRunning = false): number {
    if (this.turn !== undefined) this.endTurn();
    this.tools.beginTurn(adoptRunning);
    this.questions.beginTurn();
    this.turn = ++this.turns;
    return this.turn;
  }

  /**
   * Ends turn `turn` (by default the one open): the questions it asked that still wait are
   * answered cancelled, its tool calls still running are marked unfinished (the agent may never
   * say), and the marker says how it ended (none when something else says so: a crash report, a
   * sign-in). A call with a question asked between turns still waiting on it is left as it is.
   * A turn that is over already (another began since) is left alone.
   */
  endTurn(end?: TurnEnd, turn = this.turn): void {
    if (turn !== this.turn) return;
    this.turn = undefined;
    this.echo = undefined;
    this.questions.endTurn();
    for (const toolCallId of this.tools.endTurn()) {
      if (!this.questions.asks(toolCallId)) this.tools.patch(toolCallId, { status: 'unfinished' });
    }
    if (end) this.push({ kind: 'turnEnd', ...end });
  }

  /**
   * The user stopped the open turn (session/cancel is sent): its tool calls still running are
   * unfinished at once, not when the agent answers (ACP: the client marks them as it cancels;
   * the agent's later word on a call still counts), and the turn counts as cancelled. What it
   * asks is cancelled with the stop.
   */
  stopTurn(): void {
    if (this.turn === undefined) return;
    this.stoppedTurn = this.turn;
    for (const toolCallId of this.tools.running(true)) this.tools.patch(toolCallId, { status: 'unfinished' });
  }

  /** Whether the user stopped turn `turn` (it ends cancelled whatever the agent answers). */
  stopped(turn: number): boolean {
    return this.stoppedTurn === turn;
  }

  /** The full texts of diff `contentIndex` of the tool call at entry `index`, if it is one. */
  diffSource(index: number, contentIndex: number): DiffSource | undefined {
    return this.tools.diffSource(this.list[index], contentIndex);
  }

  /**
   * Shows a session as it was saved (after a window reload, for agents that cannot replay it).
   * What waited for an answer then cannot be answered now: permissions are dropped, forms and
   * URL requests are cancelled (an opened URL's wait has ended), running tool calls are unfinished. Diffs keep their summary; the full texts were
   * not saved, so they no longer open in the diff editor (their cards say so).
   */
  restore(entries: readonly Entry[]): void {
    this.clear();
    this.list = entries.map((entry): Entry => {
      if (entry.kind === 'elicitation' && entry.state === 'pending') return { ...entry, state: 'cancelled' };
      if (entry.kind === 'urlElicitation' && (entry.state === 'pending' || entry.state === 'waiting')) return { ...entry, state: entry.state === 'pending' ? 'cancelled' : 'ended' };
      if (entry.kind !== 'tool') return entry;
      const status = entry.status === 'pending' || entry.status === 'in_progress' ? 'unfinished' : entry.status;
      const content = entry.content.map((c) => (c.type === 'diff' ? { ...c, textsDropped: true } : c));
      return { ...entry, status, content, permission: undefined };
    });
    this.tools.restored(this.list);
    this.plans.restored(this.list);
    this.compactions.restored(this.list);
    this.emit({ type: 'reset' });
  }

  /**
   * After session/load replayed the conversation over what was `saved` (a window reload): each
   * replayed message of the user takes the checkpoint its saved copy had, so Restore checkpoint
   * and Edit survive the reload with agents that replay. Matched in order and by text: a message
   * the agent replays otherwise (or not at all) gets none, never another message's.
   */
  carryCheckpoints(saved: readonly Entry[]): void {
    const savedUsers = saved.flatMap((e) => (e.kind === 'user' ? [{ text: comparable(e.text), checkpoint: e.checkpoint }] : []));
    let next = 0;
    let carried = false;
    this.list.forEach((entry, index) => {
      if (entry.kind !== 'user') return;
      const text = comparable(entry.text);
      let at = next;
      while (at < savedUsers.length && savedUsers[at].text !== text) at++;
      if (at === savedUsers.length) return;
      next = at + 1;
      const { checkpoint } = savedUsers[at];
      if (checkpoint === undefined || entry.checkpoint !== undefined) return;
      // In place: the transcript's parts index this array.
      this.list[index] = { ...entry, checkpoint };
      carried = true;
    });
    if (carried) this.emit({ type: 'reset' });
  }

  /** Drops every entry (a new session starts); what still waited on the user is answered first. */
  clear(): void {
    this.questions.cancelWaiting();
    this.list = [];
    this.tools.clear();
    this.questions.clear();
    this.plans.clear();
    this.compactions.clear();
    this.openMessageId = undefined;
    this.open = undefined;
    this.echo = undefined;
    this.emit({ type: 'reset' });
  }

  /**
   * A user chunk that goes on with the echo of the prompt just shown (its text, or one of its
   * attachments) is not shown twice. One that does not is shown, with what was held back as the
   * start of an echo of the same message: it was not one.
   */
  private appendUserChunk(content: ContentBlockOrUnknown, messageId: string | undefined): void {
    const text = contentText(content);
    const echo = this.echo;
    if (!echo) return this.appendText('user', text, messageId);
    const sameMessage = messageId === undefined || echo.messageId === undefined || messageId === echo.messageId;
    const goesOn = content.type === 'text' ? echo.prompt.startsWith(text, echo.echoed.length) : echo.attachments;
    if (sameMessage && goesOn) {
      if (content.type === 'text') echo.echoed += text;
      echo.messageId ??= messageId;
      // The prompt's entry is that message now: a user chunk with another id starts another.
      if (messageId !== undefined) this.openMessageId = messageId;
      return;
    }
    this.echo = undefined;
    const heldBack = sameMessage && echo.echoed !== echo.prompt ? echo.echoed : '';
    this.appendText('user', heldBack + text, messageId);
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

  /** Custom severities (`_vendor…`, later ones) show as `info`. */
  private addNotice({ severity, title, description }: Notice): void {
    this.push({ kind: 'notice', severity: severity === 'warning' || severity === 'error' ? severity : 'info', title, description: description ?? null });
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
    this.echo = undefined;
    this.list.push(entry);
    this.emit({ type: 'added', index: this.list.length - 1 });
  }

  private emit(event: TranscriptEvent): void {
    this.changed.fire(event);
  }
}

/** A message as compared with its replay: line ends and surrounding space may differ. */
function comparable(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
