import type { CreateElicitationResponse, RequestPermissionResponse, ToolCallUpdate } from '../protocol';
import type { ElicitationState } from '../forms/elicitationForm';
import type { EntryList } from './entryList';
import type { FormEntry, PermissionOption } from './model';
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
  /** The forms waiting on the user, by request key. */
  private readonly formWaits = new Waits<CreateElicitationResponse>({ action: 'cancel' });
  /** Elicitation entries by their request key. */
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

  /** The agent withdrew form `requestKey`, as above: it shows that, and no longer takes an answer. */
  withdrawForm(requestKey: string): void {
    this.answerElicitation(requestKey, { action: 'cancel' }, 'withdrawn');
  }

  /** An elicitation form (state pending); it is answered through `answerElicitation`. */
  addElicitation(entry: Omit<FormEntry, 'kind' | 'state'>): Promise<CreateElicitationResponse> {
    const answer = this.formWaits.ask(entry.requestKey);
    this.formIndex.set(entry.requestKey, this.entries.length);
    this.entries.push({ kind: 'elicitation', ...entry, state: 'pending' });
    return answer;
  }

  /** The form `requestKey` while it waits for an answer. */
  waitingForm(requestKey: string): FormEntry | undefined {
    const entry = this.entries.at(this.formIndex.get(requestKey) ?? -1);
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
   * answered `cancelled` and every open form `cancel`.
   */
  cancelWaiting(): void {
    for (const toolCallId of this.permissionWaits.keys) {
      this.permissionWaits.answer(toolCallId);
      this.tools.patch(toolCallId, { permission: undefined });
    }
    for (const requestKey of this.formWaits.keys) this.answerElicitation(requestKey, { action: 'cancel' }, 'cancelled');
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
