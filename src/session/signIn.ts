import type { RunningAgent } from '../agent/launch';
import { RequestAbortedError } from '../agent/connectionErrors';
import { agentMethods } from '../protocol/methods';
import { ErrorCodes } from '../protocol/errors';
import type { AuthMethod } from '../protocol';
import type { AgentDefinition, AgentPorts } from '../runtime/ports';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { Transcript } from './transcript';
import type { AuthMethodInfo, SessionStatus } from './model';

/** The agent's "authentication required" answer (ACP §6): run an auth method, then retry. */
export function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ErrorCodes.AuthRequired;
}

function authKind(method: AuthMethod): AuthMethodInfo['type'] {
  return method.type ?? 'agent';
}

/** What signing in needs of the session it belongs to. */
export interface SignInSession {
  readonly agent: AgentDefinition;
  readonly runtime: AgentRuntime;
  readonly transcript: Transcript;
  /** The process the session is open (or opening) on. */
  readonly running: RunningAgent | undefined;
  readonly sessionId: string | undefined;
  readonly phase: SessionStatus['phase'];
  setStatus(patch: Partial<SessionStatus>): void;
  /** A new process, so that new credentials are read. */
  restartProcess(): Promise<void>;
  start(): Promise<void>;
  /** session/new (or load/resume) again on the same process, after `authenticate`. */
  reopen(running: RunningAgent): Promise<void>;
}

/**
 * Sign-in (ACP §6): when the agent answers -32000 and lists methods, the session waits in the
 * `auth` phase with one button per method this client can run; the chosen one runs, then what
 * asked is retried. Right after a sign-in, another -32000 for the same request is reported as a
 * failed sign-in instead of another round (no loop).
 */
export class SignIn {
  /** The sign-in just done ("signing in with X"), until the request it was for succeeds. */
  private attempt: string | undefined;
  private busy = false;
  /** The `authenticate` waiting for the agent, which `cancel` abandons. */
  private authenticating: AbortController | undefined;

  constructor(
    private readonly session: SignInSession,
    private readonly ports: AgentPorts,
  ) {}

  /** Waiting for the user to pick a method, or signing in: a prompt or a start waits too. */
  get pending(): boolean {
    return this.session.phase === 'auth' || this.busy;
  }

  /**
   * The user gave up on the sign-in in progress (the panel's Cancel, or closing the session): an
   * `authenticate` still waiting is cancelled (`$/cancel_request`) and the choices come back.
   * The other methods end through their own UI (the key's input box, the login terminal).
   */
  cancel(): void {
    this.authenticating?.abort();
  }

  /** What asked for the sign-in went through (or the user starts over): the next -32000 opens a new round. */
  settled(): void {
    this.attempt = undefined;
  }

  /** The methods this agent listed that this client can run (env_var and terminal need their ports). */
  methods(running: RunningAgent): AuthMethod[] {
    return (running.initialize.authMethods ?? []).filter((m) => {
      const kind = authKind(m);
      if (kind === 'env_var') return this.ports.askSecret !== undefined && this.ports.storedSecrets !== undefined;
      if (kind === 'terminal') return this.ports.runLoginTerminal !== undefined;
      return true;
    });
  }

  /** -32000 on `running`: true when the sign-in choices are shown (the agent listed methods we can run). */
  required(running: RunningAgent, error: unknown): boolean {
    if (!isAuthRequired(error) || this.methods(running).length === 0) return false;
    this.ask(running);
    return true;
  }

  /** Shows the sign-in choices; right after a sign-in, the same answer is an error, not another round. */
  private ask(running: RunningAgent, failure?: string): void {
    const { agent, transcript } = this.session;
    const attempt = this.attempt;
    this.attempt = undefined;
    const detail = failure ?? (attempt ? `${agent.name} still asks to sign in after ${attempt}.` : undefined);
    if (detail) {
      this.ports.log.warn(detail);
      transcript.addError(detail);
    } else {
      this.ports.log.info(`${agent.name} asks to sign in (-32000)`);
    }
    const authMethods = this.methods(running).map((m) => ({ id: m.id, name: m.name, description: m.description ?? null, type: authKind(m) }));
    this.session.setStatus({ phase: 'auth', detail, authMethods });
  }

