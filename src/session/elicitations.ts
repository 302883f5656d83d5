import type { ConnectionLog } from '../agent/connection';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../protocol';
import { RpcError } from '../protocol/errors';
import { formFields } from './elicitation';
import { urlTarget } from './elicitationUrl';
import type { Transcript } from './transcript';
import { withdrawOnCancel } from './withdraw';
import { checkContent, uncheckedPattern } from '../forms/elicitationForm';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/**
 * `elicitation/create` (ACP §11): each request becomes an entry of the transcript (which holds it
 * until it is answered) and waits for the user's answer. Form mode: a form, whose answer is
 * checked against the requested schema before it goes to the agent. URL mode: a card with the URL
 * and its host; `accept` is the user's click on Open (the host opens the URL then, never before),
 * and the card waits for `elicitation/complete`. No `vscode` import.
 */
export class Elicitations {
  private nextKey = 1;
  /** The request key of each URL request, by the agent's elicitation id (what `complete` names). */
  private readonly urls = new Map<string, string>();

  constructor(
    private readonly transcript: Transcript,
    private readonly agentName: string,
    private readonly log: ConnectionLog,
  ) {}

  /** `signal`: the agent cancelled the request (`$/cancel_request`), and its form or URL card is withdrawn. */
  create(request: CreateElicitationRequest, signal?: AbortSignal): Promise<CreateElicitationResponse> {
    const { answer, requestKey } = this.show(request);
    if (requestKey !== undefined) withdrawOnCancel(signal, answer, () => this.transcript.questions.withdraw({ form: requestKey }));
    return answer;
  }

  /** Shows the card the request waits on: its key (none for one declined at once), and its answer. */
  private show(request: CreateElicitationRequest): { answer: Promise<CreateElicitationResponse>; requestKey?: string } {
    const toolCallId = 'toolCallId' in request ? (request.toolCallId ?? null) : null;
    // It names our request in flight (initialize, authenticate), not a session: it is the agent's.
    const forAgent = 'requestId' in request ? { forAgent: true as const } : {};
    if (request.mode === 'url') {
      const target = urlTarget(request.url);
      // Refused before anything is shown: the user never sees it, let alone as a link.
      if ('refused' in target) {
        this.log.warn(`${this.agentName} asked the user to open a URL that was refused: ${target.refused}`);
        throw RpcError.invalidParams(`elicitation/create: the URL is refused: ${target.refused}`);
      }
      const requestKey = `elicitation-${this.nextKey++}`;
      this.urls.set(request.elicitationId, requestKey);
      return { requestKey, answer: this.transcript.questions.addUrl({ requestKey, agentName: this.agentName, message: request.message, toolCallId, url: target.href, host: target.host, warnings: target.warnings, ...forAgent }) };
    }
    const { fields, unsupported } = formFields(request.requestedSchema);
    const blocking = unsupported.filter((u) => u.required).map((u) => u.name);
    if (blocking.length > 0) {
      const detail = `${this.agentName} asked for a form with required fields this client cannot show (${blocking.join(', ')}): it was declined.`;
      this.log.warn(detail);
      this.transcript.addError(detail);
      return { answer: Promise.resolve({ action: 'decline' }) };
    }
    if (unsupported.length > 0) this.log.info(`Elicitation: left out optional fields of unknown types (${unsupported.map((u) => u.name).join(', ')})`);
    const requestKey = `elicitation-${this.nextKey++}`;
    const answer = this.transcript.questions.addElicitation({
      requestKey,
      agentName: this.agentName,
      message: request.message,
      title: request.requestedSchema.title ?? null,
      toolCallId,
      fields,
      ...forAgent,
    });
    return { requestKey, answer };
  }

  /**
   * The user's answer. An `accept` whose content does not fit the form is refused: the form stays
   * pending and shows why. Returns whether the agent got an answer.
   */
  answer(requestKey: string, action: ElicitationAction, content?: unknown): boolean {
    // A URL request's answer carries no content: `accept` only means the user opens it.
    if (this.transcript.questions.urlEntry(requestKey)) return this.transcript.questions.answerUrl(requestKey, action);
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

  /** `elicitation/complete`: the card the user opened under that id closes; an unknown or repeated id, or one never opened, changes nothing. */
  complete(elicitationId: string): boolean {
    const requestKey = this.urls.get(elicitationId);
    if (requestKey === undefined || !this.transcript.questions.completeUrl(requestKey)) return false;
    this.urls.delete(elicitationId);
    return true;
  }
}
