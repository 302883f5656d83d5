import type { NewAuditEvent } from '../audit/auditEvent';
import type { RequestPermissionRequest, RequestPermissionResponse } from '../protocol';
import type { Transcript } from './transcript';
import { withdrawOnCancel } from './withdraw';

/** What a permission asked of the user is recorded with: the agent, the transcript (which asks), the audit port. */
export interface PermissionAuditContext {
  agent: string;
  transcript: Pick<Transcript, 'questions' | 'tools'>;
  record: ((event: NewAuditEvent) => void) | undefined;
}

/**
 * Asks the user on the tool call's card (Questions.askPermission), and records in the audit
 * log that it was asked and how it was answered: the option the user chose (allowed or denied by
 * its kind), or `cancelled` when the turn ended, was cancelled or the agent went away first, or
 * withdrew the request (`signal`, see withdraw.ts).
 */
export function askAudited({ agent, transcript, record }: PermissionAuditContext, request: RequestPermissionRequest, signal?: AbortSignal): Promise<RequestPermissionResponse> {
  const { toolCallId } = request.toolCall;
  const answer = transcript.questions.askPermission(request.toolCall, request.options);
  withdrawOnCancel(signal, answer, () => transcript.questions.withdraw({ permission: toolCallId }));
  if (!record) return answer;
  // The card has the title the tool call was announced with, or this request's.
  const event = { agent, sessionId: request.sessionId, kind: 'permission', target: transcript.tools.entry(toolCallId)?.title ?? toolCallId } as const;
  record({ ...event, decision: 'asked', by: 'default', detail: `options: ${request.options.map((o) => o.name).join(', ')}` });
  return answer.then((response) => {
    const { outcome } = response;
    if (outcome.outcome === 'cancelled') {
      const why = signal?.aborted ? 'withdrawn by the agent before the user answered' : 'not answered before the turn ended, was cancelled, or the agent stopped';
      record({ ...event, decision: 'cancelled', by: 'auto', detail: why });
    } else {
      const option = request.options.find((o) => o.optionId === outcome.optionId);
      const allowed = option?.kind.startsWith('allow') ?? false;
      record({ ...event, decision: allowed ? 'allowed' : 'denied', by: 'user', detail: `chose ${JSON.stringify(option?.name ?? outcome.optionId)} (${option?.kind ?? 'not offered'})` });
    }
    return response;
  });
}