  /**
   * Signs in with one of the listed methods, then retries what asked for it: `agent` →
   * `authenticate`, then session/new (or the waiting prompt) again; `env_var` → asks for the
   * value once, stores it and restarts the agent with it; `terminal` → runs the agent's login
   * command in a terminal and, on exit code 0, restarts the agent.
   */
  async authenticate(methodId: string): Promise<void> {
    const { running, agent } = this.session;
    if (!running || this.session.phase !== 'auth' || this.busy) return;
    const method = this.methods(running).find((m) => m.id === methodId);
    if (!method) {
      this.ports.log.warn(`authenticate: ${agent.name} listed no usable sign-in method ${JSON.stringify(methodId)}`);
      return;
    }
    const attempt = `signing in with "${method.name}"`;
    this.busy = true;
    this.session.setStatus({ phase: 'starting', detail: undefined });
    try {
      let failure: string | undefined;
      try {
        failure = await this.run(running, method);
      } catch (error) {
        failure = `Signing in with "${method.name}" failed: ${(error as Error).message}`;
      }
      if (this.session.running !== running) return; // it crashed or was stopped meanwhile: its status says so
      if (failure !== undefined) return this.ask(running, failure);
      this.attempt = attempt;
      if (method.type === 'env_var' || method.type === 'terminal') {
        // A fresh process picks up the new credentials; initialize and session/new run again.
        await this.session.restartProcess();
        this.attempt = attempt;
        await this.session.start();
      } else if (this.session.sessionId) {
        // The session exists: it was a prompt that asked; it is retried from the queue.
        this.session.setStatus({ phase: 'ready', detail: undefined, authMethods: undefined });
      } else {
        await this.session.reopen(running);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Runs one method; returns why it failed, or undefined when it succeeded. */
  private async run(running: RunningAgent, method: AuthMethod): Promise<string | undefined> {
    const { agent, runtime } = this.session;
    const name = agent.name;
    switch (method.type) {
      case 'env_var': {
        for (const v of method.vars) {
          const prompt = `${name}: ${v.label ?? method.name} (${v.name})${method.description ? ` — ${method.description}` : ''}`;
          const value = await this.ports.askSecret!(agent, v.name, prompt);
          if (value === undefined || value === '') {
            if (v.optional) continue;
            return `Signing in with "${method.name}" was cancelled: no value for ${v.name}.`;
          }
          this.ports.log.info(`Stored ${v.name} for ${name} in SecretStorage`);
        }
        return undefined;
      }
      case 'terminal': {
        const spec = await agent.launch();
        const args = [...spec.args, ...(method.args ?? [])];
        for (const value of Object.values(method.env ?? {})) runtime.addSecret(value);
        const names = Object.keys(method.env ?? {});
        this.ports.log.info(`Signing in to ${name}: running ${spec.command} ${args.join(' ')} in a terminal${names.length ? ` (with ${names.join(', ')} set)` : ''}`);
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
      default: {
        this.ports.log.info(`Signing in to ${name} with "${method.name}" (authenticate ${method.id})`);
        const mine = (this.authenticating = new AbortController());
        // The panel shows the sign-in in progress, with its Cancel.
        this.session.setStatus({ signingIn: method.name });
        try {
          await running.connection.request(agentMethods.authenticate, { methodId: method.id }, mine.signal);
          return undefined;
        } catch (error) {
          if (error instanceof RequestAbortedError) return `Signing in with "${method.name}" was cancelled.`;
          throw error;
        } finally {
          this.authenticating = undefined;
          this.session.setStatus({ signingIn: undefined });
        }
      }
    }
  }
}
