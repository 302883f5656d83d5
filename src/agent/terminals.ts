import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Emitter } from 'vscode-jsonrpc';
import type { Disposable } from 'vscode-jsonrpc';
import { RpcError } from '../protocol/errors';
import type { Disposable as Listing } from '../base/disposables';
import type { Env } from './environment';
import { groupAlive, signalGroup } from './groupSignals';
import { processGroups } from './processGroups';
import { processMark } from './processMark';
import { OutputBuffer, StreamDecoder } from './terminalOutput';
import { terminalProgram } from './terminalCommand';
import type { TerminalProgram } from './terminalCommand';

/**
 * Client terminals (ACP `terminal/*`): commands an agent asks us to run. Node only: the VS Code
 * side (a Pseudoterminal per command, workspace confinement of the cwd) is host/terminalPort.ts.
 */

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalSnapshot {
  output: string;
  truncated: boolean;
  /** null while the process runs. */
  exitStatus: TerminalExit | null;
}

export interface CreateTerminalOptions {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  /** Absolute; the manager's default cwd when absent. */
  cwd?: string | null;
  outputByteLimit?: number | null;
}

export interface TerminalManagerOptions {
  /** The environment commands start from (the request's `env` goes over it). */
  baseEnv: () => Env | Promise<Env>;
  defaultCwd: string;
  /** After SIGTERM, how long the group may take before SIGKILL. */
  killGraceMs?: number;
  /** At most one update per terminal this often (plus the final one at exit). */
  updateIntervalMs?: number;
  /** Updates carry only this many bytes of the end of the output. */
  updateTailBytes?: number;
  /**
   * The user's bound of a command's output (read at each create, so a changed setting applies to
   * the next command): what a command keeps when the agent gives no `outputByteLimit`, and the
   * most it keeps whatever the agent gives. A command that prints without end must not grow the
   * extension host without end, and the agent asking for more must not change that.
   */
  maxOutputByteLimit?: () => number;
  /**
   * How many terminals may be held at once (read at each create). One counts from create until
   * release (or dispose), running, exited or killed alike: its output is kept until then.
   */
  maxTerminals?: () => number;
  /** Folders a command's program (or shell) is never taken from, however PATH reads: the workspace's (agent/executables.ts). */
  excludedDirs?: () => readonly string[];
  platform?: NodeJS.Platform;
}

export type TerminalUpdateListener = (terminalId: string, state: TerminalSnapshot) => void;
/** Every piece of decoded output as it arrives (unthrottled, unbounded), then `exit` once. */
export type TerminalDataListener = (terminalId: string, event: { data: string } | { exit: TerminalExit }) => void;

/** What a command keeps of its output when neither the agent nor the settings say otherwise. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
const DEFAULTS = { killGraceMs: 2000, updateIntervalMs: 50, updateTailBytes: 64 * 1024 };
/** Output may still be in the pipes when `exit` fires; wait this long at most for them to close. */
const DRAIN_MS = 250;
const POLL_MS = 50;

/** One command: its process group, output and exit. */
class Terminal {
  readonly buffer: OutputBuffer;
  /** Set once the process is gone and its output drained: what output/exitStatus report. */
  exit: TerminalExit | null = null;
  readonly exited: Promise<TerminalExit>;
  child: ChildProcess | undefined;
  private resolveExit!: (exit: TerminalExit) => void;
  /** The `exit` event came (the pipes may still hold output). */
  private processExited = false;
  private exitInfo: TerminalExit = { exitCode: null, signal: null };
  private killTimer: NodeJS.Timeout | undefined;
  private updateTimer: NodeJS.Timeout | undefined;
  private platform: NodeJS.Platform = process.platform;
  /** Its place in ProcessGroups while anything of its group may be alive. */
  private listing: Listing | undefined;
  private lastUpdate = 0;

