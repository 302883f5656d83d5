import { startAgent, describeExit } from '../agent/launch';
import type { RunningAgent } from '../agent/launch';
import { ConnectionClosedError } from '../agent/connection';
import type { AcpConnection, ConnectionLog, TraceDirection } from '../agent/connection';
import type { LaunchSpec } from '../agent/process';
import { agentMethods, clientMethods } from '../protocol/methods';
import { ErrorCodes } from '../protocol/errors';
import type {
  AuthMethod,
  ClientCapabilities,
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReleaseTerminalRequest,
  RequestPermissionResponse,
  TerminalExitStatus,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WriteTextFileRequest,
  McpServer,
} from '../protocol';
import { redactMcpSecrets, selectMcpServers } from './mcpServers';
import { commandLine, startFailureDetail, startWithFallback } from './presets';
import { attachmentLabel, promptBlocks, promptCaps, refusal } from '../session/attachments';
import type { Attachment, EmbedReader, NewAttachment } from '../session/attachments';
import { PromptAttachments } from './promptAttachments';
import { SessionState } from '../session/sessionState';
import { Elicitations } from './elicitations';
import type { ElicitationAction } from './elicitations';
import { Transcript } from '../session/transcript';
import type { AuthMethodView, StatusView } from '../webview-protocol/messages';

