import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import type { AcpConnection } from '../agent/connection';
import { agentMethods } from '../protocol/methods';
import { AgentRuntime } from '../runtime/agentRuntime';
import type { SessionEndpoint } from '../runtime/agentRuntime';
import type { AgentDefinition, AgentPorts, ControllerSettings } from '../runtime/ports';
import { attachmentLabel, promptCaps } from './attachments';
import type { Attachment, NewAttachment } from './attachments';
import { CarriedTurn } from './carriedTurn';
import { Elicitations } from './elicitations';
import type { ElicitationAction } from './elicitations';
import { foldUpdate } from './fold';
import { SessionLifecycle } from './lifecycle';
import type { LifecycleSession } from './lifecycle';
import { PolicyGate } from './policyGate';
import { askAudited } from './permissionAudit';
import { PromptAttachments } from './promptAttachments';
import { SessionOrigin } from './sessionOrigin';
import type { SessionDetails } from './sessionOrigin';
import { SessionState } from './sessionState';
import { SessionSettings } from './sessionSettings';
import { SignIn } from './signIn';
import type { SignInSession } from './signIn';
import { signOut } from './signOut';
import { Transcript } from './transcript';
import { runTurn } from './turn';
import type { TurnSession } from './turn';
import { TurnQueue } from './turnQueue';
import type { SessionStatus } from './model';

/** How a session begins: on its own process, or on one shared with the agent's other sessions; its roots and, for a fork, its original. */
export interface SessionOptions extends SessionDetails {
  /** The agent's process, shared by its sessions; without it the session has a process of its own. */
  runtime?: AgentRuntime;
  /** The agent's id of a conversation to bring back (history, a window reload) with session/load or session/resume. */
  sessionId?: string;
  /** Its title, shown until the agent sends one. */
  title?: string;
}

/**
 * One session with an agent, as the panel and the palette use it. It composes small parts, each
 * tested on its own: the lifecycle (start, open/load/resume, close, crash, restart), the turn
 * queue, sign-in, the composer's attachments, and the transcript, which holds what waits on the
 * user (permissions, forms). What is left here is a turn, and what the agent calls in this
 * session (the endpoint the runtime routes to it).
 */
export class AgentSession {
  readonly transcript = new Transcript();
  readonly session = new SessionState();
  readonly runtime: AgentRuntime;
  /** Where it works (its roots, what the agent's paths are confined to) and what it was forked from. */
  readonly origin: SessionOrigin;
  private readonly signIn: SignIn;
  private readonly lifecycle: SessionLifecycle;
  private readonly turns: TurnQueue;
  /** A turn the agent carries on after session/load, which no prompt of ours started. */
  private readonly carried: CarriedTurn;
  private readonly elicitations: Elicitations;
  private readonly settings: SessionSettings;
  /** Context for the prompt being composed (the panel's chips); the next prompt takes it. */
  private readonly attachments: PromptAttachments;
  private readonly endpoint: SessionEndpoint;
  /** ACP Host's say over what the agent asks of VS Code. */
  readonly gate: PolicyGate;
  private status: SessionStatus;
  private readonly statusChanged = new Emitter<SessionStatus>();
  /** Fired with the new status on every change. */
  readonly onStatus: Event<SessionStatus> = this.statusChanged.event;
  private savedTitle: string | undefined;
  private firstPrompt: string | undefined;

