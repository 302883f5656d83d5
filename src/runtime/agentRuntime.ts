import type { RunningAgent } from '../agent/launch';
import { describeExit } from '../agent/startError';
import { agentStack } from './agentStack';
import type { ConnectionLog } from '../agent/connection';
import { agentMethods } from '../protocol/methods';
import { ErrorCodes } from '../protocol/errors';
import type {
  AgentCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ListSessionsResponse,
  McpServer,
  ReadTextFileRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  WriteTextFileRequest,
} from '../protocol';
import { serveClient } from './clientHandlers';
import { clientCapabilities } from './ports';
import type { AgentDefinition, AgentPorts, ControllerSettings, TerminalPort } from './ports';
import { selectMcpServers } from './mcpServers';
import { commandLine, startFailureDetail, startWithFallback } from './presets';
import { ProcessScope } from './processScope';
import { sendOpening } from './sessionRequests';
import { WaitingSessions } from './waitingSessions';
import type { OpenedSession, Opening } from './sessionRequests';
import type { SessionRoots } from './sessionRoots';
import { SecretScrubber, redactFields, scrubbingLog } from './secrets';

/**
 * What one session serves the agent. The runtime routes every session-scoped call by its
 * `sessionId`, so a call for a session that is not open on this process is refused (-32602).
 * `signal` is aborted when the agent cancels its request (`$/cancel_request`): the connection
 * has answered it -32800 by then; what waits on the user is withdrawn, what is not done is not.
 */
export interface SessionEndpoint {
  onUpdate(update: SessionUpdate): void;
  onPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  onElicitation(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** `elicitation/complete`: true when this session's accepted URL request of that id is now done. */
  onElicitationComplete(elicitationId: string): boolean;
  readTextFile(request: ReadTextFileRequest, signal: AbortSignal): Promise<string>;
  writeTextFile?(request: WriteTextFileRequest, signal: AbortSignal): Promise<void>;
  terminals?: TerminalPort;
  /** The process exited on its own; `detail` says how, with the end of its stderr. */
  onAgentExit(detail: string): void;
  /** The process was stopped on purpose (a restart, a sign-in): the session may be reopened. */
  onAgentStop(): void;
}

/** The session features an agent may advertise (ACP §5: `loadSession` and `sessionCapabilities`). */
export type SessionFeature = 'load' | 'resume' | 'list' | 'close' | 'delete' | 'fork';

export function sessionFeatures(capabilities: AgentCapabilities | undefined): Set<SessionFeature> {
  const features = new Set<SessionFeature>();
  if (capabilities?.loadSession) features.add('load');
  const session = capabilities?.sessionCapabilities;
  // Each is `{}` when supported; absent or null when not.
  // `fork` is UNSTABLE (session/fork).
  for (const feature of ['resume', 'list', 'close', 'delete', 'fork'] as const) if (session?.[feature]) features.add(feature);
  return features;
}

/**
 * One agent process, shared by all of that agent's sessions (ACP §3: a connection carries many
 * sessions): spawn + initialize, routing of what the agent calls to the session it names, and
 * the end of the process. Sessions come and go; the process is restarted on its own, and its
 * sessions hear of it (onAgentExit / onAgentStop) so each can come back with session/load or
 * session/resume. What belongs to one process (its connection, its sessions' routes) is a
 * `ProcessScope`, ended with it.
 */
export class AgentRuntime {
  /** The process that answered initialize, and what belongs to it. */
  private live: ProcessScope | undefined;
  private starting: Promise<RunningAgent> | undefined;
  /** Sessions starting, opening or signing in (see `claim`, `authenticate`). */
  private readonly waiting = new WaitingSessions();
  /** Aborted by every stop: a start that a stop overtook ends its process instead of keeping it. */
  private stopped = new AbortController();
  /** session/new, load and resume go one at a time, so an update before an answer has one owner. */
  private openings: Promise<unknown> = Promise.resolve();
  /** What this agent was given that is secret; everything it says on its way out passes through it. */
  readonly secrets: SecretScrubber;
  /** The ports' log, scrubbed: the agent's words (stderr, stray output) may quote a secret. */
  private readonly log: ConnectionLog;

  constructor(
    private definition: AgentDefinition,
    private readonly settings: ControllerSettings,
    private readonly ports: AgentPorts,
  ) {
    this.secrets = ports.secrets?.(definition.name) ?? new SecretScrubber();
    this.log = scrubbingLog(ports.log, this.secrets);
  }

  get agent(): AgentDefinition {
    return this.definition;
  }

  /** The settings changed: a process not running starts with the new definition next time. */
  redefine(agent: AgentDefinition): void {
    if (!this.live && !this.starting) this.definition = agent;
  }

  /** The process, when it runs and answered initialize. */
  get current(): RunningAgent | undefined {
    return this.live?.running;
  }

  get features(): Set<SessionFeature> {
    return sessionFeatures(this.current?.initialize.agentCapabilities);
  }