/** The five `terminal/*` methods; `terminal: true` is advertised only when a port serves them all. */
export interface TerminalPort {
  create(request: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  output(request: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForExit(request: WaitForTerminalExitRequest): Promise<TerminalExitStatus>;
  kill(request: KillTerminalRequest): Promise<void>;
  release(request: ReleaseTerminalRequest): Promise<void>;
  /** Kills every terminal still running: the session or the agent ended (ACP §14.11). */
  dispose?(): void;
}

/**
 * A `terminal` auth method, ready to run: the agent's own command and launch config with the
 * method's args added and its env laid over (ACP §6). `env` may hold secrets: never log it.
 */
export interface LoginTerminalSpec {
  agentName: string;
  methodName: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** How the login command ended: exit code 0 is success; `undefined` = closed, killed or cancelled. */
export interface LoginTerminalResult {
  exitCode: number | undefined;
}

/**
 * What the controller needs from VS Code, as plain functions, so it has no `vscode` import.
 * Optional ports are capabilities: what is absent is not advertised (ACP §14.3).
 */
export interface AgentPorts {
  readTextFile(request: ReadTextFileRequest): Promise<string>;
  writeTextFile?(request: WriteTextFileRequest): Promise<void>;
  terminals?: TerminalPort;
  log: ConnectionLog;
  onTrace(agentName: string, direction: TraceDirection, message: unknown): void;
  /**
   * `env_var` auth (a client-side extension): asks the user for the value of `varName` (a
   * password box) and stores it; `undefined` when the user cancelled. Without it (and
   * `storedSecrets`) such methods are not offered.
   */
  askSecret?(agentName: string, varName: string, prompt: string): Promise<string | undefined>;
  /** The values stored by askSecret for this agent, laid over its env on every start ("ask once"). */
  storedSecrets?(agentName: string): Promise<Record<string, string>>;
  /** `terminal` auth: runs the login command in a real terminal; `auth.terminal` is advertised only with it. */
  runLoginTerminal?(spec: LoginTerminalSpec): Promise<LoginTerminalResult>;
  /** The MCP servers to pass in session/new (acpHost.mcpServers), read for each new session. */
  mcpServers?(): Promise<McpServer[]>;
  /** The text of an attached file for an embedded `resource` (open buffer first); without it files are sent as links. */
  readForEmbed?: EmbedReader;
  /** The panel shows `elicitation/create` forms (answered through `answerElicitation`); form mode is advertised only with it. */
  forms?: boolean;
}

export interface AgentDefinition {
  name: string;
  launch: () => Promise<LaunchSpec>;
  /** Argument lists tried in turn when `launch()`'s args start a program that exits during initialize (presets.ts). */
  fallbackArgs?: string[][];
  /** Said after "command not found": how to install it, or where it is configured. */
  notFoundHint?: string;
}

export interface ControllerSettings {
  initializeTimeoutMs: number;
  maxLineBytes: number;
  workspaceFolder: string;
  clientVersion: string;
}

/** Exactly what these ports serve; an agent must not be promised more (ACP §14.3). */
export function clientCapabilities(ports: AgentPorts): ClientCapabilities {
  return {
    fs: { readTextFile: true, writeTextFile: ports.writeTextFile !== undefined },
    terminal: ports.terminals !== undefined,
    ...(ports.runLoginTerminal ? { auth: { terminal: true } } : {}),
    // Form mode only (`{}` alone would advertise no mode, ACP §5); URL mode requests are declined.
    ...(ports.forms ? { elicitation: { form: {} } } : {}),
    // The panel renders boolean config options as checkboxes.
    session: { configOptions: { boolean: {} } },
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's "authentication required" answer (ACP §6): run an auth method, then retry. */
function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ErrorCodes.AuthRequired;
}

function authKind(method: AuthMethod): AuthMethodView['type'] {
  return method.type ?? 'agent';
}

/**
 * The trace keeps every message, but a `terminal` auth method's `env` (in the initialize
 * answer) may carry credentials: its values are masked, its names kept.
 */
function redactAuthEnv(message: unknown): unknown {
  const result = (message as { result?: { authMethods?: unknown } } | null)?.result;
  if (!Array.isArray(result?.authMethods)) return message;
  const authMethods = result.authMethods.map((m: unknown) => {
    const env = (m as { env?: unknown } | null)?.env;
    if (typeof env !== 'object' || env === null) return m;
    return { ...(m as object), env: Object.fromEntries(Object.keys(env).map((k) => [k, '***'])) };
  });
  return { ...(message as object), result: { ...result, authMethods } };
}

type PendingPermission = (response: RequestPermissionResponse) => void;

/** A prompt waiting for its turn; `settle` resolves the caller's promise when it ran or was dropped. */
interface QueuedPrompt {
  id: number;
  text: string;
  /** Its own context, taken from the composer when it was queued. */
  attachments: Attachment[];
  /** Already in the transcript: it was sent once and put back to wait for a sign-in. */
  shown?: boolean;
  settle: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * One agent process and its session: start (initialize + session/new), prompt turns, cancel,
 * permissions, crash and restart. Everything the agent's lifetime owns is dropped on restart.
 */
export class AgentController {
  readonly transcript = new Transcript();
  readonly session = new SessionState();
  private running: RunningAgent | undefined;
  private sessionId: string | undefined;
  private status: StatusView;
  private readonly pendingPermissions = new Map<string, PendingPermission>();
  /** Forms the agent asked for (`elicitation/create`) and their answers. */
  private readonly elicitations: Elicitations;
  private readonly statusListeners = new Set<(status: StatusView) => void>();
  private starting: Promise<void> | undefined;
  /** Counts stops, so a start that a stop overtook ends its process instead of keeping it. */
  private stops = 0;
  /** The MCP servers skipped in this start, each reported once. */
  private readonly mcpWarnings = new Set<string>();
  private readonly queue: QueuedPrompt[] = [];
  private nextPromptId = 1;
  private draining = false;
  /** Context for the prompt being composed (the panel's chips); the next prompt takes it. */
  private readonly attachments: PromptAttachments;
  /**
   * The sign-in just done ("signing in with X"), until the request it was for succeeds: another
   * -32000 meanwhile is reported as a failed sign-in, not answered with another round (no loop).
   */
  private authAttempt: string | undefined;
  private authBusy = false;
  /** Secret values this agent was given (stored env_var values, terminal method env): masked in what it prints. */
  private readonly secretValues = new Set<string>();

  constructor(
    private readonly agent: AgentDefinition,
    private readonly settings: ControllerSettings,
    private readonly ports: AgentPorts,
  ) {
    this.status = { agentName: agent.name, phase: 'idle' };
    this.elicitations = new Elicitations(this.transcript, agent.name, ports.log);
    this.attachments = new PromptAttachments(
      agent.name,
      () => {
        const initialize = this.running?.initialize;
        return initialize ? promptCaps(initialize.agentCapabilities?.promptCapabilities) : undefined;
      },
      (views, notice) => this.session.setAttachments(views, notice),
    );
    // An attachment added before the agent ran is checked once its promptCapabilities are known.
    this.statusListeners.add(() => this.attachments.recheck());
  }

  get currentStatus(): StatusView {
    return this.status;
  }
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }
  get agentInfo() {
    return this.running?.initialize;
  }

  onStatus(listener: (status: StatusView) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Starts the agent and opens a session; concurrent callers share one start. */
  start(): Promise<void> {
    if (this.running && this.sessionId) return Promise.resolve();
    // Waiting for the user to pick a sign-in method (or signing in): starting again would only ask again.
    if (this.running && (this.status.phase === 'auth' || this.authBusy)) return Promise.resolve();
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** A new session starts from an empty transcript (a restart keeps it: the user's history stays visible). */
  async newSession(): Promise<void> {
    // A form of the old session would have no entry left to answer it from.
    this.elicitations.cancelAll();
    this.transcript.clear();
    if (!this.running) return this.start();
    this.ports.terminals?.dispose?.();
    await this.openSessionOrAuth(this.running);
  }

  /** A restart also sends what was queued while the agent was down. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
    void this.drain();
  }

  /**
   * Prompts typed while a turn runs wait in a visible queue: an agent takes one turn at a time
   * (ACP §14.8). Resolves when this prompt's turn has ended, or it was dropped from the queue.
   */
  prompt(text: string): Promise<void> {
    // Say so before sending: a prompt is not sent with context the agent cannot take.
    const attachments = this.attachments.take();
    if (!attachments) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextPromptId++, text, attachments, settle: { resolve, reject } });
      this.publishQueue();
      void this.drain();
    });
  }

  /** Drops a prompt that has not been sent yet. */
  unqueue(id: number): void {
    const index = this.queue.findIndex((q) => q.id === id);
    if (index === -1) return;
    const [dropped] = this.queue.splice(index, 1);
    this.publishQueue();
    dropped.settle.resolve();
  }

  /** Adds context to the prompt being composed; returns why it was refused, if it was. */
  attach(attachment: NewAttachment): string | undefined {
    return this.attachments.add(attachment);
  }

  detach(id: string): void {
    this.attachments.remove(id);
  }

  /** Shows why something the user pasted or dropped was not attached. */
  noteAttachment(notice: string): void {
    this.attachments.note(notice);
  }

  get pendingAttachments(): readonly Attachment[] {
    return this.attachments.pending;
  }

  /** The composer's attachments follow the user to another agent (and are checked against it). */
  adoptAttachments(from: AgentController): void {
    this.attachments.adopt(from.attachments);
  }

  /** Runs queued prompts one by one; a crashed agent keeps them until it is restarted. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && this.status.phase !== 'crashed' && this.status.phase !== 'auth') {
        const next = this.queue.shift()!;
        this.publishQueue();
        const outcome = await this.runTurn(next).catch((error: unknown) => (next.settle.reject(error), 'done' as const));
        if (outcome === 'requeue') {
          // The agent wants a sign-in first: the prompt waits at the head of the queue.
          this.queue.unshift(next);
          this.publishQueue();
          break;
        }
        next.settle.resolve();
      }
    } finally {
      this.draining = false;
    }
  }

  private publishQueue(): void {
    this.session.setQueue(this.queue.map(({ id, text, attachments }) => (attachments.length > 0 ? { id, text, attachments: attachments.map(attachmentLabel) } : { id, text })));
  }

  /** `session/set_mode`, shown at once and taken back if the agent refuses. */
  async setMode(modeId: string): Promise<void> {
    const target = this.target();
    const previous = this.session.currentModeId;
    if (!target || previous === undefined || previous === modeId) return;
    this.session.setCurrentMode(modeId);
    try {
      await target.connection.request(agentMethods.sessionSetMode, { sessionId: target.sessionId, modeId });
    } catch (error) {
      this.session.setCurrentMode(previous);
      this.transcript.addError(`The agent did not switch to mode ${modeId}: ${(error as Error).message}`);
    }
  }

  /** `session/set_config_option`; the answer is the complete new set (other options may change too). */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const target = this.target();
    if (!target) return;
    const { sessionId, connection } = target;
    const request = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean' as const, value } : { sessionId, configId, value };
    try {
      const result = await connection.request(agentMethods.sessionSetConfigOption, request);
      this.session.setConfigOptions(result.configOptions);
    } catch (error) {
      // The picker shows the value the user picked: send it the unchanged state again.
      this.session.republish();
      this.transcript.addError(`The agent did not change ${configId}: ${(error as Error).message}`);
    }
  }

  private target(): { connection: AcpConnection; sessionId: string } | undefined {
    return this.running && this.sessionId ? { connection: this.running.connection, sessionId: this.sessionId } : undefined;
  }

  private async runTurn(next: QueuedPrompt): Promise<'done' | 'requeue'> {
    const { text } = next;
    await this.start();
    if (this.status.phase === 'auth' || this.authBusy) return 'requeue';
    const running = this.running;
    const sessionId = this.sessionId;
    if (!running || !sessionId) return 'done';
    const caps = promptCaps(running.initialize.agentCapabilities?.promptCapabilities);
    const built = await promptBlocks(text, next.attachments, caps, this.ports.readForEmbed);
    if (!next.shown) this.transcript.addUserPrompt(text, next.attachments.map(attachmentLabel));
    next.shown = true;
    if (built.refused.length > 0) {
      // The agent changed since these were attached: nothing is dropped silently, nothing is sent.
      const labels = built.refused.map((a) => attachmentLabel(a).label).join(', ');
      this.transcript.addError(`Not sent: ${labels} cannot go to this agent. ${refusal(built.refused[0].kind, caps, this.agent.name)}`);
      return 'done';
    }
    this.setStatus({ phase: 'prompting' });
    try {
      const result = await running.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: built.blocks });
      this.authAttempt = undefined;
      this.transcript.endTurn(result.stopReason);
    } catch (error) {
      if (isAuthRequired(error) && this.running === running && this.authMethods(running).length > 0) {
        this.askForAuth(running);
        return 'requeue';
      }
      // The output closing usually means the process is exiting: let the crash report win.
      if (error instanceof ConnectionClosedError) await Promise.race([running.process.exited, delay(2000)]);
      if (this.running === running) this.transcript.addError(`The turn failed: ${(error as Error).message}`);
    } finally {
      this.answerPendingPermissions();
      if (this.running === running && this.status.phase === 'prompting') this.setStatus({ phase: 'ready' });
    }
    return 'done';
  }

