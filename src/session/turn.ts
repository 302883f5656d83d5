import type { RunningAgent } from '../agent/launch';
import { ConnectionClosedError } from '../agent/connectionErrors';
import { ErrorCodes } from '../protocol/errors';
import { agentMethods } from '../protocol/methods';
import type { ContentBlock, PromptResponse } from '../protocol';
import type { AgentPorts } from '../runtime/ports';
import { attachmentLabel, promptBlocks, promptCaps, refusal } from './attachments';
import type { SessionLifecycle } from './lifecycle';
import type { SignIn } from './signIn';
import type { Transcript } from './transcript';
import { turnUsage } from './usage';
import type { QueuedPrompt, TurnOutcome } from './turnQueue';
import type { SessionStatus, TurnEnd } from './model';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a turn needs of its session. */
export interface TurnSession {
  readonly agentName: string;
  readonly transcript: Transcript;
  readonly lifecycle: SessionLifecycle;
  readonly signIn: SignIn;
  readonly ports: Pick<AgentPorts, 'readForEmbed' | 'checkpoint'>;
  readonly phase: SessionStatus['phase'];
  setStatus(patch: Partial<SessionStatus>): void;
  /** The agent carries on with a turn of its own after a load (carriedTurn.ts): a prompt waits for its end. */
  readonly carryingOn: boolean;
  /** Our prompt goes out: what the agent sends now is this turn's, not one it carries on. */
  prompting(): void;
}

/**
 * Whether `error` says the agent does not know `sessionId`: -32002 (resource not found, ACP's
 * unknown session), or a message about the session (by name or id) being unknown, not found, gone.
 */
export function isUnknownSession(error: unknown, sessionId: string): boolean {
  if ((error as { code?: unknown } | null)?.code === ErrorCodes.ResourceNotFound) return true;
  const message = error instanceof Error ? error.message : '';
  const aboutTheSession = /\bsession/i.test(message) || message.includes(sessionId);
  return aboutTheSession && /unknown|not found|no such|n[o']t exist|invalid session|expired/i.test(message);
}

/** How a turn whose session/prompt was answered with an error ended. */
export function failedTurn(error: unknown): TurnEnd {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { stopReason: 'failed', error: { message, code: Number.isInteger(code) ? (code as number) : null } };
}

/**
 * One queued prompt as a turn: the session is started (or brought back) first, the prompt is
 * shown and sent, and the turn ends like a turn whatever the answer: a stop reason, or an error
 * (its running tool calls unfinished, its questions cancelled, a marker with the error's message
 * and code; the session stays usable and the queue carries on). Two answers are not the end of
 * it: "authentication required" waits for a sign-in (the prompt is sent again after it), and a
 * closed connection leaves the word to the crash report.
 */
export async function runTurn(s: TurnSession, next: QueuedPrompt): Promise<TurnOutcome> {
  const { lifecycle, transcript } = s;
  await lifecycle.start();
  // Waits for a sign-in, or for the turn a load found running (the queue drains when it ends).
  if (s.signIn.pending || s.carryingOn) return 'requeue';
  const { running, sessionId } = lifecycle;
  if (!running || !sessionId) return 'done';
  const caps = promptCaps(running.initialize.agentCapabilities?.promptCapabilities);
  const built = await promptBlocks(next.text, next.attachments, caps, s.ports.readForEmbed);
  // The checkpoint is taken before the prompt goes out: whatever the agent changes from now on is after it.
  if (!next.shown) transcript.addUserPrompt(next.text, next.attachments.map(attachmentLabel), s.ports.checkpoint?.());
  next.shown = true;
  if (built.refused.length > 0) {
    // The agent changed since these were attached: nothing is dropped silently, nothing is sent.
    const labels = built.refused.map((a) => attachmentLabel(a).label).join(', ');
    transcript.addError(`Not sent: ${labels} cannot go to this agent. ${refusal(built.refused[0].kind, caps, s.agentName)}`);
    return 'done';
  }
  s.prompting();
  s.setStatus({ phase: 'prompting' });
  const turn = transcript.beginTurn();
  try {
    const result = await send(s, running, sessionId, built.blocks);
    s.signIn.settled();
    const usage = turnUsage(result);
    transcript.endTurn(usage ? { stopReason: result.stopReason, usage } : { stopReason: result.stopReason }, turn);
  } catch (error) {
    if (lifecycle.running === running && s.signIn.required(running, error)) {
      transcript.endTurn(undefined, turn);
      return 'requeue';
    }
    // The output closing usually means the process is exiting: let the crash report win.
    if (error instanceof ConnectionClosedError) await Promise.race([running.process.exited, delay(2000)]);
    transcript.endTurn(lifecycle.running === running ? failedTurn(error) : undefined, turn);
  } finally {
    if (lifecycle.running === running && s.phase === 'prompting') s.setStatus({ phase: 'ready' });
  }
  return 'done';
}

/**
 * session/prompt. A session re-attached without load or resume may be one the agent no longer
 * knows (its process restarted without it): only when the agent says so is a new session opened
 * and the same prompt sent there, and the transcript says so.
 */
async function send(s: TurnSession, running: RunningAgent, sessionId: string, prompt: ContentBlock[]): Promise<PromptResponse> {
  const { lifecycle } = s;
  try {
    const result = await running.connection.request(agentMethods.sessionPrompt, { sessionId, prompt });
    // It answered in the session: it knows it.
    if (lifecycle.sessionId === sessionId) lifecycle.reattached = false;
    return result;
  } catch (error) {
    if (!lifecycle.reattached || lifecycle.running !== running || !isUnknownSession(error, sessionId)) throw error;
    const fresh = await lifecycle.openInstead(running);
    s.transcript.addError(`${s.agentName} no longer knows this session (${(error as Error).message}): a new session was opened and your prompt sent there.`);
    return running.connection.request(agentMethods.sessionPrompt, { sessionId: fresh, prompt });
  }
}