  constructor(
    agent: AgentDefinition,
    settings: ControllerSettings,
    private readonly ports: AgentPorts,
    options: SessionOptions = {},
  ) {
    this.runtime = options.runtime ?? new AgentRuntime(agent, settings, ports);
    this.savedTitle = options.title;
    this.status = { agentName: agent.name, phase: 'idle' };
    this.origin = new SessionOrigin(settings, options, () => this.lifecycle.running?.initialize.agentCapabilities, ports.log);
    if (options.forkOf) this.session.setForkOf({ title: options.forkOf.title, note: options.forkOf.note });
    this.transcript.onPlan(() => this.session.setPlan(this.transcript.plan));
    this.gate = new PolicyGate(ports.policy, this.transcript, agent.name, ports.log, () => this.origin.confinement, ports.audit?.bind(ports));
    this.endpoint = this.makeEndpoint();
    this.signIn = new SignIn(this.parts(), ports);
    this.carried = new CarriedTurn({
      transcript: this.transcript,
      setRunning: (running) => {
        this.setStatus({ phase: running ? 'prompting' : 'ready' });
        if (!running) void this.turns.drain();
      },
      released: () => void this.turns.drain(),
    });
    // A fork is asked of the agent once, when it first opens; after that it is a session of its own.
    const forkFrom = options.sessionId === undefined ? options.forkOf?.sessionId : undefined;
    this.lifecycle = new SessionLifecycle(this.runtime, options.runtime === undefined, this.parts(), options.sessionId, forkFrom);
    this.turns = new TurnQueue(
      (prompt) => runTurn(this.parts(), prompt),
      () => this.status.phase === 'crashed' || this.status.phase === 'auth' || this.carried.holding,
      (waiting) => this.session.setQueue(waiting.map(({ id, text, attachments }) => (attachments.length > 0 ? { id, text, attachments: attachments.map(attachmentLabel) } : { id, text }))),
    );
    this.elicitations = new Elicitations(this.transcript, agent.name, ports.log);
    this.settings = new SessionSettings(() => this.target(), this.session, this.transcript);
    this.attachments = new PromptAttachments(
      agent.name,
      () => {
        const initialize = this.lifecycle.running?.initialize;
        return initialize ? promptCaps(initialize.agentCapabilities?.promptCapabilities) : undefined;
      },
      (views, notice) => this.session.setAttachments(views, notice),
    );
    // An attachment added before the agent ran is checked once its promptCapabilities are known.
    this.onStatus(() => this.attachments.recheck());
  }

  get currentStatus(): SessionStatus {
    return this.status;
  }
  get currentSessionId(): string | undefined {
    return this.lifecycle.sessionId;
  }
  /** The agent's id of this conversation, open or not (what history and a window reload bring back). */
  get agentSessionId(): string | undefined {
    return this.lifecycle.savedSessionId;
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
    return this.lifecycle.running?.initialize;
  }

  start(): Promise<void> {
    return this.lifecycle.start();
  }

  /**
   * Restarts the agent's process (its other sessions hear of it and come back when next used),
   * then brings this session back; a crashed agent is simply started again. A restart also
   * sends what was queued while the agent was down.
   */
  async restart(): Promise<void> {
    this.signIn.settled();
    if (this.lifecycle.running) await this.lifecycle.restartProcess();
    await this.lifecycle.start();
    void this.turns.drain();
  }

  stop(): Promise<void> {
    return this.lifecycle.stop();
  }

  /**
   * Closes the session for good: queued prompts are dropped, a turn in progress is stopped (the
   * process may live on for other sessions), what the user still waited for (a setting, a
   * sign-in) is cancelled, then `session/close` when the agent advertises it.
   */
  async close(): Promise<void> {
    this.turns.clear();
    await this.cancel();
    this.settings.abandon();
    this.signIn.cancel();
    await this.lifecycle.close();
  }

  /** Queues a prompt with the composer's attachments; resolves when its turn has ended, or it was dropped. */
  prompt(text: string): Promise<void> {
    // Say so before sending: a prompt is not sent with context the agent cannot take.
    const attachments = this.attachments.take();
    if (!attachments) return Promise.resolve();
    this.firstPrompt ??= text.replace(/\s+/g, ' ').trim();
    return this.turns.push(text, attachments);
  }

  /** Drops a prompt that has not been sent yet. */
  unqueue(id: number): void {
    this.turns.remove(id);
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
  /** Attachments that left the composer: sent with a prompt, or removed. */
  get onAttachmentsReleased() {
    return this.attachments.onDidRelease;
  }

  /** The composer's attachments follow the user to another agent (and are checked against it). */
  adoptAttachments(from: AgentSession): void {
    this.attachments.adopt(from.attachments);
  }

  /** Signs in with a method the agent listed, then carries on with what waited (see SignIn). */
  async authenticate(methodId: string): Promise<void> {
    await this.signIn.authenticate(methodId);
    void this.turns.drain();
  }

  /** The user gave up on the sign-in in progress: the agent is told, and the choices are shown again. */
  cancelSignIn(): void {
    this.signIn.cancel();
  }

  /** ACP: Sign Out: `logout`, when the agent offers it (signOut.ts); resolves with what the user is told. */
  signOut(): Promise<string> {
    this.signIn.settled();
    return signOut(this.parts(), this.ports);
  }

  /** `session/set_mode`, shown at once and taken back if the agent refuses. */
  setMode(modeId: string): Promise<void> {
    return this.settings.setMode(modeId);
  }

  /** `session/set_config_option`; a pick for the same option before the answer cancels the earlier one. */
  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return this.settings.setConfigOption(configId, value);
  }

