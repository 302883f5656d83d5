import { spawn } from 'node:child_process';
import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { LineTail } from './lineTail';
import type { Env } from './environment';

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
const POLL_MS = 50;

/**
 * One agent subprocess. It runs in its own process group (detached), because agents ignore
 * stdin EOF and npm launchers do not forward signals to the native child: ending the group is
 * the only way to leave no orphan behind.
 */
export class AgentProcess {
  readonly stderrTail = new LineTail();
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(spec: LaunchSpec, onStderrLine: (line: string) => void = () => undefined) {
    const windows = process.platform === 'win32';
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !windows,
      // A `.cmd` launcher (npx.cmd) cannot be spawned on Windows without a shell.
      shell: windows && /\.(cmd|bat)$/i.test(spec.command),
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
      this.child.on('exit', (code, signal) => done({ code, signal }));
    });
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
    signalProcessGroup(this.child, signal);
  }

  private groupAlive(): boolean {
    return processGroupAlive(this.child, this.hasExited);
  }

  private async waitUntilGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (this.hasExited && !this.groupAlive()) return true;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return this.hasExited && !this.groupAlive();
  }
}

/**
 * Sends `signal` to the process group led by `child` (spawned `detached`), so its children get
 * it too. Windows has no process groups: only the child is signalled there.
 */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** Whether any process of `child`'s group is left (the leader may be gone while its children live on). */
export function processGroupAlive(child: ChildProcess, exited: boolean): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (process.platform === 'win32') return !exited;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
