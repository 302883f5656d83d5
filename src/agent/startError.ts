import type { ExitInfo } from './process';

// How an agent's start fails and how its exit reads: what the runtime and the presets' fallback
// need of the agent stack before (or without) loading it (runtime/agentStack.ts).

export type StartFailure = 'not-found' | 'spawn-failed' | 'exited' | 'timeout' | 'unsupported-version' | 'protocol';

/** Why an agent did not come up, in words a user can act on: exit code and the end of stderr included. */
export class AgentStartError extends Error {
  constructor(
    readonly failure: StartFailure,
    message: string,
    readonly exit: ExitInfo | undefined,
    readonly stderrTail: string[],
  ) {
    super(stderrTail.length > 0 ? `${message}\nLast lines of its stderr:\n${stderrTail.join('\n')}` : message);
    this.name = 'AgentStartError';
  }
}

export function describeExit(exit: ExitInfo): string {
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