  /** Starts the process (concurrent callers share one start); rejects with a message a user can act on. */
  start(): Promise<RunningAgent> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * A session is about to use the process (it is starting it, or opening on it): until `release`,
   * the process counts as in use, so a sibling that stops meanwhile does not stop it, and what
   * the agent asks before any session exists is shown there (waitingSessions.ts).
   */
  claim(endpoint: SessionEndpoint): () => void {
    return this.waiting.claim(endpoint);
  }

  /** `authenticate` (an `agent` sign-in method) for the session `endpoint`, which shows what the agent asks meanwhile. */
  async authenticate(running: RunningAgent, endpoint: SessionEndpoint, methodId: string, signal: AbortSignal): Promise<void> {
    const release = this.waiting.signIn(endpoint);
    try {
      await running.connection.request(agentMethods.authenticate, { methodId }, signal);
    } finally {
      release();
    }
  }

  /** Stops the process; its sessions are told (onAgentStop) and may be reopened later. */
  async stop(): Promise<void> {
    this.stopped.abort();
    this.stopped = new AbortController();
    const scope = this.live;
    this.live = undefined;
    if (!scope) return;
    for (const endpoint of scope.end()) endpoint.onAgentStop();
    await scope.ended;
  }

  /** Given to the agent as a secret (a sign-in terminal's env): see `secrets`. */
  addSecret(value: string): void {
    this.secrets.add(value);
  }

  /** Text of the agent's (an error, a crash detail) with its secrets masked. */
  scrub(text: string): string {
    return this.secrets.scrub(text);
  }

  /** session/new; `endpoint` gets the updates sent before the answer, then everything for the new id. */
  openNew(running: RunningAgent, endpoint: SessionEndpoint, roots: SessionRoots): Promise<OpenedSession> {
    return this.open(running, endpoint, { how: 'new' }, roots);
  }

  /**
   * session/load (the agent replays the conversation as updates before it answers), session/resume
   * (no replay) or `attach` (no request: the next prompt names the id). The session is routed to
   * `endpoint` before the request goes out.
   */
  reopen(running: RunningAgent, endpoint: SessionEndpoint, sessionId: string, how: 'load' | 'resume' | 'attach', roots: SessionRoots): Promise<OpenedSession> {
    if (how !== 'attach') return this.open(running, endpoint, { how, sessionId }, roots);
    return this.serialised(async () => {
      this.scopeOf(running)?.open(sessionId, endpoint);
      return { sessionId };
    });
  }

  /** UNSTABLE session/fork (only when advertised) of the session `from`: a new session, routed as session/new's. */
  fork(running: RunningAgent, endpoint: SessionEndpoint, from: string, roots: SessionRoots): Promise<OpenedSession> {
    return this.open(running, endpoint, { how: 'fork', from }, roots);
  }

  /**
   * One opening at a time. Load and resume name the session, so it is routed before the request;
   * new and fork learn their id from the answer, and what comes before it goes to `endpoint`.
   */
  private open(running: RunningAgent, endpoint: SessionEndpoint, opening: Opening, roots: SessionRoots): Promise<OpenedSession> {
    return this.serialised(async () => {
      const mcpServers = await this.mcpServersFor(running);
      const scope = this.scopeOf(running);
      const known = 'sessionId' in opening ? opening.sessionId : undefined;
      if (known !== undefined) scope?.open(known, endpoint);
      else if (scope) scope.opening = endpoint;
      try {
        const opened = await sendOpening(running.connection, opening, { roots, mcpServers, capabilities: running.initialize.agentCapabilities });
        if (known === undefined) this.scopeOf(running)?.open(opened.sessionId, endpoint);
        return opened;
      } catch (error) {
        if (known !== undefined) scope?.forget(known, endpoint);
        throw error;
      } finally {
        if (scope?.opening === endpoint) scope.opening = undefined;
      }
    });
  }

  /** The session no longer listens; `session/close` is sent when advertised (-32002 counts as closed, ACP §8). */
  async close(sessionId: string, endpoint: SessionEndpoint): Promise<void> {
    const scope = this.live;
    if (!scope?.forget(sessionId, endpoint)) return;
    const running = scope.running;
    if (!running || !this.features.has('close')) return;
    try {
      await running.connection.request(agentMethods.sessionClose, { sessionId });
    } catch (error) {
      if ((error as { code?: unknown }).code !== ErrorCodes.ResourceNotFound) this.log.warn(`session/close ${sessionId} failed: ${(error as Error).message}`);
    }
  }

  /** Forgets a session without telling the agent (its controller is stopping). */
  detach(sessionId: string, endpoint: SessionEndpoint): void {
    const scope = this.live;
    if (!scope) return;
    scope.forget(sessionId, endpoint);
    if (scope.opening === endpoint) scope.opening = undefined;
  }