  /** `session/cancel`, then every pending permission is answered `cancelled` (ACP §14.4). */
  async cancel(): Promise<void> {
    const running = this.running;
    if (!running || !this.sessionId || this.status.phase !== 'prompting') return;
    await running.connection.notify(agentMethods.sessionCancel, { sessionId: this.sessionId });
    this.answerPendingPermissions();
  }

  /** The user's answer to an elicitation form; an `accept` that does not fit the form keeps it open, with the reason shown. */
  answerElicitation(requestKey: string, action: ElicitationAction, content?: unknown): boolean {
    return this.elicitations.answer(requestKey, action, content);
  }

  choosePermission(toolCallId: string, optionId: string): void {
    const respond = this.pendingPermissions.get(toolCallId);
    if (!respond) return;
    this.pendingPermissions.delete(toolCallId);
    this.transcript.clearPermission(toolCallId);
    respond({ outcome: { outcome: 'selected', optionId } });
  }

  async stop(): Promise<void> {
    this.authAttempt = undefined;
    await this.shutdown();
  }

  /** Stops the agent; a sign-in in progress (authAttempt) survives, for a restart that applies it. */
  private async shutdown(): Promise<void> {
    this.stops++;
    const running = this.running;
    this.running = undefined;
    this.sessionId = undefined;
    this.answerPendingPermissions();
    this.ports.terminals?.dispose?.();
    if (!running) return;
    running.connection.dispose();
    await running.process.shutdown();
    this.setStatus({ phase: 'idle', detail: undefined, authMethods: undefined });
  }

