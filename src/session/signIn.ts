import type { RunningAgent } from '../agent/launch';
import { RequestAbortedError } from '../agent/connectionErrors';
import { ErrorCodes } from '../protocol/errors';
import { acpSchemas } from '../protocol/lazySchemas';
import type { AuthMethod } from '../protocol';
import { loginCommand } from '../runtime/loginCommand';
import type { AgentDefinition, AgentPorts } from '../runtime/ports';
import { commandLine } from '../runtime/presets';
import type { AgentRuntime, SessionEndpoint } from '../runtime/agentRuntime';
import type { Transcript } from './transcript';
import type { AuthMethodInfo, SessionStatus } from './model';

/** The agent's "authentication required" answer (ACP §6): run an auth method, then retry. */
export function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ErrorCodes.AuthRequired;
}

/** Why a sign-in did not happen: `cancelled` when the user said no to a question it asked. */
interface Failure {
  message: string;
  cancelled?: true;
}

/** What signing in needs of the session it belongs to. */
export interface SignInSession {
  readonly agent: AgentDefinition;
  readonly runtime: AgentRuntime;
  /** Shows what the agent asks while it signs the user in (a form, a URL to open). */
  readonly endpoint: SessionEndpoint;
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

  /**
   * The methods this agent listed that this client can run (env_var and terminal need their
   * ports; without a login terminal, a method with a `_meta` login command is an agent method, as
   * it is to any client that does not read that form).
   */
  methods(running: RunningAgent): AuthMethod[] {
    return (running.initialize.authMethods ?? []).filter((m) => {
      if (m.type === 'env_var') return this.ports.askSecret !== undefined && this.ports.storedSecrets !== undefined;
      if (m.type === 'terminal') return this.ports.runLoginTerminal !== undefined;
      return true;
    });
  }

  /** How a method signs in, as the panel shows it: with a login terminal, the older `_meta["terminal-auth"]` form is a terminal sign-in. */
  private kind(method: AuthMethod): AuthMethodInfo['type'] {
    if (this.ports.runLoginTerminal && acpSchemas().legacyTerminalAuth(method)) return 'terminal';
    return method.type ?? 'agent';
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
    const authMethods = this.methods(running).map((m) => ({ id: m.id, name: m.name, description: m.description ?? null, type: this.kind(m) }));
    this.session.setStatus({ phase: 'auth', detail, authMethods });
  }

  /**
   * Signs in with one of the listed methods, then retries what asked for it: `agent` →
   * `authenticate`, then session/new (or the waiting prompt) again; `env_var` → asks for the
   * value once, stores it and restarts the agent with it; `terminal` (and the older `_meta`
   * form) → runs the login command in a terminal and, on exit code 0, restarts the agent; it is
   * never passed to `authenticate` (ACP §6). Each sign-in is recorded in the audit log.
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
      let failure: Failure | undefined;
      try {
        failure = await this.run(running, method);
      } catch (error) {
        failure = { message: `Signing in with "${method.name}" failed: ${(error as Error).message}` };
      }
      this.record(method, failure);
      if (this.session.running !== running) return; // it crashed or was stopped meanwhile: its status says so
      if (failure !== undefined) return this.ask(running, failure.message);
      this.attempt = attempt;
      if (method.type === 'env_var' || this.kind(method) === 'terminal') {
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

  /** The audit log's event of a sign-in: the method, and how it went. */
  private record(method: AuthMethod, failure: Failure | undefined): void {
    const decision = failure === undefined ? 'allowed' : failure.cancelled ? 'cancelled' : 'failed';
    const detail = `${this.kind(method)} method ${method.id}${failure ? `: ${failure.message}` : ''}`;
    this.ports.audit?.({ agent: this.session.agent.name, sessionId: this.session.sessionId, kind: 'sign-in', target: method.name, decision, by: 'user', detail });
  }

  /** Runs one method; returns why it failed, or undefined when it succeeded. */
  private async run(running: RunningAgent, method: AuthMethod): Promise<Failure | undefined> {
    const name = this.session.agent.name;
    if (this.kind(method) === 'terminal') return this.runTerminal(running, method);
    switch (method.type) {
      case 'env_var': {
        for (const v of method.vars) {
          const prompt = `${name}: ${v.label ?? method.name} (${v.name})${method.description ? ` — ${method.description}` : ''}`;
          const value = await this.ports.askSecret!(this.session.agent, v.name, prompt);
          if (value === undefined || value === '') {
            if (v.optional) continue;
            return { message: `Signing in with "${method.name}" was cancelled: no value for ${v.name}.`, cancelled: true };
          }
          this.ports.log.info(`Stored ${v.name} for ${name} in SecretStorage`);
        }
        return undefined;
      }
      default:
        return this.runAgent(running, method);
    }
  }

  /** `authenticate`: the agent signs the user in; the panel shows it in progress, with its Cancel. */
  private async runAgent(running: RunningAgent, method: AuthMethod): Promise<Failure | undefined> {
    this.ports.log.info(`Signing in to ${this.session.agent.name} with "${method.name}" (authenticate ${method.id})`);
    const mine = (this.authenticating = new AbortController());
    this.session.setStatus({ signingIn: method.name });
    try {
      await this.session.runtime.authenticate(running, this.session.endpoint, method.id, mine.signal);
      return undefined;
    } catch (error) {
      if (error instanceof RequestAbortedError) return { message: `Signing in with "${method.name}" was cancelled.`, cancelled: true };
      throw error;
    } finally {
      this.authenticating = undefined;
      this.session.setStatus({ signingIn: undefined });
    }
  }

  /**
   * A terminal sign-in: the login command (runtime/loginCommand.ts: the agent's own command line
   * with the method's args and env, or the older form's command, which may need the user's yes)
   * in an interactive terminal; exit code 0 is success.
   */
  private async runTerminal(running: RunningAgent, method: AuthMethod): Promise<Failure | undefined> {
    const { agent, runtime } = this.session;
    const login = loginCommand(method, running.process.spec);
    if (!login) return { message: `Signing in with "${method.name}" failed: it names no login command.` };
    const line = commandLine(login.command, login.args);
    if (login.needsConsent && !(await this.ports.confirmLoginCommand?.(agent.name, line, running.process.spec.command))) {
      const message = `Signing in with "${method.name}" was not run: ${agent.name} asked to run ${line}, which is not its own command, and it was not confirmed.`;
      return { message, cancelled: true };
    }
    for (const value of Object.values(login.methodEnv)) runtime.addSecret(value);
    const names = Object.keys(login.methodEnv);
    this.ports.log.info(`Signing in to ${agent.name}: running ${line} in a terminal${names.length ? ` (with ${names.join(', ')} set)` : ''}`);
    const result = await this.ports.runLoginTerminal!({ agentName: agent.name, methodName: method.name, command: login.command, args: login.args, env: login.env, cwd: login.cwd });
    if (result.exitCode === 0) return undefined;
    const how = result.exitCode === undefined ? 'was closed or killed before it finished' : `exited with code ${result.exitCode}`;
    return { message: `Signing in with "${method.name}" failed: the login command ${how}.` };
  }
}
