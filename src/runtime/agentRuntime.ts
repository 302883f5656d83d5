import { startAgent, describeExit } from '../agent/launch';
import type { RunningAgent } from '../agent/launch';
import type { AcpConnection, ConnectionLog } from '../agent/connection';
import { agentMethods, clientMethods } from '../protocol/methods';
import { ErrorCodes, RpcError } from '../protocol/errors';
import type {
  AgentCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ListSessionsResponse,
  LoadSessionResponse,
  McpServer,
  NewSessionResponse,
  ReadTextFileRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ResumeSessionResponse,
  SessionUpdate,
  WriteTextFileRequest,
} from '../protocol';
import { clientCapabilities } from './ports';
import type { AgentDefinition, AgentPorts, ControllerSettings, TerminalPort } from './ports';
import { selectMcpServers } from './mcpServers';
import { commandLine, startFailureDetail, startWithFallback } from './presets';
import { SecretScrubber, redactFields, scrubbingLog } from './secrets';

/**
 * What one session serves the agent. The runtime routes every session-scoped call by its
 * `sessionId`, so a call for a session that is not open on this process is refused (-32602).
 */
export interface SessionEndpoint {
  onUpdate(update: SessionUpdate): void;
  onPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  onElicitation(request: CreateElicitationRequest): Promise<CreateElicitationResponse>;
  readTextFile(request: ReadTextFileRequest): Promise<string>;
  writeTextFile?(request: WriteTextFileRequest): Promise<void>;
  terminals?: TerminalPort;
  /** The process exited on its own; `detail` says how, with the end of its stderr. */
  onAgentExit(detail: string): void;
  /** The process was stopped on purpose (a restart, a sign-in): the session may be reopened. */
  onAgentStop(): void;
}

/** The session features an agent may advertise (ACP §5: `loadSession` and `sessionCapabilities`). */
export type SessionFeature = 'load' | 'resume' | 'list' | 'close' | 'delete';

export function sessionFeatures(capabilities: AgentCapabilities | undefined): Set<SessionFeature> {
  const features = new Set<SessionFeature>();
  if (capabilities?.loadSession) features.add('load');
  const session = capabilities?.sessionCapabilities;
  // Each is `{}` when supported; absent or null when not.
  for (const feature of ['resume', 'list', 'close', 'delete'] as const) if (session?.[feature]) features.add(feature);
  return features;
}

/**
 * One agent process, shared by all of that agent's sessions (ACP §3: a connection carries many
 * sessions): spawn + initialize, routing of what the agent calls to the session it names, and
 * the end of the process. Sessions come and go; the process is restarted on its own, and its
 * sessions hear of it (onAgentExit / onAgentStop) so each can come back with session/load or
 * session/resume.
 */
