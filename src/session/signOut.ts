import type { InitializeResponse } from '../protocol';
import { agentMethods } from '../protocol/methods';
import type { AgentPorts } from '../runtime/ports';
import type { SignInSession } from './signIn';

/** The agent offers `logout` (ACP §3): `agentCapabilities.auth.logout` is present and not null. */
export function canSignOut(initialize: InitializeResponse | undefined): boolean {
  return Boolean(initialize?.agentCapabilities?.auth?.logout);
}

const values = (n: number) => `${n} stored value${n === 1 ? '' : 's'}`;

/**
 * ACP: Sign Out. Sends `logout` (only to an agent that offers it: otherwise nothing is sent) and
 * forgets the values ACP Host stored for the agent (its `env_var` sign-ins), records it in the
 * audit log and says so in the transcript. The agent's other sessions are on the same process,
 * so they are signed out too; a new session (or a prompt in this one, ACP §6 leaves that to the
 * agent) then meets -32000, which leads to the sign-in choices (signIn.ts). A process started
 * with a value just forgotten still has it in its environment: it is restarted without it.
 * Resolves with what the user is told; a refused `logout` is recorded, shown and thrown.
 */
export async function signOut(session: SignInSession, ports: AgentPorts): Promise<string> {
  const { agent, running, transcript } = session;
  if (!running || !canSignOut(running.initialize)) {
    throw new Error(running ? `${agent.name} does not offer signing out.` : `${agent.name} is not running: start it to sign out.`);
  }
  let failure: string | undefined;
  try {
    await running.connection.request(agentMethods.logout, {});
  } catch (error) {
    failure = (error as Error).message;
  }
  // Ours to forget whatever the agent answered: the user asked ACP Host to let go of the account.
  const forgotten = (await ports.forgetSecrets?.(agent)) ?? 0;
  const dropped = forgotten > 0 ? ` ACP Host forgot the ${values(forgotten)} it kept for it.` : '';
  const detail = [failure, forgotten > 0 ? `forgot ${values(forgotten)}` : ''].filter(Boolean).join('; ');
  const decision = failure === undefined ? 'allowed' : 'failed';
  ports.audit?.({ agent: agent.name, sessionId: session.sessionId, kind: 'sign-out', target: 'logout', decision, by: 'user', ...(detail ? { detail } : {}) });
  const message = failure === undefined ? `Signed out of ${agent.name}. New sessions ask you to sign in again.${dropped}` : `${agent.name} did not sign out: ${failure}.${dropped}`;
  if (failure === undefined) {
    ports.log.info(message);
    transcript.addNote(message);
  } else {
    ports.log.warn(message);
    transcript.addError(message);
  }
  if (forgotten > 0 && session.running === running) {
    await session.restartProcess();
    await session.start();
  }
  if (failure !== undefined) throw new Error(message);
  return message;
}