  /** The agent's launch spec, with the secrets stored for it (env_var sign-ins) laid over its env. */
  private async launchSpec(): Promise<LaunchSpec> {
    const spec = await this.agent.launch();
    const stored = (await this.ports.storedSecrets?.(this.agent.name)) ?? {};
    const names = Object.keys(stored);
    if (names.length === 0) return spec;
    // Names only: a value never reaches a log line.
    this.ports.log.info(`Starting ${this.agent.name} with ${names.join(', ')} set from SecretStorage`);
    for (const value of Object.values(stored)) this.secretValues.add(value);
    return { ...spec, env: { ...spec.env, ...stored } };
  }

  private async doStart(): Promise<void> {
    this.setStatus({ phase: 'starting', detail: undefined, authMethods: undefined });
    try {
      const spec = await this.launchSpec();
      const stops = this.stops;
      this.mcpWarnings.clear();
      const running = await startWithFallback(spec.args, this.agent.fallbackArgs ?? [], (args) => startAgent(
        { ...spec, args: [...args] },
        {
          name: this.agent.name,
          clientInfo: { name: 'acp-host', title: 'ACP Host', version: this.settings.clientVersion },
          clientCapabilities: clientCapabilities(this.ports),
          initializeTimeoutMs: this.settings.initializeTimeoutMs,
          maxLineBytes: this.settings.maxLineBytes,
          log: this.ports.log,
          onTrace: (direction, message) => this.ports.onTrace(this.agent.name, direction, redactMcpSecrets(redactAuthEnv(message))),
          onStderrLine: (line) => this.ports.log.info(`[${this.agent.name} stderr] ${this.scrub(line)}`),
        },
        (connection) => this.serve(connection),
      ), (failed, next, error) => this.ports.log.warn(`${error.message.split('\n')[0]} Trying again with: ${commandLine(spec.command, next)} (instead of ${commandLine(spec.command, failed)}).`));
      if (stops !== this.stops) {
        // Stopped while it was starting (another agent was chosen): it must not live on unowned.
        running.connection.dispose();
        await running.process.shutdown();
        return;
      }
      this.running = running;
      void running.process.exited.then((exit) => {
        if (this.running !== running) return; // we stopped it on purpose
        this.running = undefined;
        this.sessionId = undefined;
        this.answerPendingPermissions();
        this.ports.terminals?.dispose?.();
        const tail = running.process.stderrTail.last(15);
        const detail = this.scrub(`${this.agent.name} ${describeExit(exit)}.${tail.length ? `\nLast lines of its stderr:\n${tail.join('\n')}` : ''}`);
        this.transcript.addError(detail);
        this.setStatus({ phase: 'crashed', detail, authMethods: undefined });
      });
      await this.openSessionOrAuth(running);
    } catch (error) {
      const detail = this.scrub(startFailureDetail(this.agent.name, error, this.agent.notFoundHint));
      this.ports.log.error(detail);
      this.transcript.addError(detail);
      this.setStatus({ phase: 'crashed', detail });
    }
  }

