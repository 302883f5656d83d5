import type { ConnectionLog, TraceDirection } from '../agent/connection';
import type { NewAuditEvent } from '../audit/auditEvent';
import type { LaunchSpec } from '../agent/process';
import type {
  ClientCapabilities,
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  McpServer,
  ReadTextFileRequest,
  ReleaseTerminalRequest,
  TerminalExitStatus,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WriteTextFileRequest,
} from '../protocol';
import type { EmbedReader } from '../session/attachments';
import type { PolicyLayers } from '../policy/policy';
import type { Rule, SourcedRule } from '../policy/rules';
import type { AgentOrigin, SecretOwner } from './agentIdentity';
import type { McpReceiver } from './mcpServers';
import type { ResolvedPath } from './resolvedPath';
import type { SecretScrubber } from './secrets';

// What the agent layer (runtime and sessions) needs from VS Code, as plain functions and data,
// so that neither imports `vscode` and both run in unit tests with fakes.

/**
 * The five `terminal/*` methods; `terminal: true` is advertised only when a port serves them all.
 * `create`'s signal is aborted when the agent cancels it before it ran (a question of the policy's
 * still open, say): nothing is started then.
 */
export interface TerminalPort {
  create(request: CreateTerminalRequest, signal?: AbortSignal): Promise<CreateTerminalResponse>;
  output(request: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForExit(request: WaitForTerminalExitRequest): Promise<TerminalExitStatus>;
  kill(request: KillTerminalRequest): Promise<void>;
  release(request: ReleaseTerminalRequest): Promise<void>;
  /** Kills every terminal still running: the session or the agent ended (ACP §14.11). */
  dispose?(): void;
}

/**
 * `port` with another `create` (one that checks or records first); every other method goes to
 * `port`, one by one: a spread would leave a class's methods behind.
 */
export function withCreate(port: TerminalPort, create: TerminalPort['create']): TerminalPort {
  return {
    create,
    output: (request) => port.output(request),
    waitForExit: (request) => port.waitForExit(request),
    kill: (request) => port.kill(request),
    release: (request) => port.release(request),
    dispose: port.dispose && (() => port.dispose!()),
  };
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
  /** Reads `target`: the request's path, confined and resolved once by the policy gate (what the policy judged). */
  readTextFile(request: ReadTextFileRequest, target: ResolvedPath): Promise<string>;
  /** Writes `target`, as read does. `signal`: the agent cancelled the write; what has not been applied yet is not. */
  writeTextFile?(request: WriteTextFileRequest, target: ResolvedPath, signal?: AbortSignal): Promise<void>;
  terminals?: TerminalPort;
  log: ConnectionLog;
  onTrace(agentName: string, direction: TraceDirection, message: unknown): void;
  /** The workspace's audit log (src/audit): what agents asked and how it was answered. Without it nothing is recorded. */
  audit?(event: NewAuditEvent): void;
  /** The agent's scrubber, shared with the host's sinks (log, trace); without it the runtime keeps one of its own. */
  secrets?(agentName: string): SecretScrubber;
  /**
   * `env_var` auth (a client-side extension): asks the user for the value of `varName` (a
   * password box) and stores it; `undefined` when the user cancelled. Without it (and
   * `storedSecrets`) such methods are not offered.
   */
  askSecret?(agent: SecretOwner, varName: string, prompt: string): Promise<string | undefined>;
  /** The values stored by askSecret for this agent (its name and identity), laid over its env on every start ("ask once"). */
  storedSecrets?(agent: SecretOwner): Promise<Record<string, string>>;
  /** `terminal` auth: runs the login command in a real terminal; `auth.terminal` is advertised only with it. */
  runLoginTerminal?(spec: LoginTerminalSpec): Promise<LoginTerminalResult>;
  /**
   * Asks the user, naming the exact command line, whether to run a sign-in command the agent
   * chose (the older `_meta["terminal-auth"]` form) that is not the agent's own command; true =
   * run it. Without it such a command is never run.
   */
  confirmLoginCommand?(agentName: string, commandLine: string, agentCommand: string): Promise<boolean>;
  /** Drops what askSecret stored for this agent (its name and identity): signing out. Resolves with how many values were dropped. */
  forgetSecrets?(agent: SecretOwner): Promise<number>;
  /** The MCP servers to pass in session/new (acpHost.mcpServers) to `agent`, read for each new session. */
  mcpServers?(agent: McpReceiver): Promise<McpServer[]>;
  /** The text of an attached file for an embedded `resource` (open buffer first); without it files are sent as links. */
  readForEmbed?: EmbedReader;
  /** Begins a checkpoint of the workspace's files (a prompt is about to go out): its id, or undefined without checkpoints. */
  checkpoint?: () => number | undefined;
  /**
   * The panel shows `elicitation/create` requests (answered through `answerElicitation`): forms,
   * and URL cards whose Open the host serves; both modes are advertised only with it.
   */
  forms?: boolean;
  /** ACP Host's policy over what agents ask (session/policyGate.ts); without it every request is served as asked (paths still confined). */
  policy?: PolicyPort;
}

/** What the policy needs from the host: settings, remembered choices, the state of the editors. */
export interface PolicyPort {
  /** What `agentName`'s requests are decided by now: the same object until a setting or a remembered choice changes. */
  layers(agentName: string): Omit<PolicyLayers, 'remembered'> & { workspace: readonly SourcedRule[] };
  /** "Always in this workspace": kept with the workspace, listed and revocable. */
  rememberForWorkspace(rule: Rule): void;
  /** Why this write to `target` needs a yes even where the policy allows it (the user's unsaved edit changed since the agent read it). */
  writeConcern?(target: ResolvedPath): Promise<string | undefined>;
}

export interface AgentDefinition extends SecretOwner {
  /** Its launch identity (agentIdentity.ts): its stored secrets are bound to it and to its name. */
  identity: string;
  /** Where its definition comes from: decides which MCP servers it gets (mcpServers.ts `receives`); absent, only those bound to it or to all. */
  origin?: AgentOrigin;
  launch: () => Promise<LaunchSpec>;
  /** Argument lists tried in turn when `launch()`'s args start a program that exits during initialize (presets.ts). */
  fallbackArgs?: string[][];
  /** Said after "command not found": how to install it, or where it is configured. */
  notFoundHint?: string;
  /** The env set for it in the settings (API keys, typically): its values are masked wherever they would show. */
  configuredEnv?: Readonly<Record<string, string>>;
}

export interface ControllerSettings {
  initializeTimeoutMs: number;
  maxLineBytes: number;
  /** The workspace's first folder: a new session's cwd. */
  workspaceFolder: string;
  /** The workspace's other folders (a multi-root workspace): a new session's `additionalDirectories`, when the agent takes them. */
  additionalDirectories?: readonly string[];
  clientVersion: string;
}

/** Exactly what these ports serve; an agent must not be promised more (ACP §14.3). */
export function clientCapabilities(ports: AgentPorts): ClientCapabilities {
  return {
    fs: { readTextFile: true, writeTextFile: ports.writeTextFile !== undefined },
    terminal: ports.terminals !== undefined,
    ...(ports.runLoginTerminal ? { auth: { terminal: true } } : {}),
    // Each mode by name (`{}` alone would advertise no mode, ACP §5).
    ...(ports.forms ? { elicitation: { form: {}, url: {} } } : {}),
    // The panel renders boolean config options as checkboxes, notices, and compactions with their summaries.
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
    // Unstable: the panel renders id-addressed plans (`plan_update`, `plan_removed`).
    plan: {},
    // The older terminal sign-in (auth.ts `legacyTerminalAuth`): agents from before the `terminal`
    // type offer a runnable login only to clients that say they take this form.
    ...(ports.runLoginTerminal ? { _meta: { 'terminal-auth': true } } : {}),
  };
}
