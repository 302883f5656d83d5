import type { CreateElicitationResponse, RequestPermissionResponse, ToolCallUpdate } from '../protocol';
import type { ElicitationState } from '../forms/elicitationForm';
import type { EntryList } from './entryList';
import type { Entry, FormEntry, PermissionOption, UrlEntry, UrlState } from './model';
import type { ToolCards } from './toolCards';
import { Waits } from './waits';

/** One question by what it is asked on: a permission by its tool call, a form by its request key. */
export type QuestionKey = { permission: string } | { form: string };

const tagOf = (key: QuestionKey) => ('permission' in key ? `permission:${key.permission}` : `form:${key.form}`);

/**
 * What the agent asks the user, held by the transcript beside the entries that show it: a
 * permission is state of its tool call's card, a form is an entry of its own. Whatever ends a
 * question (the user, cancel, stop, a crash, the end of the turn it was asked in) answers through
 * here, so each request gets exactly one answer. A question asked between turns (no prompt in
 * flight) belongs to no turn: only Stop, the user or the agent going away end it.
 */
export class Questions {
  /** The permission requests waiting on the user, by tool call (the card shows the options). */
  private readonly permissionWaits = new Waits<RequestPermissionResponse>({ outcome: { outcome: 'cancelled' } });
  /** The forms and URL requests waiting on the user, by request key. */
  private readonly formWaits = new Waits<CreateElicitationResponse>({ action: 'cancel' });
  /** Elicitation entries (forms and URL cards) by their request key. */
  private readonly formIndex = new Map<string, number>();
  /** The questions asked in the turn that runs, if one does (by tag): its end answers those still waiting. */
  private turn: Map<string, QuestionKey> | undefined;

  constructor(
    private readonly entries: EntryList,
    private readonly tools: ToolCards,
  ) {}

  /**
   * The agent's permission request is state of its tool call (which it creates if never
   * announced): the card shows the options, this holds the answer. A second request for the same
   * call supersedes the first, which is answered `cancelled`: each request gets exactly one
   * answer. A card of ACP Host's own is not the agent's to ask on: answered `cancelled` at once.
   */
  askPermission(toolCall: ToolCallUpdate, options: PermissionOption[]): Promise<RequestPermissionResponse> {
    if (this.tools.isHostCard(toolCall.toolCallId)) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    return this.wait(toolCall.toolCallId, options, undefined, toolCall);
  }

  /** ACP Host's own question on the card of `toolCallId` (the agent's, or its own: ToolCards.hostCard); `policyNote` says why it asks. */
  askForHost(toolCallId: string, options: PermissionOption[], policyNote: string): Promise<RequestPermissionResponse> {
    return this.wait(toolCallId, options, policyNote);
  }

  /** `announced`: the agent's tool call the question comes with, merged into the card. */
  private wait(toolCallId: string, options: PermissionOption[], policyNote: string | undefined, announced?: ToolCallUpdate): Promise<RequestPermissionResponse> {
    const answer = this.permissionWaits.ask(toolCallId);
    this.asked({ permission: toolCallId });
    if (announced) this.tools.upsert(announced);
    this.tools.patch(toolCallId, { permission: options, policyNote, permissionAnswer: undefined });
    return answer;
  }

  /**
   * The user's choice for the permission asked on `toolCallId`; the card shows it. Refused
   * (false, nothing sent) when nothing is asked there, or `optionId` is not one of the options offered.
   */
  answerPermission(toolCallId: string, optionId: string): boolean {
    const option = this.tools.entry(toolCallId)?.permission?.find((o) => o.optionId === optionId);
    if (!option || !this.permissionWaits.answer(toolCallId, { outcome: { outcome: 'selected', optionId } })) return false;
    this.tools.patch(toolCallId, { permission: undefined, permissionAnswer: { outcome: 'selected', name: option.name, kind: option.kind } });
    return true;
  }

  /** Whether a permission waits on the card of `toolCallId`. */
  asks(toolCallId: string): boolean {
    return this.permissionWaits.has(toolCallId);
  }

  /** The tool call of the oldest permission waiting on the user, if any (O(1): read on every transcript change). */
  get firstPermission(): string | undefined {
    return this.permissionWaits.first;
  }

  /** Every question waiting on the user: permissions, then forms, each oldest first. */
  get waiting(): QuestionKey[] {
    return [...this.permissionWaits.keys.map((permission) => ({ permission })), ...this.formWaits.keys.map((form) => ({ form }))];
  }

  /** How many questions wait on the user (cheap: read on every change of the transcript). */
  get waitingCount(): number {
    return this.permissionWaits.size + this.formWaits.size;
  }

  /**
   * Ends question `key` without an answer from the user: a permission is answered `cancelled`, a
   * form or a URL request `cancel`, and its card says so. (A URL the user opened is answered
   * already: its card waits on for the agent's `elicitation/complete`.) The one way a question ends unanswered (dismissed, Stop,
   * the end of its turn, the agent gone). False when it was not waiting.
   */
  cancel(key: QuestionKey): boolean {
    if ('form' in key) return this.urlEntry(key.form) ? this.answerUrl(key.form, 'cancel') : this.answerElicitation(key.form, { action: 'cancel' }, 'cancelled');
    if (!this.permissionWaits.answer(key.permission)) return false;
    this.tools.patch(key.permission, { permission: undefined, permissionAnswer: { outcome: 'cancelled' } });
    return true;
  }

