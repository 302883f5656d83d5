import type { RunningAgent } from '../agent/launch';
import type { LoadSessionResponse } from '../protocol';
import type { AgentDefinition, AgentPorts } from '../runtime/ports';
import { sessionFeatures } from '../runtime/agentRuntime';
import type { AgentRuntime, SessionEndpoint } from '../runtime/agentRuntime';
import { startFailureDetail } from '../runtime/presets';
import type { OpenedSession } from '../runtime/sessionRequests';
import type { SessionRoots } from '../runtime/sessionRoots';
import type { SessionState } from './sessionState';
import { isAuthRequired } from './signIn';
import type { SignIn } from './signIn';
import type { Transcript } from './transcript';
import type { SessionStatus } from './model';

/** How an earlier session is brought back: see `AgentRuntime.reopen`. */
type ReopenHow = Parameters<AgentRuntime['reopen']>[3];

/** What the lifecycle needs of its session beside the runtime. */
export interface LifecycleSession {
  readonly transcript: Transcript;
  readonly session: SessionState;
  readonly signIn: SignIn;
  readonly endpoint: SessionEndpoint;
  readonly ports: AgentPorts;
  /** Sent with every opening (new, load, resume, fork). */
  readonly roots: SessionRoots;
  readonly phase: SessionStatus['phase'];
  setStatus(patch: Partial<SessionStatus>): void;
  /** session/load answered: the agent may carry on with a turn that was running (carriedTurn.ts). */
  loaded(): void;
  /** The process is gone (stopped, crashed): a turn it carried on ends with it. */
  gone(): void;
}

/**
 * One ACP session's life on its agent's process: start (the process, then session/new, or
 * session/load or session/resume of an earlier conversation), close, stop, the process crashing
 * or being restarted under it. A stop aborts whatever start is in flight (its AbortSignal), so a
 * start that a stop overtook opens nothing.
 */
export class SessionLifecycle {
  /** The process this session is open (or signing in) on. */
  running: RunningAgent | undefined;
  /** The agent's id of this session while it is open. */
  sessionId: string | undefined;
  /** The agent's id of this conversation, kept over crashes and restarts, to bring it back. */
  savedSessionId: string | undefined;
  /**
   * The session was re-attached without a request (the agent offers neither load nor resume) and
   * no prompt went through since: the agent may no longer know it (see `openInstead`).
   */
  reattached = false;
  private starting: Promise<void> | undefined;
  /** Aborted by every stop: a start in flight then gives up. */
  private stopped = new AbortController();

  constructor(
    readonly runtime: AgentRuntime,
    /** A session made without a shared runtime owns its process: stopping the session stops it. */
    private readonly ownsRuntime: boolean,
    private readonly s: LifecycleSession,
    savedSessionId: string | undefined,
    /** The session to fork (UNSTABLE session/fork) instead of session/new, until this one first opens. */
    private forkFrom?: string,
  ) {
    this.savedSessionId = savedSessionId;
  }

  private get agent(): AgentDefinition {
    return this.runtime.agent;
  }

