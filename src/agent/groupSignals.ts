import { spawn, spawnSync } from 'node:child_process';

/**
 * How one process group is signalled, on each platform. Agents and client terminals each run in
 * a process group of their own (spawned `detached`), so a signal to the group reaches what they
 * started too. Windows has no process groups: there the tree is ended by its parent links with
 * `taskkill /T /F`, whatever the signal (a console program has no polite stop to ask for).
 */

/** What signalling does to the system: replaced in tests, so the Windows branch runs on Linux. */
export interface SignalSystem {
  kill(pid: number, signal: NodeJS.Signals | 0): void;
  /** Runs a command without waiting; `onError` when it cannot be started. */
  run(file: string, args: string[], onError: () => void): void;
  /** Runs a command and waits for it (for the synchronous fallback, when nothing may wait). */
  runSync(file: string, args: string[]): void;
}

const realSystem: SignalSystem = {
  kill: (pid, signal) => process.kill(pid, signal),
  run: (file, args, onError) => {
    spawn(file, args, { windowsHide: true, stdio: 'ignore' }).on('error', onError);
  },
  runSync: (file, args) => {
    spawnSync(file, args, { windowsHide: true, stdio: 'ignore', timeout: 2000 });
  },
};

export interface SignalOptions {
  platform?: NodeJS.Platform;
  /** Wait for taskkill (Windows): the extension host may be gone right after. */
  sync?: boolean;
  system?: SignalSystem;
}

/**
 * A pid we may signal as a group. 0 and 1 are never ours, and `kill(-1)` would reach every
 * process the user may signal: a wrong value must do nothing rather than that.
 */
export function isGroupPid(pid: unknown): pid is number {
  return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 1;
}

/** The command that ends a Windows process tree: the process and everything it started. */
export function treeKillCommand(pid: number): { file: string; args: string[] } {
  return { file: 'taskkill', args: ['/T', '/F', '/PID', String(pid)] };
}

/** Sends `signal` to the group led by `pid` (on Windows: ends its tree). A group already gone is no error. */
export function signalGroup(pid: number, signal: NodeJS.Signals, options: SignalOptions = {}): void {
  if (!isGroupPid(pid)) return;
  const system = options.system ?? realSystem;
  if ((options.platform ?? process.platform) === 'win32') {
    const { file, args } = treeKillCommand(pid);
    if (options.sync) return system.runSync(file, args);
    // Without taskkill (a stripped-down system), at least the process itself ends.
    return system.run(file, args, () => ignoreMissing(() => system.kill(pid, 'SIGKILL')));
  }
  ignoreMissing(() => system.kill(-pid, signal));
}

/** Whether any process of the group led by `pid` is left. Windows: the leader's own state (`exited`). */
export function groupAlive(pid: number, exited: boolean, platform: NodeJS.Platform = process.platform): boolean {
  if (!isGroupPid(pid)) return false;
  if (platform === 'win32') return !exited;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    // ESRCH, or EPERM (not ours to signal any more: nothing we could end).
    return false;
  }
}

function ignoreMissing(signal: () => void): void {
  try {
    signal();
  } catch {
    // ESRCH: already gone.
  }
}
