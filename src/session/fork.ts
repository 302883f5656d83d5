import type { AgentRuntime } from '../runtime/agentRuntime';
import type { Entry, SessionStatus } from './model';

/** What a forked session was forked from, said in its header; kept with the session. */
export interface ForkOrigin {
  /** The agent's id of the original session: what session/fork forked. */
  sessionId: string;
  /** The original's label when it was forked. */
  title: string;
  /** Said when the tab shows less than the agent's copy holds (a fork from an earlier message). */
  note: string | null;
}

/** What a fork opens with: the conversation the new tab shows, and what its header says. */
export interface ForkPlan {
  origin: ForkOrigin;
  entries: Entry[];
}

/** The session "Fork from here" is asked of, as far as the fork needs it. */
export interface ForkSource {
  readonly runtime: Pick<AgentRuntime, 'features'>;
  readonly agentName: string;
  readonly currentSessionId: string | undefined;
  readonly currentStatus: SessionStatus;
  readonly transcript: { readonly entries: readonly Entry[] };
  readonly label: string;
}

/**
 * "Fork from here" on the user message at entry `index` of `source`: what the new tab shows and
 * says. Throws, in words, when the agent cannot fork the session now.
 *
 * ACP's session/fork (UNSTABLE) has no "up to message N": the agent forks the whole session. So
 * the fork of the latest user message is exact: the tab shows the whole conversation, which is what
 * the agent's copy holds. For an earlier message there is no sound way to cut the agent's copy
 * (replaying the prompts in a new session would run their tools again, and the answers would
 * differ): the tab shows the conversation up to the end of that message's turn, and its header
 * says that the agent's copy still includes the later turns. `before`: the tab shows the
 * conversation before that message instead (an edited message is sent again in the fork).
 */
export function planFork(source: ForkSource, index: number, before = false): ForkPlan {
  if (!source.runtime.features.has('fork')) throw new Error(`${source.agentName} does not offer session/fork: this session cannot be forked.`);
  const sessionId = source.currentSessionId;
  if (!sessionId) throw new Error('The session is not open on its agent: it cannot be forked now.');
  if (source.currentStatus.phase === 'prompting') throw new Error('A turn is running: fork once it has ended (a fork copies the session as it stands).');
  const entries = source.transcript.entries;
  if (entries[index]?.kind !== 'user') throw new Error(`Entry ${index} is not one of your messages: only a message of yours can be forked from.`);
  const kept = before ? entries.slice(0, index) : conversationThrough(entries, index);
  const later = entries.slice(kept.length).filter((e) => e.kind === 'user').length;
  const note = later === 0 ? null : `The agent's copy of the conversation still includes the ${later} later ${later === 1 ? 'turn' : 'turns'} (ACP's session/fork copies the whole session): it may refer to them.`;
  return { origin: { sessionId, title: source.label, note }, entries: kept };
}

/** The entries up to the end of the turn of the user message at `index`: everything before the next user message. */
export function conversationThrough(entries: readonly Entry[], index: number): Entry[] {
  const next = entries.findIndex((e, i) => i > index && e.kind === 'user');
  return entries.slice(0, next === -1 ? entries.length : next);
}
