import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Disposable } from '../../base/disposables';
import { replaceFileSync } from '../../base/node/replaceFile';
import { parseJsonLines } from '../../audit/auditLog';
import type { AuditLog } from '../../audit/auditLog';

export interface AuditStoreOptions {
  /** New events are appended at most this often (a batch per flush). */
  flushMs?: number;
  /** Where a failure to read or write the file is reported (the events stay in memory). */
  log?: (message: string) => void;
}

/**
 * Keeps an AuditLog in a JSON Lines file (the workspace's storage folder), so it survives a
 * window reload. Nothing is read at activation: the file is read the first time it is needed
 * (the log shown or exported, or the first batch of new events written), and what it holds goes
 * before what was recorded meanwhile. New events are appended in batches; once the file holds
 * half as many lines again as the log keeps, it is rewritten with what the log keeps. One file
 * holds changes and reads together, in the order recorded: read back, each event goes to its
 * ring (AuditLog's isRead), so a file of an earlier version, one ring for all, loads as it is.
 *
 * Writes are synchronous (a batch is a few lines; a rewrite, every few thousand events, a few
 * MB): no write can then overtake another, and the last batch is written when the window
 * closes, which does not wait for promises. The one read is asynchronous, and no batch is
 * written while it runs, so nothing is read back twice.
 */
export class AuditStore implements Disposable {
  private readonly pending: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private loading: Promise<void> | undefined;
  private loaded = false;
  /** Lines in the file, once it was read. */
  private lines = 0;
  /** The file ends without a line break (a write cut short): the next batch starts on a line of its own. */
  private cutShort = false;
  private disposed = false;
  /** The last write failed (said once, until one succeeds). */
  private failing = false;
  /** A batch could not be written after the file was read: the next write rewrites the file with what the log keeps. */
  private stale = false;
  private readonly subscription: Disposable;
  private readonly flushMs: number;
  private readonly report: (message: string) => void;

  constructor(
    private readonly log: AuditLog,
    readonly file: string,
    options: AuditStoreOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.report = options.log ?? (() => undefined);
    this.subscription = log.onDidRecord((event) => this.queue(JSON.stringify(event)));
  }

  /** Reads the file into the log, once (later calls wait for the same read). */
  load(): Promise<void> {
    return (this.loading ??= this.read());
  }

  /** Writes what was recorded so far (reading the file first, if it was not yet). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.load();
    if (!this.disposed) this.write();
  }

  /** The last batch is written now, whether or not the file was read (an append needs no read). */
  dispose(): void {
    if (this.disposed) return;
    this.subscription.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.write();
    this.disposed = true;
  }

  private queue(line: string): void {
    this.pending.push(line);
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
  }

  private async read(): Promise<void> {
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(`The audit log ${this.file} could not be read: ${(error as Error).message}`);
    }
    if (this.disposed) return;
    const { events, skipped } = parseJsonLines(text);
    if (skipped > 0) this.report(`The audit log ${this.file} had ${skipped} unreadable line${skipped === 1 ? '' : 's'}; skipped (the other ${events.length} events are kept).`);
    this.lines = events.length + skipped;
    this.cutShort = text !== '' && !text.endsWith('\n');
    this.loaded = true;
    this.log.restore(events);
  }

  private write(): void {
    if (this.pending.length === 0 && !this.stale) return;
    const batch = this.pending.splice(0);
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      if (this.loaded && (this.stale || this.lines + batch.length > this.log.capacity * 1.5)) return this.rewrite();
      // Unread, the file may end mid-line: an empty line costs nothing (blank lines are skipped).
      const start = this.cutShort || !this.loaded ? '\n' : '';
      appendFileSync(this.file, `${start}${batch.join('\n')}\n`);
      this.lines += batch.length;
      this.cutShort = false;
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.report(`The audit log could not be written to ${this.file} (it is kept in memory, and written when it can be): ${(error as Error).message}`);
      this.failing = true;
      if (this.loaded) {
        // The log holds what the file missed, each kind within its bound: the file becomes the log once it can be written.
        this.stale = true;
      } else {
        // Not read yet (the window is closing): tried again with the next batch; never more than the log itself keeps.
        this.pending.unshift(...batch);
        this.pending.splice(0, Math.max(0, this.pending.length - this.log.capacity));
      }
    }
  }

  /** The file becomes what the log keeps (through a temporary file: a failed write leaves the old one). */
  private rewrite(): void {
    replaceFileSync(this.file, this.log.toJsonLines());
    this.lines = this.log.size;
    this.cutShort = false;
    this.stale = false;
    this.failing = false;
  }
}
