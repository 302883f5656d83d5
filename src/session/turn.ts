import type { RunningAgent } from '../agent/launch';
import { ConnectionClosedError } from '../agent/connectionErrors';
import { agentMethods } from '../protocol/methods';
import type { ContentBlock, PromptResponse } from '../protocol';
import type { AgentPorts } from '../runtime/ports';
import { attachmentLabel, promptBlocks, promptCaps, refusal } from './attachments';
import type { SessionLifecycle } from './lifecycle';
import { isAuthRequired } from './signIn';
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
  /** The agent carries on with a turn of its own after a load, visibly at work (carriedTurn.ts): a prompt waits for it. */
  readonly carryingOn: boolean;
  /** Our prompt goes out: what the agent sends now is this turn's, and a turn it carried on is over. */
  prompting(): void;
}

/**
 * What an error answer says, in words: its message, and the SDK's `data.details` when there is
 * one (the ACP SDK answers a handler's thrown error as -32603 "Internal error" with the real
 * reason there).
 */
export function errorWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const details = (error as { data?: { details?: unknown } } | null)?.data?.details;
  return typeof details === 'string' && details.trim() !== '' && details !== message ? `${message}: ${details}` : message;
}

/** How a turn whose session/prompt was answered with an error ended. */
export function failedTurn(error: unknown, scrub: (text: string) => string = (text) => text): TurnEnd {
  const code = (error as { code?: unknown } | null)?.code;
  return { stopReason: 'failed', error: { message: scrub(errorWords(error)), code: Number.isInteger(code) ? (code as number) : null } };
}

/**
 * One queued prompt as a turn: the session is started (or brought back) first, the prompt is
 * shown and sent, and the turn ends like a turn whatever the answer: a stop reason, or an error
 * (its running tool calls unfinished, its questions cancelled, a marker with the error's message
 * and code; the session stays usable and the queue carries on). A turn the user stopped ends
 * cancelled, also when the agent answers the stop with an error. Two answers are not the end of
 * it: "authentication required" waits for a sign-in (the prompt is sent again after it), and a
 * closed connection leaves the word to the crash report.
 */
export async function runTurn(s: TurnSession, next: QueuedPrompt): Promise<TurnOutcome> {
  const { lifecycle, transcript } = s;
  await lifecycle.start();
  // Waits for a sign-in, or for the turn a load found at work (the queue drains when it ends or rests).
  if (s.signIn.pending || s.carryingOn) return 'requeue';
  const { running, sessionId } = lifecycle;
  if (!running || !sessionId) return 'done';
  const caps = promptCaps(running.initialize.agentCapabilities?.promptCapabilities);
  const built = await promptBlocks(next.text, next.attachments, caps, s.ports.readForEmbed);
  // What the agent sends from now on is this turn's; a turn it carried on without visible work ends here.
  s.prompting();
  // The checkpoint is taken before the prompt goes out: whatever the agent changes from now on is after it.
  if (!next.shown) transcript.addUserPrompt(next.text, next.attachments.map(attachmentLabel), s.ports.checkpoint?.());
  next.shown = true;
  if (built.refused.length > 0) {
    // The agent changed since these were attached: nothing is dropped silently, nothing is sent.
    const labels = built.refused.map((a) => attachmentLabel(a).label).join(', ');
    transcript.addError(`Not sent: ${labels} cannot go to this agent. ${refusal(built.refused[0].kind, caps, s.agentName)}`);
    return 'done';
  }
  s.setStatus({ phase: 'prompting' });
  const turn = transcript.beginTurn();
  try {
    const result = await send(s, running, sessionId, built.blocks, turn);
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
    const ended = transcript.stopped(turn) ? { stopReason: 'cancelled' as const } : failedTurn(error, (text) => lifecycle.runtime.scrub(text));
    transcript.endTurn(lifecycle.running === running ? ended : undefined, turn);
  } finally {
    if (lifecycle.running === running && s.phase === 'prompting') s.setStatus({ phase: 'ready' });
  }
  return 'done';
}

/**
 * session/prompt. A session re-attached without load or resume may be one the agent no longer
 * knows (its process restarted without it), and agents say so in many ways (-32002; the ACP
 * SDK's -32603 "Internal error" with the reason in `data.details`; words of their own). So any
 * error answer to the first prompt after a re-attach opens a new session with the same agent and
 * sends the same prompt there (its attachments too), and the transcript says so: the user types
 * once. Not when the answer is something else's to handle: a sign-in the agent asks for (the
 * prompt is sent again after it, still the first), the process going away, or the user's Stop.
 */
async function send(s: TurnSession, running: RunningAgent, sessionId: string, prompt: ContentBlock[], turn: number): Promise<PromptResponse> {
  const { lifecycle, transcript } = s;
  try {
    const result = await running.connection.request(agentMethods.sessionPrompt, { sessionId, prompt });
    // It answered in the session: it knows it.
    if (lifecycle.sessionId === sessionId) lifecycle.reattached = false;
    return result;
  } catch (error) {
    const elsewhere = isAuthRequired(error) || error instanceof ConnectionClosedError || transcript.stopped(turn);
    if (!lifecycle.reattached || lifecycle.sessionId !== sessionId || lifecycle.running !== running || elsewhere) throw error;
    const fresh = await lifecycle.openInstead(running);
    transcript.addError(
      `${s.agentName} did not take this prompt in the session it had before (${lifecycle.runtime.scrub(errorWords(error))}): a new session was opened and your prompt sent there. It does not know the earlier conversation.`,
    );
    return running.connection.request(agentMethods.sessionPrompt, { sessionId: fresh, prompt });
  }
}