  constructor(
    readonly id: string,
    outputByteLimit: number | undefined,
    private readonly manager: { emitUpdate(t: Terminal): void; emitData: TerminalDataListener; options: TerminalManager['settings'] },
  ) {
    this.buffer = new OutputBuffer(outputByteLimit);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  start(program: TerminalProgram, cwd: string, env: Env, platform: NodeJS.Platform): void {
    if ('notFound' in program) return this.failToStart(program.notFound);
    const { file, args, shell } = program;
    const windows = platform === 'win32';
    this.platform = platform;
    // A `.cmd` launcher cannot be spawned on Windows without a shell, which takes the line unquoted.
    const cmdLauncher = windows && !shell && /\.(cmd|bat)$/i.test(file);
    let child: ChildProcess;
    try {
      child = spawn(cmdLauncher ? `"${file}"` : file, args, {
        cwd,
        // Marked, so that what it starts outside its group (`setsid`, a daemon) is found when the window goes (processMark.ts).
        env: processMark.on(env),
        // No input: a command that reads stdin gets EOF rather than waiting forever.
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: !windows,
        windowsHide: true,
        windowsVerbatimArguments: windows && shell,
        shell: cmdLauncher,
      });
    } catch (error) {
      this.failToStart(`Could not start ${file}: ${(error as Error).message}`);
      return;
    }
    this.child = child;
    if (child.pid !== undefined) this.listing = processGroups.add(child.pid, { end: () => this.kill() });
    const pending = new Set<NodeJS.ReadableStream>();
    for (const stream of [child.stdout!, child.stderr!]) {
      // Two pipes, one output: each has its own decoder, the text goes in in arrival order.
      const decoder = new StreamDecoder();
      pending.add(stream);
      stream.on('data', (chunk: Buffer) => this.append(decoder.decode(chunk)));
      stream.on('close', () => {
        this.append(decoder.end());
        pending.delete(stream);
        if (pending.size === 0 && this.processExited) this.finish();
      });
      stream.on('error', () => undefined);
    }
    child.on('error', (error) => {
      if (child.pid === undefined) this.failToStart(`Could not start ${file}: ${error.message}`);
    });
    child.on('exit', (code, signal) => {
      this.processExited = true;
      this.exitInfo = { exitCode: code, signal };
      // Unlisted now if it left nothing behind; else when kill, release or dispose ends the rest.
      this.groupAlive();
      // A background child may keep the pipes open: report the exit anyway, a bit later.
      if (pending.size === 0) this.finish();
      else setTimeout(() => this.finish(), DRAIN_MS);
    });
  }

  /** Like a shell's "command not found": the agent reads why in the output, with exit code 127. */
  private failToStart(reason: string): void {
    this.append(`${reason}\n`);
    this.processExited = true;
    this.exitInfo = { exitCode: 127, signal: null };
    this.finish();
  }

  private append(text: string): void {
    if (text === '' || this.exit) return;
    this.buffer.append(text);
    this.manager.emitData(this.id, { data: text });
    this.scheduleUpdate();
  }

  private finish(): void {
    if (this.exit) return;
    this.exit = this.exitInfo;
    clearTimeout(this.updateTimer);
    this.updateTimer = undefined;
    this.manager.emitUpdate(this);
    this.manager.emitData(this.id, { exit: this.exit });
    this.resolveExit(this.exit);
  }

  private scheduleUpdate(): void {
    if (this.updateTimer) return;
    const wait = Math.max(0, this.lastUpdate + this.manager.options.updateIntervalMs - Date.now());
    this.updateTimer = setTimeout(() => {
      this.updateTimer = undefined;
      this.lastUpdate = Date.now();
      if (!this.exit) this.manager.emitUpdate(this);
    }, wait);
  }

  get running(): boolean {
    return this.child !== undefined && this.exit === null;
  }

  /** SIGTERM to the whole group, SIGKILL if anything of it is still there after the grace time. */
  kill(): void {
    const child = this.child;
    const pid = child?.pid;
    if (pid === undefined || this.killTimer || !this.groupAlive()) return;
    // On Windows (no process groups) this ends the tree cmd.exe started, by its parent links.
    signalGroup(pid, 'SIGTERM', { platform: this.platform });
    if (this.platform === 'win32') return;
    const deadline = Date.now() + this.manager.options.killGraceMs;
    const check = () => {
      if (!this.groupAlive()) return (this.killTimer = undefined);
      if (Date.now() >= deadline) {
        signalGroup(pid, 'SIGKILL');
        return (this.killTimer = undefined);
      }
      this.killTimer = setTimeout(check, POLL_MS);
    };
    this.killTimer = setTimeout(check, POLL_MS);
  }

  /** Whether anything of the command's group is left; once nothing is, it leaves ProcessGroups. */
  private groupAlive(): boolean {
    const pid = this.child?.pid;
    const alive = pid !== undefined && groupAlive(pid, this.processExited, this.platform);
    if (!alive) this.listing?.dispose();
    return alive;
  }

  snapshot(): TerminalSnapshot {
    return { output: this.buffer.output, truncated: this.buffer.truncated, exitStatus: this.exit };
  }

  viewState(): TerminalSnapshot {
    return { ...this.buffer.tail(this.manager.options.updateTailBytes), exitStatus: this.exit };
  }
}

/**
 * The terminals of one agent. Each command runs in its own process group, so kill, release
 * and dispose end what it started too (a dev server, a test runner's workers).
 */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();
  /** Released but maybe still dying: kept until they exit so dispose can still reach them. */
  private readonly releasing = new Set<Terminal>();
  private readonly updates = new Emitter<{ terminalId: string; state: TerminalSnapshot }>();
  private readonly data = new Emitter<{ terminalId: string; event: { data: string } | { exit: TerminalExit } }>();
  private nextId = 1;
  private readonly settings: Required<Omit<TerminalManagerOptions, 'baseEnv' | 'defaultCwd' | 'platform' | 'maxOutputByteLimit' | 'maxTerminals' | 'excludedDirs'>>;
  private readonly hooks: { emitUpdate(t: Terminal): void; emitData: TerminalDataListener; options: TerminalManager['settings'] };

