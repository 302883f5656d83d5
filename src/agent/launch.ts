import { existsSync } from 'node:fs';
import { AcpConnection } from './connection';
import type { ConnectionOptions } from './connection';
import { NOT_SEARCHED, resolveExecutable } from './executables';
import { AgentProcess } from './process';
import type { ExitInfo, LaunchSpec } from './process';
import { agentMethods } from '../protocol/methods';
import type { ClientCapabilities, Implementation, InitializeResponse } from '../protocol';
import { PROTOCOL_VERSION } from '../protocol/version';
import { AgentStartError, describeExit } from './startError';
import type { StartFailure } from './startError';

export interface StartOptions extends ConnectionOptions {
  name: string;
  clientInfo: Implementation;
  clientCapabilities: ClientCapabilities;
  initializeTimeoutMs: number;
  onStderrLine?: (line: string) => void;
  /** The workspace's folders: the agent's program is never taken from them (agent/executables.ts). */
  excludedDirs?: readonly string[];
}

export interface RunningAgent {
  process: AgentProcess;
  connection: AcpConnection;
  initialize: InitializeResponse;
}

const STDERR_TAIL_LINES = 15;
/** How often the initialize timeout looks again while the agent waits for our answer. */
const WAITING_CHECK_MS = 250;

/**
 * Spawns the agent and runs `initialize`, raced against the process exiting and a timeout, so
 * a crash or a hang always ends in an AgentStartError, never an endless spinner. The timeout
 * counts the agent's silence only: not while it waits for the user (a request of its, such as
 * a sign-in form, that we have not answered yet).
 * `register` runs before `initialize` is sent: agents may call back (or notify) right away.
 */
export async function startAgent(
  spec: LaunchSpec,
  options: StartOptions,
  register: (connection: AcpConnection) => void = () => undefined,
): Promise<RunningAgent> {
  // spawn reports a missing cwd as ENOENT too, which would read as "command not found".
  if (!existsSync(spec.cwd)) {
    throw new AgentStartError('spawn-failed', `Could not start ${options.name}: its working directory ${spec.cwd} does not exist.`, undefined, []);
  }
  // By absolute path, found outside the workspace: on Windows a bare name would be searched in the cwd (the workspace) first.
  const command = resolveExecutable(spec.command, { env: spec.env, cwd: spec.cwd, excluded: options.excludedDirs ?? [] });
  if (command === undefined) {
    throw new AgentStartError('not-found', `Could not start ${options.name}: the command "${spec.command}" was not found on PATH (${NOT_SEARCHED}).`, undefined, []);
  }
  const agent = new AgentProcess({ ...spec, command }, options.onStderrLine);
  const connection = new AcpConnection(agent.stdout, agent.stdin, options);
  register(connection);
  const fail = async (failure: StartFailure, message: string): Promise<never> => {
    connection.dispose();
    const exit = agent.hasExited ? await agent.exited : await agent.shutdown({ graceMs: 200, termMs: 1000 });
    throw new AgentStartError(failure, message, exit, agent.stderrTail.last(STDERR_TAIL_LINES));
  };

  let timer: NodeJS.Timeout | undefined;
  type Outcome = { kind: 'ok'; value: InitializeResponse } | { kind: 'error'; error: Error } | { kind: 'exit'; exit: ExitInfo } | { kind: 'timeout' };
  const outcome = await Promise.race<Outcome>([
    connection
      .request(agentMethods.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: options.clientCapabilities,
        clientInfo: options.clientInfo,
      })
      .then((value) => ({ kind: 'ok' as const, value }), (error: Error) => ({ kind: 'error' as const, error })),
    agent.exited.then((exit) => ({ kind: 'exit' as const, exit })),
    new Promise<Outcome>((resolve) => {
      // The time the agent waits for our answer (a sign-in form the user fills in before it
      // answers initialize) is the user's, not the agent's: the clock starts over once it is answered.
      let quietSince = Date.now();
      const tick = () => {
        if (connection.serving > 0) quietSince = Date.now();
        const left = quietSince + options.initializeTimeoutMs - Date.now();
        if (left <= 0) return resolve({ kind: 'timeout' });
        timer = setTimeout(tick, connection.serving > 0 ? Math.min(left, WAITING_CHECK_MS) : left);
      };
      tick();
    }),
  ]);
  clearTimeout(timer);

  switch (outcome.kind) {
    case 'ok':
      if (outcome.value.protocolVersion !== PROTOCOL_VERSION) {
        return fail(
          'unsupported-version',
          `${options.name} speaks ACP protocol version ${outcome.value.protocolVersion}; ACP Host speaks version ${PROTOCOL_VERSION}.`,
        );
      }
      return { process: agent, connection, initialize: outcome.value };
    case 'exit': {
      const { exit } = outcome;
      if (exit.spawnError?.code === 'ENOENT') {
        return fail('not-found', `Could not start ${options.name}: the command "${spec.command}" was not found on PATH.`);
      }
      if (exit.spawnError) return fail('spawn-failed', `Could not start ${options.name}: ${exit.spawnError.message}`);
      return fail('exited', `${options.name} ${describeExit(exit)} before it finished initializing.`);
    }
    case 'timeout':
      return fail('timeout', `${options.name} did not answer initialize within ${Math.round(options.initializeTimeoutMs / 1000)} s.`);
    case 'error':
      // The stream may have closed because the process is exiting: prefer its exit code.
      if (await Promise.race([agent.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 300))])) {
        return fail('exited', `${options.name} ${describeExit(await agent.exited)} before it finished initializing.`);
      }
      return fail('protocol', `${options.name} failed to initialize: ${outcome.error.message}`);
  }
}