  /**
   * The agent withdrew question `key` (`$/cancel_request`; the connection answered it -32800):
   * the wait ends and the card says so, with nothing left to answer. False when it was not waiting.
   */
  withdraw(key: QuestionKey): boolean {
    if ('permission' in key) {
      if (!this.permissionWaits.answer(key.permission)) return false;
      this.tools.patch(key.permission, { permission: undefined, permissionAnswer: { outcome: 'withdrawn' } });
      return true;
    }
    if (!this.urlEntry(key.form)) return this.answerElicitation(key.form, { action: 'cancel' }, 'withdrawn');
    if (!this.formWaits.answer(key.form)) return false;
    this.setUrlState(key.form, 'withdrawn');
    return true;
  }

  /** An elicitation form (state pending); it is answered through `answerElicitation`. */
  addElicitation(entry: Omit<FormEntry, 'kind' | 'state'>): Promise<CreateElicitationResponse> {
    return this.addWaiting({ kind: 'elicitation', ...entry, state: 'pending' });
  }

  /** A URL-mode request (state pending), answered through `answerUrl`; the card shows it until the agent says it is done. */
  addUrl(entry: Omit<UrlEntry, 'kind' | 'state'>): Promise<CreateElicitationResponse> {
    return this.addWaiting({ kind: 'urlElicitation', ...entry, state: 'pending' });
  }

  /** The URL card `requestKey`, whatever its state. */
  urlEntry(requestKey: string): UrlEntry | undefined {
    const entry = this.entryOf(requestKey);
    return entry?.kind === 'urlElicitation' ? entry : undefined;
  }

  /** The user's answer to a pending URL request: `accept` (they open it) leaves the card waiting for the agent. False when nothing waited. */
  answerUrl(requestKey: string, action: CreateElicitationResponse['action']): boolean {
    if (!this.urlEntry(requestKey) || !this.formWaits.answer(requestKey, { action })) return false;
    this.setUrlState(requestKey, action === 'accept' ? 'waiting' : action === 'decline' ? 'declined' : 'cancelled');
    return true;
  }

  /** The agent said the URL flow `requestKey` is done: only a card the user opened closes; false for any other. */
  completeUrl(requestKey: string): boolean {
    if (this.urlEntry(requestKey)?.state !== 'waiting') return false;
    this.setUrlState(requestKey, 'completed');
    return true;
  }

  /** The agent went away: a URL card still waiting for it will hear nothing more. */
  endUrlWaits(): void {
    for (const requestKey of this.formIndex.keys()) if (this.urlEntry(requestKey)?.state === 'waiting') this.setUrlState(requestKey, 'ended');
  }

  /** The form `requestKey` while it waits for an answer. */
  waitingForm(requestKey: string): FormEntry | undefined {
    const entry = this.entryOf(requestKey);
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

  /** A turn begins: what is asked from now until it ends is its own. */
  beginTurn(): void {
    this.turn = new Map();
  }

  /** The turn ended: what it asked that still waits is cancelled; questions asked between turns wait on. */
  endTurn(): void {
    const asked = this.turn;
    this.turn = undefined;
    for (const key of asked?.values() ?? []) this.cancel(key);
  }

  /** Stop, or the agent went away: every question still waiting is cancelled, in a turn or not. */
  cancelWaiting(): void {
    for (const key of this.waiting) this.cancel(key);
  }

  /** The host's verdict on an answer it refused (`error`; undefined clears it), or the state it ended in. */
  updateElicitation(requestKey: string, patch: Partial<Pick<FormEntry, 'state' | 'error' | 'content'>>): void {
    const index = this.formIndex.get(requestKey);
    const entry = index === undefined ? undefined : this.entries.at(index);
    if (index === undefined || entry?.kind !== 'elicitation') return;
    const next: FormEntry = { ...entry, ...patch };
    if (next.error === undefined) delete next.error;
    if (next.content === undefined) delete next.content;
    this.entries.replace(index, next);
  }

  /** Forgets every entry index (the transcript was cleared; what waited was answered first). */
  clear(): void {
    this.formIndex.clear();
    this.turn?.clear();
  }

  private asked(key: QuestionKey): void {
    this.turn?.set(tagOf(key), key);
  }

  /** Shows a form or a URL card and waits for its answer, under its request key. */
  private addWaiting(entry: FormEntry | UrlEntry): Promise<CreateElicitationResponse> {
    const answer = this.formWaits.ask(entry.requestKey);
    this.asked({ form: entry.requestKey });
    this.formIndex.set(entry.requestKey, this.entries.length);
    this.entries.push(entry);
    return answer;
  }

  private entryOf(requestKey: string): Entry | undefined {
    return this.entries.at(this.formIndex.get(requestKey) ?? -1);
  }

  private setUrlState(requestKey: string, state: UrlState): void {
    const entry = this.urlEntry(requestKey);
    if (entry) this.entries.replace(this.formIndex.get(requestKey)!, { ...entry, state });
  }
}