export class AgentRuntime {
  private running: RunningAgent | undefined;
  private starting: Promise<RunningAgent> | undefined;
  /** Sessions starting or opening (see `claim`). */
  private claims = 0;
  /** Counts stops, so a start that a stop overtook ends its process instead of keeping it. */
  private stops = 0;
  private readonly sessions = new Map<string, SessionEndpoint>();
  /**
   * The session whose session/new is in flight: agents send state (commands, modes) before the
   * answer names the id, so updates for an id not yet known go to it. Openings are serialised.
   */
  private opening: SessionEndpoint | undefined;
  private openings: Promise<unknown> = Promise.resolve();
  /** The MCP servers skipped in this start, each reported once. */
  private readonly mcpWarnings = new Set<string>();
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
    if (!this.running && !this.starting) this.definition = agent;
  }

  /** The process, when it runs and answered initialize. */
  get current(): RunningAgent | undefined {
    return this.running;
  }

  get features(): Set<SessionFeature> {
    return sessionFeatures(this.running?.initialize.agentCapabilities);
  }

  /** Starts the process (concurrent callers share one start); rejects with a message a user can act on. */
  start(): Promise<RunningAgent> {
    if (this.running) return Promise.resolve(this.running);
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * A session is about to use the process (it is starting it, or opening on it): until `release`,
   * the process counts as in use, so a sibling that stops meanwhile does not stop it.
   */
  claim(): () => void {
    this.claims++;
    let released = false;
    return () => {
      if (!released) this.claims--;
      released = true;
    };
  }

  /** Stops the process; its sessions are told (onAgentStop) and may be reopened later. */
  async stop(): Promise<void> {
    this.stops++;
    const running = this.running;
    this.running = undefined;
    const endpoints = this.endpoints();
    this.sessions.clear();
    this.opening = undefined;
    for (const endpoint of endpoints) endpoint.onAgentStop();
    if (!running) return;
    running.connection.dispose();
    await running.process.shutdown();
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
  openNew(running: RunningAgent, endpoint: SessionEndpoint): Promise<NewSessionResponse> {
    return this.serialised(async () => {
      const mcpServers = await this.mcpServersFor(running);
      this.opening = endpoint;
      try {
        const result = await running.connection.request(agentMethods.sessionNew, { cwd: this.settings.workspaceFolder, mcpServers });
        if (this.running === running) this.sessions.set(result.sessionId, endpoint);
        return result;
      } finally {
        if (this.opening === endpoint) this.opening = undefined;
      }
    });
  }

  /**
   * session/load (the agent replays the conversation as updates before it answers) or
   * session/resume (no replay). The session is routed to `endpoint` before the request goes out.
   */
  reopen(running: RunningAgent, endpoint: SessionEndpoint, sessionId: string, how: 'load' | 'resume'): Promise<LoadSessionResponse | ResumeSessionResponse> {
    return this.serialised(async () => {
      const mcpServers = await this.mcpServersFor(running);
      this.sessions.set(sessionId, endpoint);
      const params = { sessionId, cwd: this.settings.workspaceFolder, mcpServers };
      try {
        return how === 'load'
          ? await running.connection.request(agentMethods.sessionLoad, params)
          : await running.connection.request(agentMethods.sessionResume, params);
      } catch (error) {
        if (this.sessions.get(sessionId) === endpoint) this.sessions.delete(sessionId);
        throw error;
      }
    });
  }

  /** The session no longer listens; `session/close` is sent when advertised (-32002 counts as closed, ACP §8). */
  async close(sessionId: string, endpoint: SessionEndpoint): Promise<void> {
    if (this.sessions.get(sessionId) !== endpoint) return;
    this.sessions.delete(sessionId);
    const running = this.running;
    if (!running || !this.features.has('close')) return;
    try {
      await running.connection.request(agentMethods.sessionClose, { sessionId });
    } catch (error) {
      if ((error as { code?: unknown }).code !== ErrorCodes.ResourceNotFound) this.log.warn(`session/close ${sessionId} failed: ${(error as Error).message}`);
    }
  }

  /** Forgets a session without telling the agent (its controller is stopping). */
  detach(sessionId: string, endpoint: SessionEndpoint): void {
    if (this.sessions.get(sessionId) === endpoint) this.sessions.delete(sessionId);
    if (this.opening === endpoint) this.opening = undefined;
  }

  /** Some session is open on the process, or claims it (starting, opening). */
  get inUse(): boolean {
    return this.sessions.size > 0 || this.opening !== undefined || this.claims > 0;
  }

  /** One page of `session/list` for this workspace; `cursor` is the agent's, opaque (ACP §8). */
  async list(cursor?: string): Promise<ListSessionsResponse> {
    const running = await this.start();
    return running.connection.request(agentMethods.sessionList, { cwd: this.settings.workspaceFolder, ...(cursor ? { cursor } : {}) });
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

  private endpoints(): SessionEndpoint[] {
    const all = new Set(this.sessions.values());
    if (this.opening) all.add(this.opening);
    return [...all];
  }

  /** acpHost.mcpServers minus what this agent cannot connect to; each skipped server is logged once per start. */
  private async mcpServersFor(running: RunningAgent): Promise<McpServer[]> {
    const configured = (await this.ports.mcpServers?.()) ?? [];
    this.secrets.addMcpServers(configured);
    return selectMcpServers(configured, running.initialize.agentCapabilities?.mcpCapabilities, (message) => {
      if (this.mcpWarnings.has(message)) return;
      this.mcpWarnings.add(message);
      this.log.warn(message);
    });
  }

  /** The agent's launch spec, with the secrets stored for it (env_var sign-ins) laid over its env. */
  private async launchSpec() {
    const spec = await this.agent.launch();
    this.secrets.add(...Object.values(this.agent.configuredEnv ?? {}));
    const stored = (await this.ports.storedSecrets?.(this.agent.name)) ?? {};
    const names = Object.keys(stored);
    if (names.length === 0) return spec;
    this.secrets.add(...Object.values(stored));
    // Names only: a value never reaches a log line.
    this.log.info(`Starting ${this.agent.name} with ${names.join(', ')} set from SecretStorage`);
    return { ...spec, env: { ...spec.env, ...stored } };
  }

  private async doStart(): Promise<RunningAgent> {
    const stops = this.stops;
    let running: RunningAgent;
    try {
      const spec = await this.launchSpec();
      this.mcpWarnings.clear();
      running = await startWithFallback(spec.args, this.agent.fallbackArgs ?? [], (args) => startAgent(
        { ...spec, args: [...args] },
        {
          name: this.agent.name,
          clientInfo: { name: 'acp-host', title: 'ACP Host', version: this.settings.clientVersion },
          clientCapabilities: clientCapabilities(this.ports),
          initializeTimeoutMs: this.settings.initializeTimeoutMs,
          maxLineBytes: this.settings.maxLineBytes,
          log: this.log,
          onTrace: (direction, message) => this.ports.onTrace(this.agent.name, direction, redactFields(message)),
          onStderrLine: (line) => this.log.info(`[${this.agent.name} stderr] ${line}`),
          scrub: (text) => this.secrets.scrub(text),
        },
        (connection) => this.serve(connection),
      ), (failed, next, error) => this.log.warn(`${error.message.split('\n')[0]} Trying again with: ${commandLine(spec.command, next)} (instead of ${commandLine(spec.command, failed)}).`));
    } catch (error) {
      throw new Error(this.secrets.scrub(startFailureDetail(this.agent.name, error, this.agent.notFoundHint)));
    }
    if (stops !== this.stops) {
      // Stopped while it was starting: it must not live on unowned.
      running.connection.dispose();
      await running.process.shutdown();
      throw new Error(`${this.agent.name} was stopped while it was starting.`);
    }
    this.running = running;
    void running.process.exited.then((exit) => {
      if (this.running !== running) return; // we stopped it on purpose
      this.running = undefined;
      const endpoints = this.endpoints();
      this.sessions.clear();
      this.opening = undefined;
      const tail = running.process.stderrTail.last(15);
      const detail = this.secrets.scrub(`${this.agent.name} ${describeExit(exit)}.${tail.length ? `\nLast lines of its stderr:\n${tail.join('\n')}` : ''}`);
      this.log.error(detail);
      for (const endpoint of endpoints) endpoint.onAgentExit(detail);
    });
    return running;
  }

  /** The session a call names; updates for an id not known yet belong to the session being opened. */
  private route(method: string, sessionId: string): SessionEndpoint {
    const endpoint = this.sessions.get(sessionId) ?? this.opening;
    if (!endpoint) throw RpcError.invalidParams(`${method}: no open session ${JSON.stringify(sessionId)} on this agent`);
    return endpoint;
  }

  /** Handlers for what the agent calls; registered before initialize, since agents call early. */
  private serve(connection: AcpConnection): void {
    connection.onNotification(clientMethods.sessionUpdate, ({ sessionId, update }) => {
      const endpoint = this.sessions.get(sessionId) ?? this.opening;
      if (endpoint) endpoint.onUpdate(update);
      else this.log.info(`Ignored session/update for ${sessionId}, which is not open`);
    });
    connection.onRequest(clientMethods.sessionRequestPermission, (request) => this.route('session/request_permission', request.sessionId).onPermission(request));
    if (this.ports.forms) {
      connection.onRequest(clientMethods.elicitationCreate, (request) => {
        // A form scoped to a request in flight (sign-in, session setup) goes to the session being opened, else the first.
        const endpoint = 'sessionId' in request ? this.route('elicitation/create', request.sessionId) : (this.opening ?? this.endpoints()[0]);
        if (!endpoint) throw RpcError.invalidParams('elicitation/create: no session is open to show it');
        return endpoint.onElicitation(request);
      });
      // Follows URL-mode flows only, which are declined: nothing to do.
      connection.onNotification(clientMethods.elicitationComplete, ({ elicitationId }) => this.log.info(`Ignored elicitation/complete for ${elicitationId}`));
    }
    connection.onRequest(clientMethods.fsReadTextFile, async (request) => ({ content: await this.route('fs/read_text_file', request.sessionId).readTextFile(request) }));
    if (this.ports.writeTextFile) {
      connection.onRequest(clientMethods.fsWriteTextFile, async (request) => (await this.route('fs/write_text_file', request.sessionId).writeTextFile!(request), {}));
    }
    if (this.ports.terminals) {
      const terminals = (method: string, sessionId: string) => this.route(method, sessionId).terminals!;
      connection.onRequest(clientMethods.terminalCreate, (request) => terminals('terminal/create', request.sessionId).create(request));
      connection.onRequest(clientMethods.terminalOutput, (request) => terminals('terminal/output', request.sessionId).output(request));
      connection.onRequest(clientMethods.terminalWaitForExit, (request) => terminals('terminal/wait_for_exit', request.sessionId).waitForExit(request));
      connection.onRequest(clientMethods.terminalKill, async (request) => (await terminals('terminal/kill', request.sessionId).kill(request), {}));
      connection.onRequest(clientMethods.terminalRelease, async (request) => (await terminals('terminal/release', request.sessionId).release(request), {}));
    }
  }
}
