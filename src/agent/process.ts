import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Disposable } from '../base/disposables';
import { LineTail } from './lineTail';
import type { Env } from './environment';
import { groupAlive, signalGroup } from './groupSignals';
import { processGroups } from './processGroups';
import type { ProcessGroups } from './processGroups';
import { processMark } from './processMark';

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Env;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (ENOENT, EACCES…). */
  spawnError?: NodeJS.ErrnoException;
}

export interface ShutdownTimings {
  /** How long to wait after closing stdin before SIGTERM. */
  graceMs: number;
  /** How long to wait after SIGTERM before SIGKILL. */
  termMs: number;
}

const DEFAULT_SHUTDOWN: ShutdownTimings = { graceMs: 2000, termMs: 2000 };
/** When the extension host goes (ProcessGroups.shutdown): its deadline SIGKILLs what is left after these. */
const HOST_EXIT_SHUTDOWN: ShutdownTimings = { graceMs: 1000, termMs: 1000 };
const POLL_MS = 50;

/**
 * One agent subprocess. It runs in its own process group (detached), because agents ignore
 * stdin EOF and npm launchers do not forward signals to the native child: ending the group is
 * the only way to leave no orphan behind. The group is listed in `ProcessGroups` until it is
 * gone, so it ends with the extension host too. On Windows (no groups) the tree is ended.
 */
export class AgentProcess {
  readonly stderrTail = new LineTail();
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private listing: Disposable | undefined;

  constructor(
    /** How it was started: a terminal sign-in runs the same command line again (ACP §6). Its env may hold secrets. */
    readonly spec: LaunchSpec,
    onStderrLine: (line: string) => void = () => undefined,
    groups: ProcessGroups = processGroups,
  ) {
    const windows = process.platform === 'win32';
    // A `.cmd` launcher (npx.cmd) cannot be spawned on Windows without a shell, which takes the line unquoted.
    const cmdLauncher = windows && /\.(cmd|bat)$/i.test(spec.command);
    this.child = spawn(cmdLauncher ? `"${spec.command}"` : spec.command, spec.args, {
      cwd: spec.cwd,
      // Marked, so that what it starts outside its group is found when the window goes (processMark.ts).
      env: processMark.on(spec.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !windows,
      shell: cmdLauncher,
      windowsHide: true,
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.stderrTail.push(chunk).forEach(onStderrLine));
    // EPIPE on a dead agent's stdin is reported through the connection, not as a crash.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      const done = (info: ExitInfo) => {
        if (this.exitInfo) return;
        this.exitInfo = info;
        resolve(info);
      };
      this.child.on('error', (error: NodeJS.ErrnoException) => {
        if (this.child.pid === undefined) done({ code: null, signal: null, spawnError: error });
      });
      this.child.on('exit', (code, signal) => {
        done({ code, signal });
        this.gone();
      });
    });
    if (this.child.pid !== undefined) this.listing = groups.add(this.child.pid, { end: () => void this.shutdown(HOST_EXIT_SHUTDOWN) });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get stdin() {
    return this.child.stdin;
  }
  get stdout() {
    return this.child.stdout;
  }
  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /**
   * Close stdin, wait, SIGTERM the group, wait, SIGKILL the group. The group is checked, not
   * just our child: the agent may exit on EOF and leave its own children running.
   */
  async shutdown(timings: ShutdownTimings = DEFAULT_SHUTDOWN): Promise<ExitInfo> {
    this.child.stdin.end();
    const pid = this.child.pid;
    if (pid === undefined) return this.exited;
    if (!(await this.waitUntilGone(timings.graceMs))) {
      this.signal('SIGTERM');
      if (!(await this.waitUntilGone(timings.termMs))) {
        this.signal('SIGKILL');
        await this.waitUntilGone(timings.termMs);
      }
    }
    return this.exited;
  }

  /** Immediate end, for the extension host going away. */
  kill(): void {
    this.signal('SIGKILL');
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) signalGroup(this.child.pid, signal);
  }

  /** Whether the agent and everything of its group is gone (then it is unlisted). */
  private gone(): boolean {
    const pid = this.child.pid;
    if (!this.hasExited || (pid !== undefined && groupAlive(pid, this.hasExited))) return false;
    this.listing?.dispose();
    return true;
  }

  private async waitUntilGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (this.gone()) return true;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return this.gone();
  }
}