  /**
   * Stop: in a turn (ours, or one the agent carries on after a load), `session/cancel`; in any
   * case everything still waiting on the user is answered `cancelled` (ACP §14.4), also a
   * question the agent asked between turns.
   */
  async cancel(): Promise<void> {
    const target = this.target();
    if (target && this.status.phase === 'prompting') {
      await target.connection.notify(agentMethods.sessionCancel, { sessionId: target.sessionId });
      this.carried.cancel();
      this.transcript.stopTurn();
    }
    this.transcript.questions.cancelWaiting();
  }

  /** The user's answer to an elicitation form; an `accept` that does not fit the form keeps it open, with the reason shown. */
  answerElicitation(requestKey: string, action: ElicitationAction, content?: unknown): boolean {
    return this.elicitations.answer(requestKey, action, content);
  }

  /**
   * The user's choice on a permission card; a choice the agent did not offer is refused (logged,
   * nothing sent). No choice (`undefined`): the card was dismissed, and the agent is answered `cancelled`.
   */
  choosePermission(toolCallId: string, optionId: string | undefined): void {
    if (optionId === undefined) this.transcript.questions.cancel({ permission: toolCallId });
    else if (!this.transcript.questions.answerPermission(toolCallId, optionId)) {
      this.ports.log.warn(`Ignored a permission answer for ${toolCallId}: nothing asked there offers ${JSON.stringify(optionId)}`);
    }
  }

  private target(): { connection: AcpConnection; sessionId: string } | undefined {
    const { running, sessionId } = this.lifecycle;
    return running && sessionId ? { connection: running.connection, sessionId } : undefined;
  }

  /** What this session serves the agent, routed to it by the runtime. */
  private makeEndpoint(): SessionEndpoint {
    const { writeTextFile, terminals } = this.ports;
    return {
      onUpdate: (update) => this.carried.updated(foldUpdate(update, { transcript: this.transcript, session: this.session, log: this.ports.log })),
      // Each passes ACP Host's policy first (session/policyGate.ts); a question put to the user is
      // audited, and withdrawn when the agent cancels its request (the signal).
      onPermission: (request, signal) => this.gate.permission(request, () => askAudited({ agent: this.agentName, transcript: this.transcript, record: this.ports.audit?.bind(this.ports) }, request, signal)),
      onElicitation: (request, signal) => this.elicitations.create(request, signal),
      onElicitationComplete: (elicitationId) => this.elicitations.complete(elicitationId),
      readTextFile: (request, signal) => this.gate.readTextFile(request, (r, target) => this.ports.readTextFile(r, target), signal),
      writeTextFile: writeTextFile && ((request, signal) => this.gate.writeTextFile(request, writeTextFile, signal)),
      terminals: this.gate.terminals(terminals),
      onAgentExit: (detail) => this.lifecycle.agentExited(detail),
      onAgentStop: () => this.lifecycle.agentStopped(),
    };
  }

  /** What the session's parts (lifecycle, sign-in, a turn) see of it: one view, read live. */
  private parts(): LifecycleSession & SignInSession & TurnSession {
    const self = this;
    return {
      get agent() {
        return self.agent;
      },
      get agentName() {
        return self.agentName;
      },
      get signIn() {
        return self.signIn;
      },
      get lifecycle() {
        return self.lifecycle;
      },
      get running() {
        return self.lifecycle.running;
      },
      get sessionId() {
        return self.lifecycle.sessionId;
      },
      get phase() {
        return self.status.phase;
      },
      get carryingOn() {
        return self.carried.holding;
      },
      runtime: this.runtime,
      transcript: this.transcript,
      session: this.session,
      endpoint: this.endpoint,
      ports: this.ports,
      roots: this.origin.roots,
      setStatus: (patch) => this.setStatus(patch),
      restartProcess: () => this.lifecycle.restartProcess(),
      start: () => this.lifecycle.start(),
      reopen: (running) => this.lifecycle.reopen(running),
      loaded: () => this.carried.loaded(),
      gone: () => this.carried.gone(),
      prompting: () => this.carried.prompting(),
    };
  }

  private setStatus(patch: Partial<SessionStatus>): void {
    this.status = { ...this.status, ...patch };
    this.statusChanged.fire(this.status);
  }
}
