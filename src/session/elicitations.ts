import type { ConnectionLog } from '../agent/connection';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../protocol';
import { formFields } from './elicitation';
import type { Transcript } from './transcript';
import { checkContent } from '../webview-protocol/elicitation';
import type { ElicitationContent, ElicitationFieldView, ElicitationState } from '../webview-protocol/elicitation';

interface Pending {
  fields: ElicitationFieldView[];
  respond: (response: CreateElicitationResponse) => void;
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/**
 * `elicitation/create` (ACP §11), form mode: each request becomes a form in the transcript and
 * waits for the user's answer, which is checked against the requested schema before it goes to
 * the agent. URL mode is not advertised: such a request is declined. No `vscode` import.
 */
export class Elicitations {
  private readonly pending = new Map<string, Pending>();
  private nextKey = 1;

  constructor(
    private readonly transcript: Transcript,
    private readonly agentName: string,
    private readonly log: ConnectionLog,
  ) {}

  get pendingKeys(): string[] {
    return [...this.pending.keys()];
  }

  create(request: CreateElicitationRequest): Promise<CreateElicitationResponse> {
    if (request.mode !== 'form') {
      this.log.warn(`${this.agentName} asked for a ${request.mode}-mode elicitation, which this client does not support: declined`);
      return Promise.resolve({ action: 'decline' });
    }
    const { fields, unsupported } = formFields(request.requestedSchema);
    const blocking = unsupported.filter((u) => u.required).map((u) => u.name);
    if (blocking.length > 0) {
      const detail = `${this.agentName} asked for a form with required fields this client cannot show (${blocking.join(', ')}): it was declined.`;
      this.log.warn(detail);
      this.transcript.addError(detail);
      return Promise.resolve({ action: 'decline' });
    }
    if (unsupported.length > 0) this.log.info(`Elicitation: left out optional fields of unknown types (${unsupported.map((u) => u.name).join(', ')})`);
    const requestKey = `elicitation-${this.nextKey++}`;
    this.transcript.addElicitation({
      requestKey,
      agentName: this.agentName,
      message: request.message,
      title: request.requestedSchema.title ?? null,
      toolCallId: 'toolCallId' in request ? (request.toolCallId ?? null) : null,
      fields,
    });
    return new Promise((respond) => this.pending.set(requestKey, { fields, respond }));
  }

  /**
   * The user's answer. An `accept` whose content does not fit the form is refused: the form stays
   * pending and shows why. Returns whether the agent got an answer.
   */
  answer(requestKey: string, action: ElicitationAction, content?: unknown): boolean {
    const pending = this.pending.get(requestKey);
    if (!pending) return false;
    if (action !== 'accept') {
      this.settle(requestKey, { action }, action === 'decline' ? 'declined' : 'cancelled');
      return true;
    }
    const checked = checkContent(pending.fields, content ?? {});
    if (!checked.ok) {
      const titles = new Map(pending.fields.map((f) => [f.name, f.title]));
      const error = Object.entries(checked.problems)
        .map(([name, problem]) => (name ? `${titles.get(name) ?? name}: ${problem}` : problem))
        .join('; ');
      this.log.warn(`Refused an invalid answer to ${requestKey}: ${error}`);
      this.transcript.updateElicitation(requestKey, { error });
      return false;
    }
    this.settle(requestKey, { action: 'accept', content: checked.content }, 'accepted', checked.content);
    return true;
  }

  /** The turn was cancelled, ended, or the agent went away: every open form is answered `cancel`. */
  cancelAll(): void {
    for (const requestKey of [...this.pending.keys()]) this.settle(requestKey, { action: 'cancel' }, 'cancelled');
  }

  private settle(requestKey: string, response: CreateElicitationResponse, state: ElicitationState, content?: ElicitationContent): void {
    const pending = this.pending.get(requestKey);
    if (!pending) return;
    this.pending.delete(requestKey);
    this.transcript.updateElicitation(requestKey, { state, error: undefined, content });
    pending.respond(response);
  }
}