  /** The state of the previous session goes; updates that arrive before the answer are kept. */
  private async openSession(connection: AcpConnection): Promise<void> {
    this.session.reset();
    const mcpServers = await this.mcpServersFor();
    const result = await connection.request(agentMethods.sessionNew, { cwd: this.settings.workspaceFolder, mcpServers });
    this.sessionId = result.sessionId;
    this.authAttempt = undefined;
    this.session.setInitial(result.modes, result.configOptions);
    this.setStatus({ phase: 'ready', detail: undefined, authMethods: undefined });
  }

  /** acpHost.mcpServers minus what this agent cannot connect to; each skipped server is logged once per start. */
  private async mcpServersFor(): Promise<McpServer[]> {
    const configured = (await this.ports.mcpServers?.()) ?? [];
    const capabilities = this.running?.initialize.agentCapabilities?.mcpCapabilities;
    return selectMcpServers(configured, capabilities, (message) => {
      if (this.mcpWarnings.has(message)) return;
      this.mcpWarnings.add(message);
      this.ports.log.warn(message);
    });
  }

  /** session/new; "authentication required" with sign-in methods listed leads to the auth phase instead of an error. */
  private async openSessionOrAuth(running: RunningAgent): Promise<void> {
    try {
      await this.openSession(running.connection);
    } catch (error) {
      if (!isAuthRequired(error) || this.authMethods(running).length === 0) throw error;
      this.sessionId = undefined; // a new session is what waits for the sign-in
      this.askForAuth(running);
    }
  }

