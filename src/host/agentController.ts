import { startAgent, AgentStartError, describeExit } from '../agent/launch';
import type { RunningAgent } from '../agent/launch';
import { ConnectionClosedError } from '../agent/connection';
import type { AcpConnection, ConnectionLog, TraceDirection } from '../agent/connection';
import type { LaunchSpec } from '../agent/process';
import { agentMethods, clientMethods } from '../protocol/methods';
import type {
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
} from '../protocol';
import { SessionState } from '../session/sessionState';
import { Transcript } from '../session/transcript';
import type { StatusView } from '../webview-protocol/messages';

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
 * What the controller needs from VS Code, as plain functions, so it has no `vscode` import.
 * Optional ports are capabilities: what is absent is not advertised (ACP §14.3).
 */
export interface AgentPorts {
  readTextFile(request: ReadTextFileRequest): Promise<string>;
  writeTextFile?(request: WriteTextFileRequest): Promise<void>;
  terminals?: TerminalPort;
  log: ConnectionLog;
  onTrace(agentName: string, direction: TraceDirection, message: unknown): void;
}

export interface AgentDefinition {
  name: string;
  launch: () => Promise<LaunchSpec>;
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
    // The panel renders boolean config options as checkboxes.
    session: { configOptions: { boolean: {} } },
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type PendingPermission = (response: RequestPermissionResponse) => void;

/** A prompt waiting for its turn; `settle` resolves the caller's promise when it ran or was dropped. */
interface QueuedPrompt {
  id: number;
  text: string;
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
  private readonly statusListeners = new Set<(status: StatusView) => void>();
  private starting: Promise<void> | undefined;
  private readonly queue: QueuedPrompt[] = [];
  private nextPromptId = 1;
  private draining = false;

  constructor(
    private readonly agent: AgentDefinition,
    private readonly settings: ControllerSettings,
    private readonly ports: AgentPorts,
  ) {
    this.status = { agentName: agent.name, phase: 'idle' };
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
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** A new session starts from an empty transcript (a restart keeps it: the user's history stays visible). */
  async newSession(): Promise<void> {
    this.transcript.clear();
    if (!this.running) return this.start();
    this.ports.terminals?.dispose?.();
    await this.openSession(this.running.connection);
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
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextPromptId++, text, settle: { resolve, reject } });
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

  /** Runs queued prompts one by one; a crashed agent keeps them until it is restarted. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && this.status.phase !== 'crashed') {
        const next = this.queue.shift()!;
        this.publishQueue();
        await this.runTurn(next.text).then(next.settle.resolve, next.settle.reject);
      }
    } finally {
      this.draining = false;
    }
  }

  private publishQueue(): void {
    this.session.setQueue(this.queue.map(({ id, text }) => ({ id, text })));
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

  private async runTurn(text: string): Promise<void> {
    await this.start();
    const running = this.running;
    const sessionId = this.sessionId;
    if (!running || !sessionId) return;
    this.transcript.addUserPrompt(text);
    this.setStatus({ phase: 'prompting' });
    try {
      const result = await running.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: [{ type: 'text', text }] });
      this.transcript.endTurn(result.stopReason);
    } catch (error) {
      // The output closing usually means the process is exiting: let the crash report win.
      if (error instanceof ConnectionClosedError) await Promise.race([running.process.exited, delay(2000)]);
      if (this.running === running) this.transcript.addError(`The turn failed: ${(error as Error).message}`);
    } finally {
      this.answerPendingPermissions();
      if (this.running === running && this.status.phase === 'prompting') this.setStatus({ phase: 'ready' });
    }
  }

  /** `session/cancel`, then every pending permission is answered `cancelled` (ACP §14.4). */
  async cancel(): Promise<void> {
    const running = this.running;
    if (!running || !this.sessionId || this.status.phase !== 'prompting') return;
    await running.connection.notify(agentMethods.sessionCancel, { sessionId: this.sessionId });
    this.answerPendingPermissions();
  }

  choosePermission(toolCallId: string, optionId: string): void {
    const respond = this.pendingPermissions.get(toolCallId);
    if (!respond) return;
    this.pendingPermissions.delete(toolCallId);
    this.transcript.clearPermission(toolCallId);
    respond({ outcome: { outcome: 'selected', optionId } });
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.sessionId = undefined;
    this.answerPendingPermissions();
    this.ports.terminals?.dispose?.();
    if (!running) return;
    running.connection.dispose();
    await running.process.shutdown();
    this.setStatus({ phase: 'idle', detail: undefined });
  }

  private async doStart(): Promise<void> {
    this.setStatus({ phase: 'starting', detail: undefined });
    try {
      const spec = await this.agent.launch();
      const running = await startAgent(
        spec,
        {
          name: this.agent.name,
          clientInfo: { name: 'acp-host', title: 'ACP Host', version: this.settings.clientVersion },
          clientCapabilities: clientCapabilities(this.ports),
          initializeTimeoutMs: this.settings.initializeTimeoutMs,
          maxLineBytes: this.settings.maxLineBytes,
          log: this.ports.log,
          onTrace: (direction, message) => this.ports.onTrace(this.agent.name, direction, message),
          onStderrLine: (line) => this.ports.log.info(`[${this.agent.name} stderr] ${line}`),
        },
        (connection) => this.serve(connection),
      );
      this.running = running;
      void running.process.exited.then((exit) => {
        if (this.running !== running) return; // we stopped it on purpose
        this.running = undefined;
        this.sessionId = undefined;
        this.answerPendingPermissions();
        this.ports.terminals?.dispose?.();
        const tail = running.process.stderrTail.last(15);
        const detail = `${this.agent.name} ${describeExit(exit)}.${tail.length ? `\nLast lines of its stderr:\n${tail.join('\n')}` : ''}`;
        this.transcript.addError(detail);
        this.setStatus({ phase: 'crashed', detail });
      });
      await this.openSession(running.connection);
    } catch (error) {
      const detail = error instanceof AgentStartError ? error.message : `Could not start ${this.agent.name}: ${(error as Error).message}`;
      this.ports.log.error(detail);
      this.transcript.addError(detail);
      this.setStatus({ phase: 'crashed', detail });
    }
  }

  /** The state of the previous session goes; updates that arrive before the answer are kept. */
  private async openSession(connection: AcpConnection): Promise<void> {
    this.session.reset();
    const result = await connection.request(agentMethods.sessionNew, { cwd: this.settings.workspaceFolder, mcpServers: [] });
    this.sessionId = result.sessionId;
    this.session.setInitial(result.modes, result.configOptions);
    this.setStatus({ phase: 'ready', detail: undefined });
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

  private answerPendingPermissions(): void {
    for (const [toolCallId, respond] of this.pendingPermissions) {
      this.transcript.clearPermission(toolCallId);
      respond({ outcome: { outcome: 'cancelled' } });
    }
    this.pendingPermissions.clear();
  }

  private setStatus(patch: Partial<StatusView>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.statusListeners) listener(this.status);
  }
}