  /** Some session is open on the process, or claims it (starting, opening). */
  get inUse(): boolean {
    return (this.live?.inUse ?? false) || this.waiting.any;
  }

  /**
   * One page of `session/list` for this workspace; `cursor` is the agent's, opaque (ACP §8).
   * `signal`: the user no longer waits for it (the picker closed): it is cancelled.
   */
  async list(cursor?: string, signal?: AbortSignal): Promise<ListSessionsResponse> {
    const running = await this.start();
    return running.connection.request(agentMethods.sessionList, { cwd: this.settings.workspaceFolder, ...(cursor ? { cursor } : {}) }, signal);
  }

  /** `session/delete`; deleting an unknown session counts as done (ACP §8). */
  async delete(sessionId: string): Promise<void> {
    const running = await this.start();
    try {
      await running.connection.request(agentMethods.sessionDelete, { sessionId });
    } catch (error) {
      if ((error as { code?: unknown }).code !== ErrorCodes.ResourceNotFound) throw error;
    }
  }

  private serialised<T>(run: () => Promise<T>): Promise<T> {
    const next = this.openings.then(run, run);
    this.openings = next.catch(() => undefined);
    return next;
  }

  /** The scope of `running` while it is the live process (not once it stopped or exited). */
  private scopeOf(running: RunningAgent): ProcessScope | undefined {
    return this.live?.running === running ? this.live : undefined;
  }

  /** acpHost.mcpServers minus what this agent cannot connect to; each skipped server is logged once per start. */
  private async mcpServersFor(running: RunningAgent): Promise<McpServer[]> {
    const configured = (await this.ports.mcpServers?.(this.agent)) ?? [];
    this.secrets.addMcpServers(configured);
    const warned = this.scopeOf(running)?.mcpWarnings ?? new Set<string>();
    return selectMcpServers(configured, running.initialize.agentCapabilities?.mcpCapabilities, (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      this.log.warn(message);
    });
  }

  /** The agent's launch spec, with the secrets stored for it (env_var sign-ins) laid over its env. */
  private async launchSpec() {
    const spec = await this.agent.launch();
    this.secrets.add(...Object.values(this.agent.configuredEnv ?? {}));
    const stored = (await this.ports.storedSecrets?.(this.agent)) ?? {};
    const names = Object.keys(stored);
    if (names.length === 0) return spec;
    this.secrets.add(...Object.values(stored));
    // Names only: a value never reaches a log line.
    this.log.info(`Starting ${this.agent.name} with ${names.join(', ')} set from SecretStorage`);
    return { ...spec, env: { ...spec.env, ...stored } };
  }

  private async doStart(): Promise<RunningAgent> {
    const stopped = this.stopped.signal;
    const scope = new ProcessScope();
    let running: RunningAgent;
    try {
      const spec = await this.launchSpec();
      running = await startWithFallback(spec.args, this.agent.fallbackArgs ?? [], (args) => agentStack().startAgent(
        { ...spec, args: [...args] },
        {
          name: this.agent.name,
          clientInfo: { name: 'acp-host', title: 'ACP Host', version: this.settings.clientVersion },
          clientCapabilities: clientCapabilities(this.ports),
          initializeTimeoutMs: this.settings.initializeTimeoutMs,
          maxLineBytes: this.settings.maxLineBytes,
          excludedDirs: [this.settings.workspaceFolder, ...(this.settings.additionalDirectories ?? [])],
          log: this.log,
          onTrace: (direction, message) => this.ports.onTrace(this.agent.name, direction, redactFields(message)),
          onStderrLine: (line) => this.log.info(`[${this.agent.name} stderr] ${line}`),
          scrub: (text) => this.secrets.scrub(text),
        },
        (connection) => serveClient(connection, scope, this.ports, this.log, this.waiting.of(scope)),
      ), (failed, next, error) => this.log.warn(`${error.message.split('\n')[0]} Trying again with: ${commandLine(spec.command, next)} (instead of ${commandLine(spec.command, failed)}).`));
    } catch (error) {
      throw new Error(this.secrets.scrub(startFailureDetail(this.agent.name, error, this.agent.notFoundHint)));
    }
    scope.hold(running);
    if (stopped.aborted) {
      // Stopped while it was starting: it must not live on unowned.
      scope.end();
      await scope.ended;
      throw new Error(`${this.agent.name} was stopped while it was starting.`);
    }
    this.live = scope;
    void running.process.exited.then((exit) => {
      if (this.live !== scope) return; // we stopped it on purpose
      this.live = undefined;
      const endpoints = scope.end();
      const tail = running.process.stderrTail.last(15);
      const detail = this.secrets.scrub(`${this.agent.name} ${describeExit(exit)}.${tail.length ? `\nLast lines of its stderr:\n${tail.join('\n')}` : ''}`);
      this.log.error(detail);
      for (const endpoint of endpoints) endpoint.onAgentExit(detail);
    });
    return running;
  }
}

