import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * The watchdog's script. It keeps the list of live groups from what it reads ("+ pid" / "- pid"),
 * and when its input ends, SIGKILLs each group still listed. Built-ins only (no fork while it
 * waits). A pid of 0 or 1 is never listed: `kill -KILL -1` would end every process of the user.
 */
const SCRIPT = `groups=' '
while read -r op pid; do
  case "$pid" in ''|*[!0-9]*|0|1) continue ;; esac
  case "$op" in
    +) groups="$groups$pid " ;;
    -) case "$groups" in *" $pid "*) groups="\${groups%% $pid *} \${groups#* $pid }" ;; esac ;;
  esac
done
for pid in $groups; do kill -KILL -"$pid" 2>/dev/null; done`;

/**
 * What ends our process groups when the extension host ends without a word: killed, crashed, or
 * its window closed hard, so that neither `deactivate` nor an 'exit' handler runs (and its timers
 * die with it). A tiny POSIX shell, started once per extension host in a session and process
 * group of its own (so whatever ends the host's group spares it), waits on a pipe whose writing
 * end only the extension host holds (Node opens its pipes close-on-exec: no agent inherits it).
 * However the extension host goes, the kernel closes that end; the shell's `read` then sees EOF
 * and it kills every group still listed. No timer, no polling: one idle shell per window, and
 * nothing of it depends on the extension host being alive to act. Not on Windows (no process
 * groups there, and no such shell): `deactivate` and the 'exit' handler cover it.
 */
export class GroupWatchdog {
  private child: ChildProcess | undefined;
  private unavailable = false;

  /** `live`: the groups to list when a watchdog (re)starts. */
  constructor(
    private readonly live: () => Iterable<number>,
    private readonly shell = '/bin/sh',
  ) {}

  /** The watchdog's own pid, once it runs (for tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** `pid` is already among `live()`: a watchdog started now is told of it with the others. */
  add(pid: number): void {
    if (this.child) this.send(`+ ${pid}`);
    else this.start();
  }

  remove(pid: number): void {
    if (this.child) this.send(`- ${pid}`);
  }

  private start(): void {
    if (this.unavailable) return;
    let child: ChildProcess;
    try {
      child = spawn(this.shell, ['-c', SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], cwd: '/', env: {}, windowsHide: true });
    } catch {
      this.unavailable = true;
      return;
    }
    this.child = child;
    child.on('error', () => {
      // No shell: the other defences remain.
      this.unavailable = true;
      this.child = undefined;
    });
    // Killed by someone: the next group starts a new one, told of all live groups.
    child.on('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    child.stdin!.on('error', () => undefined);
    // Neither the shell nor its pipe may keep a process alive that has nothing else to do.
    child.unref();
    (child.stdin as Socket).unref();
    for (const pid of this.live()) this.send(`+ ${pid}`);
  }

  private send(line: string): void {
    this.child?.stdin?.write(`${line}\n`);
  }
}