  /** Starts the agent and opens the session; concurrent callers share one start. */
  start(): Promise<void> {
    if (this.running && this.sessionId) return Promise.resolve();
    // Waiting for the user to pick a sign-in method (or signing in): starting again would only ask again.
    if (this.running && this.s.signIn.pending) return Promise.resolve();
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Ends this session's use of the agent (its own process, if it has one, stops too); it can be started again. */
  async stop(): Promise<void> {
    this.s.signIn.settled();
    this.abortStarts();
    if (this.ownsRuntime) return this.runtime.stop();
    if (this.sessionId) this.runtime.detach(this.sessionId, this.s.endpoint);
    this.agentStopped();
    // A process that no session uses is not kept running.
    if (!this.runtime.inUse) await this.runtime.stop();
  }

  /** Closes the session for good: `session/close` when the agent advertises it. */
  async close(): Promise<void> {
    if (this.sessionId) await this.runtime.close(this.sessionId, this.s.endpoint);
    await this.stop();
  }

  /** A new process for the agent (its sessions are told); a sign-in in progress survives. */
  async restartProcess(): Promise<void> {
    this.abortStarts();
    await this.runtime.stop();
    this.agentStopped();
  }

  /** The process is gone on purpose: this session can be reopened. */
  agentStopped(): void {
    const wasOpen = this.running !== undefined;
    this.forget();
    if (wasOpen || this.s.phase !== 'crashed') this.s.setStatus({ phase: 'idle', detail: undefined, authMethods: undefined });
  }

  /** The process crashed: the transcript and the header say how, and Restart brings the session back. */
  agentExited(detail: string): void {
    this.forget();
    this.s.transcript.addError(detail);
    this.s.setStatus({ phase: 'crashed', detail, authMethods: undefined });
  }

  /** Opens the session on `running` once more (after `authenticate`); a failure is the start's failure. */
  async reopen(running: RunningAgent): Promise<void> {
    await this.openOrSignIn(running).catch((error: Error) => this.failStart(`${this.agent.name} could not open a session: ${error.message}`));
  }

  failStart(detail: string): void {
    this.s.ports.log.error(detail);
    this.s.transcript.addError(detail);
    this.s.setStatus({ phase: 'crashed', detail, authMethods: undefined });
  }

  private abortStarts(): void {
    this.stopped.abort();
    this.stopped = new AbortController();
  }

  /**
   * The agent answered that it does not know the re-attached session: a new session takes its
   * place on `running` (its id is the one kept from now on). Resolves with the new id.
   */
  async openInstead(running: RunningAgent): Promise<string> {
    if (this.sessionId) this.runtime.detach(this.sessionId, this.s.endpoint);
    // Until the new one answers, there is no session to bring back (a sign-in asked for meanwhile opens a new one).
    this.sessionId = this.savedSessionId = undefined;
    this.reattached = false;
    this.s.session.reset();
    const created = await this.runtime.openNew(running, this.s.endpoint, this.s.roots);
    if (this.running === running) {
      this.sessionId = this.savedSessionId = created.sessionId;
      this.s.session.setInitial(created.modes, created.configOptions);
      this.s.session.setCanFork(sessionFeatures(running.initialize.agentCapabilities).has('fork'));
    }
    return created.sessionId;
  }

  /** What waited on the process is answered, and its terminals end with it. */
  private forget(): void {
    this.running = undefined;
    this.sessionId = undefined;
    this.s.gone();
    this.s.transcript.questions.cancelWaiting();
    this.s.transcript.questions.endUrlWaits();
    this.s.ports.terminals?.dispose?.();
  }

  private async doStart(): Promise<void> {
    this.s.setStatus({ phase: 'starting', detail: undefined, authMethods: undefined });
    const stopped = this.stopped.signal;
    const release = this.runtime.claim(this.s.endpoint);
    try {
      let running: RunningAgent;
      try {
        running = await this.runtime.start();
      } catch (error) {
        // Already in words, with the exit code and stderr.
        if (!stopped.aborted) this.failStart((error as Error).message);
        return;
      }
      if (stopped.aborted) return; // stopped or closed meanwhile
      this.running = running;
      try {
        await this.openOrSignIn(running);
      } catch (error) {
        if (this.running !== running) return; // the crash report says why
        this.failStart(this.runtime.scrub(startFailureDetail(this.agent.name, error, this.agent.notFoundHint)));
      }
    } finally {
      release();
      // Stopped or closed while starting: a process started for nobody does not stay.
      if (stopped.aborted && !this.ownsRuntime && !this.runtime.inUse) await this.runtime.stop();
    }
  }

  /** Opens the session; "authentication required" with sign-in methods listed leads to the auth phase instead of an error. */
  private async openOrSignIn(running: RunningAgent): Promise<void> {
    try {
      await this.open(running);
    } catch (error) {
      if (!this.s.signIn.required(running, error)) throw error;
      this.sessionId = undefined; // a new session is what waits for the sign-in
    }
  }

  /**
   * Opens the session on `running`: brings back the earlier conversation when there is one, else
   * session/fork of the original (a fork opening for the first time) or session/new. Updates that
   * arrive before the answer are kept.
   */
  private async open(running: RunningAgent): Promise<void> {
    this.reattached = false;
    const saved = this.savedSessionId;
    const reopened = saved ? await this.bringBack(running, saved) : undefined;
    let result: Pick<OpenedSession, 'modes' | 'configOptions'> | undefined = reopened?.result;
    let sessionId = saved;
    if (!reopened) {
      this.s.session.reset();
      const { endpoint, roots } = this.s;
      const created = this.forkFrom ? await this.runtime.fork(running, endpoint, this.forkFrom, roots) : await this.runtime.openNew(running, endpoint, roots);
      result = created;
      sessionId = created.sessionId;
    }
    if (this.running !== running) return; // it crashed or was stopped meanwhile: its status says so
    this.sessionId = sessionId;
    this.savedSessionId = sessionId;
    this.reattached = reopened?.how === 'attach';
    this.forkFrom = undefined;
    this.s.signIn.settled();
    this.s.session.setInitial(result?.modes, result?.configOptions);
    this.s.session.setCanFork(sessionFeatures(running.initialize.agentCapabilities).has('fork'));
    this.s.setStatus({ phase: 'ready', detail: undefined, authMethods: undefined });
    if (reopened?.how === 'load') this.s.loaded();
  }

  /**
   * session/resume keeps what the transcript shows; session/load replays the conversation, so
   * it is used when the transcript is empty (history, a window reload) or resume is not offered.
   * An agent that offers neither may still keep its sessions across processes (the Terret ACP
   * server: "re-attaching is a session/prompt against the same session id"): the session is
   * re-attached without a request, and its next prompt goes to the saved id (turn.ts opens a new
   * session if the agent no longer knows it). Returns undefined when the conversation cannot come
   * back: the user is told, and a new session opens.
   */
  private async bringBack(running: RunningAgent, sessionId: string): Promise<{ result: LoadSessionResponse; how: ReopenHow } | undefined> {
    const { transcript, session } = this.s;
    const features = sessionFeatures(running.initialize.agentCapabilities);
    const resume = features.has('resume') && (transcript.entries.length > 0 || !features.has('load'));
    const how: ReopenHow = resume ? 'resume' : features.has('load') ? 'load' : 'attach';
    // The agent replays the whole conversation: what the transcript showed would be there twice.
    // It is kept, and shown again if the load fails (the diffs' full texts excepted: see restore).
    const shown = how === 'load' ? [...transcript.entries] : undefined;
    if (shown) {
      transcript.clear();
      session.reset();
    }
    try {
      const result = await this.runtime.reopen(running, this.s.endpoint, sessionId, how, this.s.roots);
      if (shown) transcript.carryCheckpoints(shown);
      return { result, how };
    } catch (error) {
      if (shown) transcript.restore(shown);
      if (isAuthRequired(error)) throw error;
      this.savedSessionId = undefined;
      transcript.addError(`${this.agent.name} could not ${how} the session: ${(error as Error).message}. What follows is a new session.`);
      return undefined;
    }
  }
}
