import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Env } from './environment';
import { isGroupPid } from './groupSignals';

/**
 * The mark every process ACP Host starts carries (agents, client terminals, sign-in terminals):
 * an environment variable whose value is unique to this extension host, inherited by every
 * descendant. Process groups end what stays in its group; a process that left it (`setsid`, a
 * daemon that detaches) is found again by this mark when the window goes, and ended too.
 *
 * Out of reach: a process that starts with a cleared environment (`env -i`, a daemon that
 * rewrites its environment block), one running as another user (its environment is not readable),
 * and, on Windows, everything outside the tree taskkill follows (no environment of other
 * processes to read there). macOS's `ps -E` is best effort: it shows the environment a process
 * started with, and only for the user's own processes.
 */
export const MARK_VARIABLE = 'ACP_HOST_SCOPE';

/** Where the processes that carry a mark are found, on each platform. Replaced in tests. */
export interface ProcessTable {
  /** The pids of live processes whose environment holds `entry` (`NAME=value`, exactly). */
  carriers(entry: string): number[];
  /** The parent of `pid`, when known. */
  parent(pid: number): number | undefined;
}

/** Linux (and others with a Linux-like /proc): the environment each process started with, readable for the user's own processes. */
export function procTable(root = '/proc'): ProcessTable {
  return {
    carriers(entry) {
      const found: number[] = [];
      for (const name of safe(() => readdirSync(root), [])) {
        if (!/^\d+$/.test(name)) continue;
        const environ = safe(() => readFileSync(`${root}/${name}/environ`, 'latin1'), '');
        if (environ.split('\0').includes(entry)) found.push(Number(name));
      }
      return found;
    },
    parent(pid) {
      // The command name (in parentheses) may hold spaces and parentheses: the fields after its last ')' are fixed.
      const stat = safe(() => readFileSync(`${root}/${pid}/stat`, 'latin1'), '');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Number.isSafeInteger(ppid) && ppid > 0 ? ppid : undefined;
    },
  };
}

/** What `ps -A -E -ww -o pid= -o command=` prints, read: the pids whose line holds `entry` as a word (the environment follows the command). */
export function psCarriers(output: string, entry: string): number[] {
  const found: number[] = [];
  for (const line of output.split('\n')) {
    const match = /^\s*(\d+)\s(.*)$/.exec(line);
    if (match && match[2].split(/\s+/).includes(entry)) found.push(Number(match[1]));
  }
  return found;
}

/** macOS and the BSDs: `ps -E`, best effort (see MARK_VARIABLE). */
export function psTable(run = (args: string[]) => spawnSync('ps', args, { encoding: 'utf8', timeout: 5000, maxBuffer: 64 * 1024 * 1024 }).stdout ?? ''): ProcessTable {
  return {
    carriers: (entry) => psCarriers(run(['-A', '-E', '-ww', '-o', 'pid=', '-o', 'command=']), entry),
    parent(pid) {
      const ppid = Number(run(['-o', 'ppid=', '-p', String(pid)]).trim());
      return Number.isSafeInteger(ppid) && ppid > 0 ? ppid : undefined;
    },
  };
}

export interface ProcessMarkOptions {
  value?: string;
  platform?: NodeJS.Platform;
  table?: ProcessTable;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  /** This process: it and its ancestors (the extension host, VS Code) are never ended. */
  self?: number;
}

/** Rounds of stopping before the kill: each stops what the round before could still have started. */
const MAX_ROUNDS = 20;

export class ProcessMark {
  readonly value: string;
  private readonly table: ProcessTable | undefined;
  private readonly kill: (pid: number, signal: NodeJS.Signals) => void;
  private readonly self: number;

  constructor(options: ProcessMarkOptions = {}) {
    this.value = options.value ?? randomUUID();
    const platform = options.platform ?? process.platform;
    this.table = options.table ?? (platform === 'linux' ? procTable() : platform === 'win32' ? undefined : psTable());
    this.kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
    this.self = options.self ?? process.pid;
  }

  /** `NAME=value`, as it stands in a marked process's environment. */
  get entry(): string {
    return `${MARK_VARIABLE}=${this.value}`;
  }

  /** `env` with the mark (over any mark it inherited from another window's ACP Host). */
  on(env: Env): Env {
    return { ...env, [MARK_VARIABLE]: this.value };
  }

  /**
   * Ends every live process that carries the mark, this process and its ancestors spared. All are
   * stopped first, round after round until a scan finds none new, so that none can start another
   * between the scan and the kill; then each is SIGKILLed. Synchronous: it runs on the extension
   * host's way out. Returns how many were ended.
   */
  sweep(): number {
    const table = this.table;
    if (!table) return 0;
    const spared = this.ancestry(table);
    const seen = new Set<number>();
    const stopped = new Set<number>();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const found = table.carriers(this.entry).filter((pid) => isGroupPid(pid) && !spared.has(pid) && !seen.has(pid));
      if (found.length === 0) break;
      for (const pid of found) {
        seen.add(pid);
        if (this.signal(pid, 'SIGSTOP')) stopped.add(pid);
      }
    }
    for (const pid of stopped) this.signal(pid, 'SIGKILL');
    return stopped.size;
  }

  private ancestry(table: ProcessTable): Set<number> {
    const chain = new Set<number>();
    for (let pid: number | undefined = this.self; pid !== undefined && pid > 1 && !chain.has(pid); pid = table.parent(pid)) chain.add(pid);
    return chain;
  }

  private signal(pid: number, signal: NodeJS.Signals): boolean {
    try {
      this.kill(pid, signal);
      return true;
    } catch {
      // ESRCH: gone already; EPERM: not ours to end.
      return false;
    }
  }
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** This extension host's mark: agents and terminals start with it (process.ts, terminals.ts), ProcessGroups and its watchdog sweep it. */
export const processMark = new ProcessMark();