  /** The methods this agent listed that this client can run (env_var and terminal need their ports). */
  private authMethods(running: RunningAgent): AuthMethod[] {
    return (running.initialize.authMethods ?? []).filter((m) => {
      const kind = authKind(m);
      if (kind === 'env_var') return this.ports.askSecret !== undefined && this.ports.storedSecrets !== undefined;
      if (kind === 'terminal') return this.ports.runLoginTerminal !== undefined;
      return true;
    });
  }

  /** Shows the sign-in choices; right after a sign-in, the same answer is an error, not another round. */
  private askForAuth(running: RunningAgent, failure?: string): void {
    const attempt = this.authAttempt;
    this.authAttempt = undefined;
    const detail = failure ?? (attempt ? `${this.agent.name} still asks to sign in after ${attempt}.` : undefined);
    if (detail) {
      this.ports.log.warn(detail);
      this.transcript.addError(detail);
    } else {
      this.ports.log.info(`${this.agent.name} asks to sign in (-32000)`);
    }
    const authMethods = this.authMethods(running).map((m) => ({ id: m.id, name: m.name, description: m.description ?? null, type: authKind(m) }));
    this.setStatus({ phase: 'auth', detail, authMethods });
  }

  /**
   * Signs in with one of the listed methods (ACP §6), then retries what asked for it:
   * `agent` → `authenticate`, then session/new (or the waiting prompt) again; `env_var` → asks
   * for the value once, stores it and restarts the agent with it; `terminal` → runs the agent's
   * login command in a terminal and, on exit code 0, restarts the agent.
   */
  async authenticate(methodId: string): Promise<void> {
    const running = this.running;
    if (!running || this.status.phase !== 'auth' || this.authBusy) return;
    const method = this.authMethods(running).find((m) => m.id === methodId);
    if (!method) {
      this.ports.log.warn(`authenticate: ${this.agent.name} listed no usable sign-in method ${JSON.stringify(methodId)}`);
      return;
    }
    const attempt = `signing in with "${method.name}"`;
    this.authBusy = true;
    this.setStatus({ phase: 'starting', detail: undefined });
    try {
      let failure: string | undefined;
      try {
        failure = await this.signIn(running, method);
      } catch (error) {
        failure = `Signing in with "${method.name}" failed: ${(error as Error).message}`;
      }
      if (this.running !== running) return; // it crashed or was stopped meanwhile: its status says so
      if (failure !== undefined) return this.askForAuth(running, failure);
      this.authAttempt = attempt;
      if (method.type === 'env_var' || method.type === 'terminal') {
        // A fresh process picks up the new credentials; initialize and session/new run again.
        await this.shutdown();
        this.authAttempt = attempt;
        await this.start();
      } else if (this.sessionId) {
        // The session exists: it was a prompt that asked; it is retried from the queue.
        this.setStatus({ phase: 'ready', detail: undefined, authMethods: undefined });
      } else {
        await this.openSessionOrAuth(running).catch((error: Error) => this.failStart(`${this.agent.name} could not open a session: ${error.message}`));
      }
    } finally {
      this.authBusy = false;
    }
    void this.drain();
  }

