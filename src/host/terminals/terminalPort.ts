import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import type { ConnectionLog } from '../../agent/connection';
import { withoutHostInternals } from '../../agent/environment';
import type { Env } from '../../agent/environment';
import type { CreateTerminalOptions, TerminalManager, TerminalExit, TerminalSnapshot } from '../../agent/terminals';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReleaseTerminalRequest,
  TerminalExitStatus,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
} from '../../protocol';
import { RpcError } from '../../protocol/errors';
import type { TerminalPort as TerminalPortContract } from '../../runtime/ports';
import { resolveWorkspacePath } from '../editor/workspacePaths';
import { setting } from '../config/settings';

export interface TerminalPortOptions {
  /** The environment commands start from (the agent's: login shell or inherited). */
  baseEnv: () => Env | Promise<Env>;
  /** The session's roots (SessionOrigin.confinement): a `cwd` must lie in one; the first is the session cwd, where a command without `cwd` runs. */
  roots: () => readonly string[];
  /** Throttled card state (a bounded tail of the output); the lead wires it to Transcript.updateTerminal. */
  onUpdate: (terminalId: string, state: TerminalSnapshot) => void;
  /** Where refused paths are reported. */
  log?: Pick<ConnectionLog, 'warn'>;
  /** Options for tests (kill grace time, update rate). */
  manager?: { killGraceMs?: number; updateIntervalMs?: number };
}

/** VS Code terminals of finished commands kept in the panel; older ones are closed. */
const KEEP_FINISHED = 10;
const NAME_MAX = 60;
const MIB = 1024 * 1024;
/** What a VS Code terminal buffers before it is opened (what the agent reads is bounded by its outputByteLimit, at most the setting). */
const PENDING_MAX = MIB;

/**
 * The agent's `terminal/*` requests for one agent: the commands run in TerminalManager (its own
 * process group each), confined to the session's roots, and each also shows as a VS Code terminal
 * ("Agent: <command>") that streams the whole output. That terminal is created but not shown:
 * the card in the panel is where the user sees the command; the terminal list has the full
 * output for anyone who wants it. Closing that terminal kills the command.
 */
export class TerminalPort implements TerminalPortContract {
  private started: TerminalManager | undefined;
  private readonly views = new Map<string, AgentTerminalView>();
  private readonly finished: AgentTerminalView[] = [];

  constructor(private readonly options: TerminalPortOptions) {}

  /**
   * Made at the agent's first `terminal/create`: a port exists for every session from activation
   * on, and TerminalManager loads child_process and the process groups, which most sessions
   * never need (runtime/agentStack.ts).
   */
  private get manager(): TerminalManager {
    return (this.started ??= this.startManager());
  }

