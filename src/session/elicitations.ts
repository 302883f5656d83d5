import type { ConnectionLog } from '../agent/connection';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../protocol';
import { formFields } from './elicitation';
import type { Transcript } from './transcript';
import { withdrawOnCancel } from './withdraw';
import { checkContent, uncheckedPattern } from '../forms/elicitationForm';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/**
 * `elicitation/create` (ACP §11), form mode: each request becomes a form in the transcript (which
 * holds it until it is answered) and waits for the user's answer, which is checked against the
 * requested schema before it goes to the agent. URL mode is not advertised: such a request is
 * declined. No `vscode` import.
 */
export class Elicitations {
  private nextKey = 1;

  constructor(
    private readonly transcript: Transcript,
    private readonly agentName: string,
    private readonly log: ConnectionLog,
  ) {}

  /** `signal`: the agent cancelled the request (`$/cancel_request`), and the form is withdrawn. */
  create(request: CreateElicitationRequest, signal?: AbortSignal): Promise<CreateElicitationResponse> {
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
    const answer = this.transcript.questions.addElicitation({
      requestKey,
      agentName: this.agentName,
      message: request.message,
      title: request.requestedSchema.title ?? null,
      toolCallId: 'toolCallId' in request ? (request.toolCallId ?? null) : null,
      fields,
    });
    withdrawOnCancel(signal, answer, () => this.transcript.questions.withdrawForm(requestKey));
    return answer;
  }

  /**
   * The user's answer. An `accept` whose content does not fit the form is refused: the form stays
   * pending and shows why. Returns whether the agent got an answer.
   */
  answer(requestKey: string, action: ElicitationAction, content?: unknown): boolean {
    const form = this.transcript.questions.waitingForm(requestKey);
    if (!form) return false;
    if (action !== 'accept') return this.transcript.questions.answerElicitation(requestKey, { action }, action === 'decline' ? 'declined' : 'cancelled');
    const checked = checkContent(form.fields, content ?? {});
    if (!checked.ok) {
      const titles = new Map(form.fields.map((f) => [f.name, f.title]));
      const error = Object.entries(checked.problems)
        .map(([name, problem]) => (name ? `${titles.get(name) ?? name}: ${problem}` : problem))
        .join('; ');
      this.log.warn(`Refused an invalid answer to ${requestKey}: ${error}`);
      this.transcript.questions.updateElicitation(requestKey, { error });
      return false;
    }
    // Accepted all the same (the check is advisory there), and said so: the agent checks its own pattern.
    for (const field of form.fields) {
      const why = uncheckedPattern(field, checked.content[field.name]);
      if (why) this.log.warn(`Elicitation ${requestKey}: the answer to ${JSON.stringify(field.title)} was sent without checking its pattern (${why}).`);
    }
    return this.transcript.questions.answerElicitation(requestKey, { action: 'accept', content: checked.content }, 'accepted', checked.content);
  }
}
