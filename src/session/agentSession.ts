import type { RunningAgent } from '../agent/launch';
import { ConnectionClosedError } from '../agent/connection';
import type { AcpConnection } from '../agent/connection';
import { agentMethods } from '../protocol/methods';
import { ErrorCodes } from '../protocol/errors';
import type { AuthMethod, LoadSessionResponse, NewSessionResponse, RequestPermissionResponse } from '../protocol';
import type { AgentDefinition, AgentPorts, ControllerSettings } from '../runtime/ports';
import { AgentRuntime, sessionFeatures } from '../runtime/agentRuntime';
import type { SessionEndpoint } from '../runtime/agentRuntime';
import { startFailureDetail } from '../runtime/presets';
import { attachmentLabel, promptBlocks, promptCaps, refusal } from './attachments';
import type { Attachment, NewAttachment } from './attachments';
import { PromptAttachments } from './promptAttachments';
import { SessionState } from './sessionState';
import { Elicitations } from './elicitations';
import type { ElicitationAction } from './elicitations';
import { Transcript } from './transcript';
import type { AuthMethodView, StatusView } from '../webview-protocol/messages';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's "authentication required" answer (ACP §6): run an auth method, then retry. */
function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ErrorCodes.AuthRequired;
}

function authKind(method: AuthMethod): AuthMethodView['type'] {
  return method.type ?? 'agent';
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

/** How a session begins: on its own process, or on one shared with the agent's other sessions. */
export interface SessionOptions {
  /** The agent's process, shared by its sessions; without it the session has a process of its own. */
  runtime?: AgentRuntime;
  /** The agent's id of a conversation to bring back (history, a window reload) with session/load or session/resume. */
  sessionId?: string;
  /** Its title, shown until the agent sends one. */
  title?: string;
}

/**
 * One session with an agent: opening it (session/new, or load/resume of an earlier one), prompt
 * turns and their queue, cancel, permissions, forms, sign-in, and what a crash or a restart of
 * the agent's process (AgentRuntime) does to it.
 */
export class AgentController {
  readonly transcript = new Transcript();
  readonly session = new SessionState();
  readonly runtime: AgentRuntime;
  /** A session made without a runtime owns its process: stopping the session stops it. */
  private readonly ownsRuntime: boolean;
  /** The process this session is open on. */
  private running: RunningAgent | undefined;
  /** The agent's id of this session while it is open. */
  private sessionId: string | undefined;
  /** The agent's id of this conversation, kept over crashes and restarts, to bring it back. */
  private savedSessionId: string | undefined;
  private savedTitle: string | undefined;
  private firstPrompt: string | undefined;
  private readonly endpoint: SessionEndpoint;
  private status: StatusView;
  private readonly pendingPermissions = new Map<string, PendingPermission>();
  /** Forms the agent asked for (`elicitation/create`) and their answers. */
  private readonly elicitations: Elicitations;
  private readonly statusListeners = new Set<(status: StatusView) => void>();
  private starting: Promise<void> | undefined;
  /** Counts stops, so a start that a stop overtook does not open a session. */
  private stops = 0;
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

  constructor(
    agent: AgentDefinition,
    settings: ControllerSettings,
    private readonly ports: AgentPorts,
    options: SessionOptions = {},
  ) {
    this.runtime = options.runtime ?? new AgentRuntime(agent, settings, ports);
    this.ownsRuntime = options.runtime === undefined;
    this.savedSessionId = options.sessionId;
    this.savedTitle = options.title;
    this.endpoint = this.makeEndpoint();
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
  /** The agent's id of this conversation, open or not (what history and a window reload bring back). */
  get agentSessionId(): string | undefined {
    return this.savedSessionId;
  }
  get agentName(): string {
    return this.agent.name;
  }
  /** The agent as its runtime runs it now (the host may update a stopped runtime's definition). */
  private get agent(): AgentDefinition {
    return this.runtime.agent;
  }
  /** What the session switcher calls it: the agent's title, else the first prompt. */
  get label(): string {
    const title = this.session.view.title ?? this.savedTitle ?? this.firstPrompt;
    return title ? title.slice(0, 200) : 'New session';
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

  /**
   * Restarts the agent's process (its other sessions hear of it and come back when next used),
   * then brings this session back; a crashed agent is simply started again. A restart also
   * sends what was queued while the agent was down.
   */
  async restart(): Promise<void> {
    this.authAttempt = undefined;
    if (this.running) await this.restartProcess();
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
    this.firstPrompt ??= text.replace(/\s+/g, ' ').trim();
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

  /** Ends this session's use of the agent (its own process, if it has one, stops too); it can be started again. */
  async stop(): Promise<void> {
    this.authAttempt = undefined;
    this.stops++;
    if (this.ownsRuntime) return this.runtime.stop();
    if (this.sessionId) this.runtime.detach(this.sessionId, this.endpoint);
    this.agentStopped();
    // A process that no session uses is not kept running.
    if (!this.runtime.inUse) await this.runtime.stop();
  }

  /** Closes the session for good: `session/close` when the agent advertises it; queued prompts are dropped. */
  async close(): Promise<void> {
    for (const queued of this.queue.splice(0)) queued.settle.resolve();
    this.publishQueue();
    if (this.sessionId) await this.runtime.close(this.sessionId, this.endpoint);
    await this.stop();
  }

  /** A new process for the agent (its sessions are told); a sign-in in progress (authAttempt) survives. */
  private async restartProcess(): Promise<void> {
    this.stops++;
    await this.runtime.stop();
    this.agentStopped();
  }

  /** What this session serves the agent, routed to it by the runtime. */
  private makeEndpoint(): SessionEndpoint {
    const { writeTextFile, terminals } = this.ports;
    return {
      onUpdate: (update) => {
        if (!this.transcript.apply(update) && !this.session.apply(update) && update.sessionUpdate === 'unknown') {
          this.ports.log.info(`Ignored session/update of unknown kind ${update.kind}`);
        }
      },
      onPermission: (request) => {
        const toolCallId = request.toolCall.toolCallId;
        this.transcript.askPermission(request.toolCall, request.options);
        return new Promise<RequestPermissionResponse>((resolve) => this.pendingPermissions.set(toolCallId, resolve));
      },
      onElicitation: (request) => this.elicitations.create(request),
      readTextFile: (request) => this.ports.readTextFile(request),
      writeTextFile: writeTextFile && ((request) => writeTextFile(request)),
      terminals,
      onAgentExit: (detail) => this.agentExited(detail),
      onAgentStop: () => this.agentStopped(),
    };
  }

  /** The process is gone on purpose: this session can be reopened. */
  private agentStopped(): void {
    const wasOpen = this.running !== undefined;
    this.running = undefined;
    this.sessionId = undefined;
    this.answerPendingPermissions();
    this.ports.terminals?.dispose?.();
    if (wasOpen || this.status.phase !== 'crashed') this.setStatus({ phase: 'idle', detail: undefined, authMethods: undefined });
  }

  /** The process crashed: the transcript and the header say how, and Restart brings the session back. */
  private agentExited(detail: string): void {
    this.running = undefined;
    this.sessionId = undefined;
    this.answerPendingPermissions();
    this.ports.terminals?.dispose?.();
    this.transcript.addError(detail);
    this.setStatus({ phase: 'crashed', detail, authMethods: undefined });
  }

  private async doStart(): Promise<void> {
    this.setStatus({ phase: 'starting', detail: undefined, authMethods: undefined });
    const stops = this.stops;
    const release = this.runtime.claim();
    try {
      let running: RunningAgent;
      try {
        running = await this.runtime.start();
      } catch (error) {
        // Already in words, with the exit code and stderr.
        if (stops === this.stops) this.failStart((error as Error).message);
        return;
      }
      if (stops !== this.stops) return; // stopped or closed meanwhile
      this.running = running;
      try {
        await this.openSessionOrAuth(running);
      } catch (error) {
        if (this.running !== running) return; // the crash report says why
        this.failStart(this.runtime.scrub(startFailureDetail(this.agent.name, error, this.agent.notFoundHint)));
      }
    } finally {
      release();
      // Stopped or closed while starting: a process started for nobody does not stay.
      if (stops !== this.stops && !this.ownsRuntime && !this.runtime.inUse) await this.runtime.stop();
    }
  }

  /**
   * Opens the session on `running`: brings back the earlier conversation when there is one and
   * the agent can (load or resume), else session/new. Updates that arrive before the answer are kept.
   */
  private async openSession(running: RunningAgent): Promise<void> {
    const reopened = this.savedSessionId ? await this.reopen(running, this.savedSessionId) : undefined;
    let result: NewSessionResponse | LoadSessionResponse | undefined = reopened;
    let sessionId = this.savedSessionId;
    if (!reopened) {
      this.session.reset();
      const created = await this.runtime.openNew(running, this.endpoint);
      result = created;
      sessionId = created.sessionId;
    }
    if (this.running !== running) return; // it crashed or was stopped meanwhile: its status says so
    this.sessionId = sessionId;
    this.savedSessionId = sessionId;
    this.authAttempt = undefined;
    this.session.setInitial(result?.modes, result?.configOptions);
    this.setStatus({ phase: 'ready', detail: undefined, authMethods: undefined });
  }

  /**
   * session/resume keeps what the transcript shows; session/load replays the conversation, so
   * it is used when the transcript is empty (history, a window reload) or resume is not offered.
   * Returns undefined when the conversation cannot come back: the user is told, and a new session opens.
   */
  private async reopen(running: RunningAgent, sessionId: string): Promise<LoadSessionResponse | undefined> {
    const features = sessionFeatures(running.initialize.agentCapabilities);
    const resume = features.has('resume') && (this.transcript.entries.length > 0 || !features.has('load'));
    const how = resume ? 'resume' : features.has('load') ? 'load' : undefined;
    if (!how) {
      this.savedSessionId = undefined;
      this.transcript.addError(`${this.agent.name} cannot reopen a session (it offers neither session/load nor session/resume): what follows is a new session.`);
      return undefined;
    }
    if (how === 'load') {
      // The agent replays the whole conversation: what the transcript showed would be there twice.
      this.elicitations.cancelAll();
      this.transcript.clear();
      this.session.reset();
    }
    try {
      return await this.runtime.reopen(running, this.endpoint, sessionId, how);
    } catch (error) {
      if (isAuthRequired(error)) throw error;
      this.savedSessionId = undefined;
      this.transcript.addError(`${this.agent.name} could not ${how} the session: ${(error as Error).message}. What follows is a new session.`);
      return undefined;
    }
  }

  /** Opens the session; "authentication required" with sign-in methods listed leads to the auth phase instead of an error. */
  private async openSessionOrAuth(running: RunningAgent): Promise<void> {
    try {
      await this.openSession(running);
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
        await this.restartProcess();
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
        for (const value of Object.values(method.env ?? {})) this.runtime.addSecret(value);
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

  private failStart(detail: string): void {
    this.ports.log.error(detail);
    this.transcript.addError(detail);
    this.setStatus({ phase: 'crashed', detail, authMethods: undefined });
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