  private startManager(): TerminalManager {
    const { TerminalManager } = require('../../agent/terminals') as typeof import('../../agent/terminals');
    const manager = new TerminalManager({
      baseEnv: () => this.environment(),
      defaultCwd: this.options.roots()[0],
      maxOutputByteLimit: () => setting('terminalOutputLimitMegabytes') * MIB,
      maxTerminals: () => setting('maxTerminalsPerSession'),
      excludedDirs: () => [...this.options.roots(), ...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath)],
      ...this.options.manager,
    });
    manager.onUpdate((id, state) => this.options.onUpdate(id, state));
    manager.onData((id, event) => {
      const view = this.views.get(id);
      if (!view) return;
      if ('data' in event) view.write(event.data);
      else {
        view.exited(event.exit);
        this.views.delete(id);
        this.retire(view);
      }
    });
    return manager;
  }

  async create(request: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    const cwd = await this.confinedCwd(request.cwd);
    const spec: CreateTerminalOptions = { command: request.command, args: request.args, env: request.env, cwd, outputByteLimit: request.outputByteLimit };
    const terminalId = await this.manager.create(spec);
    const view = new AgentTerminalView(displayName(request), () => {
      if (this.manager.has(terminalId)) this.manager.kill(terminalId);
    });
    this.views.set(terminalId, view);
    return { terminalId };
  }

  async output(request: TerminalOutputRequest): Promise<TerminalOutputResponse> {
    return this.manager.output(request.terminalId);
  }

  waitForExit(request: WaitForTerminalExitRequest): Promise<TerminalExitStatus> {
    return this.manager.waitForExit(request.terminalId);
  }

  async kill(request: KillTerminalRequest): Promise<void> {
    this.manager.kill(request.terminalId);
  }

  /** The VS Code terminal stays open with the output (ACP: embedded terminals keep showing it). */
  async release(request: ReleaseTerminalRequest): Promise<void> {
    this.manager.release(request.terminalId);
  }

  /** Kills every command (the agent stopped or its session ended); the port serves a restarted agent. */
  dispose(): void {
    this.started?.dispose();
  }

  /** For the integration tests: the process id of a terminal. */
  pid(terminalId: string): number | undefined {
    return this.started?.pid(terminalId);
  }

  /** Commands must not inherit the extension host's internals (ELECTRON_RUN_AS_NODE, its IPC handles…), whatever the base. */
  private async environment(): Promise<Env> {
    return withoutHostInternals(await this.options.baseEnv());
  }

  /** Absent or null: the session cwd. Otherwise an existing directory inside one of the session's roots, or -32602. */
  private async confinedCwd(requested: string | null | undefined): Promise<string> {
    const roots = this.options.roots();
    if (requested === undefined || requested === null || requested === '') return roots[0];
    const resolved = (await resolveWorkspacePath(requested, roots, this.options.log)).fsPath;
    const info = await stat(resolved).catch(() => undefined);
    if (!info?.isDirectory()) throw RpcError.invalidParams(`Refused cwd ${JSON.stringify(requested)}: it is not a directory`);
    return resolved;
  }

  /** Finished terminals stay visible, but only the last few: an agent may run hundreds of commands. */
  private retire(view: AgentTerminalView): void {
    this.finished.push(view);
    while (this.finished.length > KEEP_FINISHED) this.finished.shift()!.dispose();
  }
}

/** `Agent: node -e …`: a program's directory says little and would hide the arguments. */
function displayName(request: CreateTerminalRequest): string {
  const args = request.args ?? [];
  const program = args.length > 0 && path.isAbsolute(request.command) ? path.basename(request.command) : request.command;
  const line = [program, ...args].join(' ').replace(/\s+/g, ' ').trim();
  return `Agent: ${line.length > NAME_MAX ? `${line.slice(0, NAME_MAX - 1)}…` : line}`;
}

/** How an exit reads at the end of the VS Code terminal. */
export function describeTerminalExit(exit: TerminalExit): string {
  if (exit.signal) return `killed (${exit.signal})`;
  return `exit ${exit.exitCode ?? '?'}`;
}

/**
 * A VS Code terminal showing one agent command: a Pseudoterminal fed with the output (VS Code
 * drops what is written before `open`, so that is buffered), the exit status last.
 */
class AgentTerminalView {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private pending: string[] | undefined = [];
  private pendingLength = 0;
  private done = false;
  /** While the command runs: the user closing the terminal kills it. */
  private closeWatch: vscode.Disposable | undefined;

  constructor(name: string, onUserClose: () => void) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writeEmitter.event,
      open: () => {
        const pending = this.pending ?? [];
        this.pending = undefined;
        for (const text of pending) this.writeEmitter.fire(text);
      },
      close: () => this.closed(onUserClose),
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
    // VS Code calls `close` only on a terminal it has opened (shown); this covers the others.
    this.closeWatch = vscode.window.onDidCloseTerminal((t) => t === this.terminal && this.closed(onUserClose));
  }

  private closed(onUserClose: () => void): void {
    if (!this.done) onUserClose();
    this.stopWatching();
  }

  private stopWatching(): void {
    this.closeWatch?.dispose();
    this.closeWatch = undefined;
  }

  write(text: string): void {
    this.emit(text.replace(/\r?\n/g, '\r\n'));
  }

  exited(exit: TerminalExit): void {
    this.done = true;
    this.stopWatching();
    this.emit(`\r\n\x1b[2m[${describeTerminalExit(exit)}]\x1b[0m\r\n`);
  }

  dispose(): void {
    this.done = true;
    this.stopWatching();
    this.terminal.dispose();
    this.writeEmitter.dispose();
  }

  private emit(text: string): void {
    if (!this.pending) return this.writeEmitter.fire(text);
    this.pending.push(text);
    this.pendingLength += text.length;
    while (this.pendingLength > PENDING_MAX && this.pending.length > 1) this.pendingLength -= this.pending.shift()!.length;
  }
}