  constructor(private readonly options: TerminalManagerOptions) {
    this.settings = {
      killGraceMs: options.killGraceMs ?? DEFAULTS.killGraceMs,
      updateIntervalMs: options.updateIntervalMs ?? DEFAULTS.updateIntervalMs,
      updateTailBytes: options.updateTailBytes ?? DEFAULTS.updateTailBytes,
    };
    this.hooks = {
      options: this.settings,
      emitUpdate: (t) => this.updates.fire({ terminalId: t.id, state: t.viewState() }),
      emitData: (terminalId, event) => this.data.fire({ terminalId, event }),
    };
  }

  /** Throttled snapshots for views: the end of the output only (`truncated` if more exists). */
  onUpdate(listener: TerminalUpdateListener): Disposable {
    return this.updates.event(({ terminalId, state }) => listener(terminalId, state));
  }

  /** Every piece of output as it comes, then the exit: for a view that shows the whole stream. */
  onData(listener: TerminalDataListener): Disposable {
    return this.data.event(({ terminalId, event }) => listener(terminalId, event));
  }

  /** Starts the command at once and answers its id; the command keeps running. */
  async create(request: CreateTerminalOptions): Promise<string> {
    const extra = Object.fromEntries((request.env ?? []).map(({ name, value }) => [name, value]));
    const env: Env = { ...(await this.options.baseEnv()), ...extra };
    const platform = this.options.platform ?? process.platform;
    const cwd = request.cwd ?? this.options.defaultCwd;
    const program = terminalProgram(request, env, cwd, this.options.excludedDirs?.() ?? [], platform);
    const bound = this.options.maxOutputByteLimit?.() ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    const limit = Math.min(request.outputByteLimit ?? bound, bound);
    // Checked after the last await, so that concurrent creates cannot all pass it.
    this.refuseOverCap();
    const id = `term-${this.nextId++}`;
    const terminal = new Terminal(id, limit, this.hooks);
    this.terminals.set(id, terminal);
    terminal.start(program, cwd, env, platform);
    return id;
  }

  private refuseOverCap(): void {
    const max = this.options.maxTerminals?.();
    if (max === undefined || this.terminals.size < max) return;
    const held = `${this.terminals.size} terminal${this.terminals.size === 1 ? '' : 's'}`;
    throw RpcError.refused(`Refused terminal/create: this session already holds ${held}, the most acpHost.maxTerminalsPerSession allows (${max}). Release one with terminal/release first.`);
  }

  has(id: string): boolean {
    return this.terminals.has(id);
  }

  /** The process id (the group id too), for tests and logs. */
  pid(id: string): number | undefined {
    return this.get(id).child?.pid;
  }

  /** Never waits; `exitStatus` only once the process has exited. */
  output(id: string): TerminalSnapshot {
    return this.get(id).snapshot();
  }

  waitForExit(id: string): Promise<TerminalExit> {
    return this.get(id).exited;
  }

  /** Stops the process group; the id stays valid for output and waitForExit. */
  kill(id: string): void {
    this.get(id).kill();
  }

  /** Kills what is still running and forgets the id (a later call with it is -32002). */
  release(id: string): void {
    const terminal = this.get(id);
    this.terminals.delete(id);
    this.stopAndTrack(terminal);
  }

  /** Kills every terminal (the agent or its session ended); the manager stays usable. */
  dispose(): void {
    const all = [...this.terminals.values()];
    this.terminals.clear();
    for (const terminal of all) this.stopAndTrack(terminal);
    for (const terminal of this.releasing) terminal.kill();
  }

  private stopAndTrack(terminal: Terminal): void {
    // Also after the command exited: what it left in the background goes with it.
    terminal.kill();
    if (!terminal.exit) {
      this.releasing.add(terminal);
      void terminal.exited.then(() => this.releasing.delete(terminal));
    }
  }

  private get(id: string): Terminal {
    const terminal = this.terminals.get(id);
    if (!terminal) throw RpcError.notFound(`Unknown terminal ${JSON.stringify(id)}`);
    return terminal;
  }
}
