import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` still runs. A zombie (exited, not reaped, e.g. when PID 1 does not reap
 * orphans) counts as gone: it holds no resources and runs nothing.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}
