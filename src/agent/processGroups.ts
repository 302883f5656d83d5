import { toDisposable } from '../base/disposables';
import type { Disposable } from '../base/disposables';
import { groupAlive, isGroupPid, signalGroup } from './groupSignals';
import type { SignalSystem } from './groupSignals';
import { GroupWatchdog } from './groupWatchdog';
import { processMark } from './processMark';
import type { ProcessMark } from './processMark';

/** What runs in a listed group: an agent or a client terminal. */
export interface GroupOwner {
  /** Starts the owner's own stop (an agent: stdin EOF, then SIGTERM…; a terminal: SIGTERM); it unlists the group once it is gone. */
  end(): void;
}

export interface ProcessGroupsOptions {
  platform?: NodeJS.Platform;
  /** Start the watchdog that outlives the extension host (see GroupWatchdog). */
  watchdog?: boolean;
  /** SIGKILL what is left when this process exits (`process.exit`, the extension host's own way out). */
  killOnExit?: boolean;
  system?: SignalSystem;
  /**
   * The mark of the processes ACP Host started (processMark.ts): after the group kill, every
   * process still carrying it is ended too (one that left its group), and the watchdog does the same.
   */
  mark?: ProcessMark;
}

export interface ShutdownReport {
  /** Groups that were gone by the deadline: their owners' stops did it. */
  ended: number;
  /** Groups SIGKILLed at the deadline. */
  killed: number;
}

interface Entry {
  pid: number;
  owner: GroupOwner;
  gone: Promise<void>;
  markGone(): void;
}

/**
 * Every process group ACP Host started that may still be alive: each agent's and each client
 * terminal's. They list themselves when they spawn and unlist once the whole group is gone, so
 * one place can end them all when the extension host goes: `shutdown` (bounded, for
 * `deactivate`), `killAllSync` (when nothing may wait: a plain loop of SIGKILLs), and the
 * watchdog (when the extension host dies without running anything).
 */
export class ProcessGroups {
  private readonly entries = new Map<number, Entry>();
  private readonly platform: NodeJS.Platform;
  private readonly watchdog: GroupWatchdog | undefined;
  private exitHooked = false;

  constructor(private readonly options: ProcessGroupsOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.watchdog = options.watchdog && this.platform !== 'win32' ? new GroupWatchdog(() => this.pids(), options.mark?.entry) : undefined;
  }

  /** The leaders of the listed groups. */
  pids(): number[] {
    return [...this.entries.keys()];
  }

  /** The watchdog's pid, once it runs (for tests). */
  get watchdogPid(): number | undefined {
    return this.watchdog?.pid;
  }

  /** Lists the group led by `pid`; dispose the result once the group is gone. */
  add(pid: number, owner: GroupOwner): Disposable {
    if (!isGroupPid(pid)) return toDisposable(() => undefined);
    this.prune();
    let markGone!: () => void;
    const gone = new Promise<void>((resolve) => (markGone = resolve));
    const entry: Entry = { pid, owner, gone, markGone };
    this.entries.set(pid, entry);
    this.watchdog?.add(pid);
    this.hookExit();
    return toDisposable(() => this.remove(entry));
  }

  /**
   * Ends every group within `budgetMs`: each owner's own stop first, then, at the deadline, a
   * synchronous SIGKILL of each group still listed (an agent that ignores EOF and SIGTERM).
   */
  async shutdown(budgetMs: number): Promise<ShutdownReport> {
    const entries = [...this.entries.values()];
    for (const entry of entries) {
      try {
        entry.owner.end();
      } catch {
        // One owner failing to stop must not keep the others running: the deadline ends it.
      }
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([Promise.all(entries.map((e) => e.gone)), deadline]);
    clearTimeout(timer);
    const killed = this.killAllSync();
    return { ended: entries.length - killed, killed };
  }

  /**
   * SIGKILLs every listed group now, without waiting for anything (taskkill on Windows, waited
   * for), then every marked process left outside them. Returns how many groups.
   */
  killAllSync(): number {
    const entries = [...this.entries.values()];
    for (const entry of entries) {
      signalGroup(entry.pid, 'SIGKILL', { platform: this.platform, sync: true, system: this.options.system });
      this.remove(entry);
    }
    this.options.mark?.sweep();
    return entries.length;
  }

  /**
   * Drops groups that ended with nobody looking (a terminal's background children that exited
   * later), so that a pid the system hands out again is never signalled as ours.
   */
  private prune(): void {
    for (const entry of this.entries.values()) {
      if (!groupAlive(entry.pid, false, this.platform)) this.remove(entry);
    }
  }

  private remove(entry: Entry): void {
    if (this.entries.get(entry.pid) !== entry) return;
    this.entries.delete(entry.pid);
    this.watchdog?.remove(entry.pid);
    entry.markGone();
  }

  private hookExit(): void {
    if (!this.options.killOnExit || this.exitHooked) return;
    this.exitHooked = true;
    process.on('exit', () => this.killAllSync());
  }
}

/**
 * The extension host's groups. Agents and terminals list themselves here; `deactivate` ends
 * them (extension.ts), and what carries this extension host's mark with them.
 */
export const processGroups = new ProcessGroups({ watchdog: true, killOnExit: true, mark: processMark });
