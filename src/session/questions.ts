import type { CreateElicitationResponse, RequestPermissionResponse, ToolCallUpdate } from '../protocol';
import type { ElicitationState } from '../forms/elicitationForm';
import type { EntryList } from './entryList';
import type { Entry, FormEntry, PermissionOption, UrlEntry, UrlState } from './model';
import type { ToolCards } from './toolCards';
import { Waits } from './waits';

/**
 * What the agent asks the user, held by the transcript beside the entries that show it: a
 * permission is state of its tool call's card, a form is an entry of its own. Whatever ends a
 * question (the user, cancel, stop, a crash) answers through here, so each request gets exactly
 * one answer.
 */
export class Questions {
  /** The permission requests waiting on the user, by tool call (the card shows the options). */
  private readonly permissionWaits = new Waits<RequestPermissionResponse>({ outcome: { outcome: 'cancelled' } });
  /** The forms and URL requests waiting on the user, by request key. */
  private readonly formWaits = new Waits<CreateElicitationResponse>({ action: 'cancel' });
  /** Elicitation entries (forms and URL cards) by their request key. */
  private readonly formIndex = new Map<string, number>();

  constructor(
    private readonly entries: EntryList,
    private readonly tools: ToolCards,
  ) {}

  /**
   * A permission request is state of its tool call (which it creates if never announced): the
   * card shows the options, this holds the answer. A second request for the same call
   * supersedes the first, which is answered `cancelled`: each request gets exactly one answer.
   * `policyNote` is ACP Host's own word on the card (why the host asks).
   */
  askPermission(toolCall: ToolCallUpdate, options: PermissionOption[], policyNote?: string): Promise<RequestPermissionResponse> {
    const answer = this.permissionWaits.ask(toolCall.toolCallId);
    this.tools.upsert(toolCall);
    this.tools.patch(toolCall.toolCallId, { permission: options, policyNote, permissionWithdrawn: undefined });
    return answer;
  }

  /**
   * The user's choice for the permission asked on `toolCallId`. Refused (false, nothing sent)
   * when nothing is asked there, or `optionId` is not one of the options offered.
   */
  answerPermission(toolCallId: string, optionId: string): boolean {
    const offered = this.tools.entry(toolCallId)?.permission?.some((o) => o.optionId === optionId);
    if (!offered || !this.permissionWaits.answer(toolCallId, { outcome: { outcome: 'selected', optionId } })) return false;
    this.tools.patch(toolCallId, { permission: undefined });
    return true;
  }

  /** The permission asked on `toolCallId`, if any, is answered `cancelled` (its card is updated by the caller). */
  dropPermission(toolCallId: string): void {
    this.permissionWaits.answer(toolCallId);
  }

  /**
   * The agent withdrew the permission asked on `toolCallId` (`$/cancel_request`; the connection
   * answered it -32800): the wait ends, and the card says so, with no options left.
   */
  withdrawPermission(toolCallId: string): void {
    if (this.permissionWaits.answer(toolCallId)) this.tools.patch(toolCallId, { permission: undefined, permissionWithdrawn: true });
  }

  /** The agent withdrew form (or URL request) `requestKey`, as above: it shows that, and no longer takes an answer. */
  withdrawForm(requestKey: string): void {
    if (!this.urlEntry(requestKey)) this.answerElicitation(requestKey, { action: 'cancel' }, 'withdrawn');
    else if (this.formWaits.answer(requestKey)) this.setUrlState(requestKey, 'withdrawn');
  }

  /** An elicitation form (state pending); it is answered through `answerElicitation`. */
  addElicitation(entry: Omit<FormEntry, 'kind' | 'state'>): Promise<CreateElicitationResponse> {
    return this.addWaiting({ kind: 'elicitation', ...entry, state: 'pending' });
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

  /**
   * The turn was cancelled or ended, or the agent went away: every permission still asked is
   * answered `cancelled`, every open form and URL request `cancel`. (A URL the user opened is
   * answered already: its card waits on for the agent's `elicitation/complete`.)
   */
  cancelWaiting(): void {
    for (const toolCallId of this.permissionWaits.keys) {
      this.permissionWaits.answer(toolCallId);
      this.tools.patch(toolCallId, { permission: undefined });
    }
    for (const requestKey of this.formWaits.keys) {
      if (this.urlEntry(requestKey)) this.answerUrl(requestKey, 'cancel');
      else this.answerElicitation(requestKey, { action: 'cancel' }, 'cancelled');
    }
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

  /** Shows a form or a URL card and waits for its answer, under its request key. */
  private addWaiting(entry: FormEntry | UrlEntry): Promise<CreateElicitationResponse> {
    const answer = this.formWaits.ask(entry.requestKey);
    this.formIndex.set(entry.requestKey, this.entries.length);
    this.entries.push(entry);
    return answer;
  }

  private entryOf(requestKey: string): Entry | undefined {
    return this.entries.at(this.formIndex.get(requestKey) ?? -1);
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

  private setUrlState(requestKey: string, state: UrlState): void {
    const entry = this.urlEntry(requestKey);
    if (entry) this.entries.replace(this.formIndex.get(requestKey)!, { ...entry, state });
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
  }
}
