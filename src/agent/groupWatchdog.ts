import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * The watchdog's script. It keeps the list of live groups from what it reads ("+ pid" / "- pid"),
 * and when its input ends, SIGKILLs each group still listed. Built-ins only while it waits (no
 * fork). A pid of 0 or 1 is never listed: `kill -KILL -1` would end every process of the user.
 * Then, given the mark of ACP Host's processes ($1, `NAME=value`: processMark.ts), it ends every
 * process that still carries it (one that left its group): each is stopped, round after round
 * until none new is found, then killed. /proc where there is one, else `ps -E` (macOS). The
 * watchdog's own environment is empty, so neither it nor the grep it runs carries the mark; the
 * extension host never does (only the processes it starts are given it).
 */
const SCRIPT = `groups=' '
while read -r op pid; do
  case "$pid" in ''|*[!0-9]*|0|1) continue ;; esac
  case "$op" in
    +) groups="$groups$pid " ;;
    -) case "$groups" in *" $pid "*) groups="\${groups%% $pid *} \${groups#* $pid }" ;; esac ;;
  esac
done
for pid in $groups; do kill -KILL -"$pid" 2>/dev/null; done
[ -n "$1" ] || exit 0
carriers() {
  if [ -d /proc/self ]; then
    grep -lF "$1" /proc/[0-9]*/environ 2>/dev/null | while IFS=/ read -r _ _ p _; do echo "$p"; done
  else
    ps -A -E -ww -o pid= -o command= 2>/dev/null | grep -F " $1" | while read -r p _; do echo "$p"; done
  fi
}
stopped=' '
round=0
while [ $round -lt 20 ]; do
  round=$((round + 1))
  new=
  for p in $(carriers "$1"); do
    case "$p" in ''|*[!0-9]*|0|1|$$) continue ;; esac
    case "$stopped" in *" $p "*) continue ;; esac
    kill -STOP "$p" 2>/dev/null && stopped="$stopped$p " && new=1
  done
  [ -n "$new" ] || break
done
for p in $stopped; do kill -KILL "$p" 2>/dev/null; done`;

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

  /** `live`: the groups to list when a watchdog (re)starts; `mark`: the entry (`NAME=value`) of the processes to end after them. */
  constructor(
    private readonly live: () => Iterable<number>,
    private readonly mark = '',
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
      child = spawn(this.shell, ['-c', SCRIPT, 'acp-host-watchdog', this.mark], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], cwd: '/', env: {}, windowsHide: true });
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
