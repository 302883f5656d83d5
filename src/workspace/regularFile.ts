import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * What an agent's read of a file on disk may read: a regular file, no larger than a bound. A FIFO
 * would block the read (and the thread of the pool serving it) until a writer appears, a device
 * (/dev/zero, /dev/random) never ends, and a huge file would be held whole in memory twice (bytes,
 * then text) only to be cut to a few lines.
 */

export type ReadProblem =
  | { kind: 'missing' }
  | { kind: 'notRegular'; what: string }
  | { kind: 'tooLarge'; size: number; maxBytes: number };

/** Bytes as people read them: `512 B`, `1.5 KiB`, `10 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, 'MiB'] : [bytes / 1024 ** 3, 'GiB'];
  return `${Number(value.toFixed(1))} ${unit}`;
}

/** What kind of file `stats` describes, in words (for a refusal). */
function kindOf(stats: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The decision on a file's stats (pure): undefined when it may be read. */
export function readProblem(stats: Stats, maxBytes: number): ReadProblem | undefined {
  if (!stats.isFile()) return { kind: 'notRegular', what: kindOf(stats) };
  if (stats.size > maxBytes) return { kind: 'tooLarge', size: stats.size, maxBytes };
  return undefined;
}

/** What is said of a refused read of `shown`. */
export function describeReadProblem(shown: string, problem: Exclude<ReadProblem, { kind: 'missing' }>): string {
  if (problem.kind === 'notRegular') return `Refused to read ${shown}: it is ${problem.what}, not a regular file`;
  return `Refused to read ${shown}: it is ${formatBytes(problem.size)}, over the limit of ${formatBytes(problem.maxBytes)}`;
}

const READ_CHUNK = 1024 * 1024;

/**
 * Reads a regular file of at most `maxBytes`. Opened without blocking (O_NONBLOCK: opening a FIFO
 * with no writer returns at once) and checked on the open descriptor, so what is read is what was
 * checked, even if the path is swapped meanwhile. A file that grows past the bound while it is
 * read is refused too.
 */
export async function readRegularFile(fsPath: string, maxBytes: number): Promise<{ ok: true; bytes: Buffer } | { ok: false; problem: ReadProblem }> {
  let handle;
  try {
    handle = await open(fsPath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: { kind: 'missing' } };
    throw error;
  }
  try {
    const stats = await handle.stat();
    const problem = readProblem(stats, maxBytes);
    if (problem) return { ok: false, problem };
    const chunks: Buffer[] = [];
    let total = 0;
    // The size it has now, and one byte more to see the end (or that it grew).
    let want = stats.size + 1;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(want), 0, want, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return { ok: false, problem: { kind: 'tooLarge', size: total, maxBytes } };
      chunks.push(buffer.subarray(0, bytesRead));
      want = READ_CHUNK;
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } finally {
    await handle.close();
  }
}