  /** Runs one method; returns why it failed, or undefined when it succeeded. */
  private async signIn(running: RunningAgent, method: AuthMethod): Promise<string | undefined> {
    const name = this.agent.name;
    switch (method.type) {
      case 'env_var': {
        for (const v of method.vars) {
          const prompt = `${name}: ${v.label ?? method.name} (${v.name})${method.description ? ` — ${method.description}` : ''}`;
          const value = await this.ports.askSecret!(name, v.name, prompt);
          if (value === undefined || value === '') {
            if (v.optional) continue;
            return `Signing in with "${method.name}" was cancelled: no value for ${v.name}.`;
          }
          this.ports.log.info(`Stored ${v.name} for ${name} in SecretStorage`);
        }
        return undefined;
      }
      case 'terminal': {
        const spec = await this.agent.launch();
        const args = [...spec.args, ...(method.args ?? [])];
        for (const value of Object.values(method.env ?? {})) this.secretValues.add(value);
        this.ports.log.info(`Signing in to ${name}: running ${spec.command} ${args.join(' ')} in a terminal${method.env && Object.keys(method.env).length ? ` (with ${Object.keys(method.env).join(', ')} set)` : ''}`);
        const result = await this.ports.runLoginTerminal!({
          agentName: name,
          methodName: method.name,
          command: spec.command,
          args,
          env: { ...spec.env, ...(method.env ?? {}) },
          cwd: spec.cwd,
        });
        if (result.exitCode === 0) return undefined;
        const how = result.exitCode === undefined ? 'was closed or killed before it finished' : `exited with code ${result.exitCode}`;
        return `Signing in with "${method.name}" failed: the login command ${how}.`;
      }
      default:
        this.ports.log.info(`Signing in to ${name} with "${method.name}" (authenticate ${method.id})`);
        await running.connection.request(agentMethods.authenticate, { methodId: method.id });
        return undefined;
    }
  }

  /** An agent that prints a secret it was given (stderr, crash detail) does not get it into the log or the panel. */
  private scrub(text: string): string {
    let out = text;
    for (const secret of this.secretValues) if (secret.length >= 6) out = out.split(secret).join('***');
    return out;
  }

  private failStart(detail: string): void {
    this.ports.log.error(detail);
    this.transcript.addError(detail);
    this.setStatus({ phase: 'crashed', detail, authMethods: undefined });
  }

  /** Handlers for what the agent calls; registered before initialize, since agents call early. */
  private serve(connection: AcpConnection): void {
    connection.onNotification(clientMethods.sessionUpdate, ({ update }) => {
      // Updates for a session we have not registered yet (before the session/new answer) are kept too.
      if (!this.transcript.apply(update) && !this.session.apply(update) && update.sessionUpdate === 'unknown') {
        this.ports.log.info(`Ignored session/update of unknown kind ${update.kind}`);
      }
    });
    connection.onRequest(clientMethods.sessionRequestPermission, (request) => {
      const toolCallId = request.toolCall.toolCallId;
      this.transcript.askPermission(request.toolCall, request.options);
      return new Promise<RequestPermissionResponse>((resolve) => this.pendingPermissions.set(toolCallId, resolve));
    });
    if (this.ports.forms) {
      connection.onRequest(clientMethods.elicitationCreate, (request) => this.elicitations.create(request));
      // Follows URL-mode flows only, which are declined: nothing to do.
      connection.onNotification(clientMethods.elicitationComplete, ({ elicitationId }) => this.ports.log.info(`Ignored elicitation/complete for ${elicitationId}`));
    }
    connection.onRequest(clientMethods.fsReadTextFile, async (request) => ({ content: await this.ports.readTextFile(request) }));
    const { writeTextFile, terminals } = this.ports;
    if (writeTextFile) connection.onRequest(clientMethods.fsWriteTextFile, async (request) => (await writeTextFile(request), {}));
    if (terminals) {
      connection.onRequest(clientMethods.terminalCreate, (request) => terminals.create(request));
      connection.onRequest(clientMethods.terminalOutput, (request) => terminals.output(request));
      connection.onRequest(clientMethods.terminalWaitForExit, (request) => terminals.waitForExit(request));
      connection.onRequest(clientMethods.terminalKill, async (request) => (await terminals.kill(request), {}));
      connection.onRequest(clientMethods.terminalRelease, async (request) => (await terminals.release(request), {}));
    }
  }

  /** Also answers every open elicitation form `cancel` (the turn ended, was cancelled, or the agent went away). */
  private answerPendingPermissions(): void {
    for (const [toolCallId, respond] of this.pendingPermissions) {
      this.transcript.clearPermission(toolCallId);
      respond({ outcome: { outcome: 'cancelled' } });
    }
    this.pendingPermissions.clear();
    this.elicitations.cancelAll();
  }

  private setStatus(patch: Partial<StatusView>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.statusListeners) listener(this.status);
  }
}
