import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc/node';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';
import { checkEnvelope } from './envelope';

/**
 * ACP frames messages as one JSON object per line (NDJSON). vscode-jsonrpc only ships
 * Content-Length framing, and silently picks it when handed raw streams, so the connection
 * always gets these two classes instead.
 */

/** Lines that did not become messages, reported so they can be logged (and answered). */
export type SkippedLine =
  /** Not JSON at all: a banner, an npm warning, escape sequences. Logged only. */
  | { reason: 'not-json'; preview: string }
  /** Looks like JSON (`{` or `[`) but does not parse: a -32700 parse error is owed. */
  | { reason: 'malformed-json'; preview: string }
  /** JSON, but not a JSON-RPC 2.0 message: a -32600 invalid request is owed (to `id` when it had a usable one). */
  | { reason: 'invalid-message'; preview: string; problem: string; id: string | number | null }
  /** Longer than the cap: dropped without being buffered past the cap. */
  | { reason: 'too-long'; bytes: number };

export interface NdjsonReaderOptions {
  /** A line longer than this many bytes is dropped (default 32 MiB, the ACP SDK's cap too). */
  maxLineBytes?: number;
  onSkippedLine?: (line: SkippedLine) => void;
  /** Sees every message before the connection does (the protocol trace). */
  onMessage?: (message: Message) => void;
  /**
   * Offered a message, after onMessage, when nothing is queued ahead of it here: returning true
   * means it was handled on the spot and is not queued (the connection's fast path).
   */
  handleNow?: (message: Message) => boolean;
}

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
const NEWLINE = 0x0a;
const PREVIEW_CHARS = 200;
/**
 * Parsed messages waiting to be handed on; past this many the stream is paused until half are
 * handled. Without it a flooding agent is read far ahead of what is handled (one message per
 * macrotask): 1,000,000 session/updates held ~150 MiB of parsed messages, and a request or an
 * answer in the middle of them waited for the whole flood (found by test/unit/hostile.flood.test.ts).
 */
const MAX_QUEUED = 1000;

export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly maxLineBytes: number;
  private readonly onSkippedLine: (line: SkippedLine) => void;
  private readonly onMessage: ((message: Message) => void) | undefined;
  private readonly handleNow: ((message: Message) => boolean) | undefined;
  /** The current line's pieces; joined once when its newline arrives, never rescanned. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Set while the rest of an over-long line is being thrown away; counts its bytes. */
  private discardedBytes: number | undefined;
  private callback: DataCallback | undefined;
  /**
   * vscode-jsonrpc queues what it is handed under keys like `req-<id>`, so two messages of one
   * chunk with ids 0 and "0" (or a response sent twice) would overwrite each other. Handing it
   * one message per macrotask keeps its queue at one, and close comes only after the last.
   * A queue with a moving head: `Array.shift` on a backlog of thousands of messages (a fast
   * agent, one chunk of many lines) copies the whole array each time, O(n²) for the backlog.
   */
  private outbox: (Message | undefined)[] = [];
  private outboxHead = 0;
  private draining = false;
  private ended = false;
  private paused = false;

  constructor(private readonly readable: Readable, options: NdjsonReaderOptions = {}) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.onSkippedLine = options.onSkippedLine ?? (() => undefined);
    this.onMessage = options.onMessage;
    this.handleNow = options.handleNow;
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer | string) => this.onData(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = () => {
      this.flushLine(); // a last message without its newline still counts
      this.ended = true;
      if (!this.draining) setImmediate(() => this.fireClose());
    };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('error', onError);
    return Disposable.create(() => {
      this.callback = undefined;
      this.readable.off('data', onData);
      this.readable.off('end', onEnd);
      this.readable.off('error', onError);
    });
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      // A line whole in this chunk (most are) is decoded where it is, without a Buffer view per
      // line: at tens of thousands of lines a second, every allocation per message shows.
      if (this.pieceBytes === 0 && this.discardedBytes === undefined && nl - start <= this.maxLineBytes) {
        this.takeLine(chunk.toString('utf8', start, nl));
      } else {
        this.append(chunk.subarray(start, nl));
        this.flushLine();
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  private append(piece: Buffer): void {
    if (this.discardedBytes !== undefined) {
      this.discardedBytes += piece.length;
    } else if (this.pieceBytes + piece.length > this.maxLineBytes) {
      this.discardedBytes = this.pieceBytes + piece.length;
      this.pieces = [];
      this.pieceBytes = 0;
    } else if (piece.length > 0) {
      this.pieces.push(piece);
      this.pieceBytes += piece.length;
    }
  }

  private flushLine(): void {
    if (this.discardedBytes !== undefined) {
      this.onSkippedLine({ reason: 'too-long', bytes: this.discardedBytes });
      this.discardedBytes = undefined;
      return;
    }
    if (this.pieceBytes === 0) return;
    const text = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces)).toString('utf8');
    this.pieces = [];
    this.pieceBytes = 0;
    this.takeLine(text);
  }

  private takeLine(text: string): void {
    const line = text.trim();
    if (line.length > 0) this.parseLine(line);
  }

  private parseLine(line: string): void {
    // Only a line that is skipped needs it: not built for every message.
    const preview = () => (line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const looksLikeJson = line.startsWith('{') || line.startsWith('[');
      this.onSkippedLine({ reason: looksLikeJson ? 'malformed-json' : 'not-json', preview: preview() });
      return;
    }
    const checked = checkEnvelope(value);
    if (!checked.ok && checked.ignore) return;
    if (!checked.ok) {
      this.onSkippedLine({ reason: 'invalid-message', preview: preview(), problem: checked.problem, id: checked.id });
      return;
    }
    this.onMessage?.(checked.message);
    if (this.outboxHead === this.outbox.length && this.handleNow?.(checked.message)) return;
    this.outbox.push(checked.message);
    if (this.outbox.length - this.outboxHead >= MAX_QUEUED && !this.paused) {
      this.paused = true;
      this.readable.pause();
    }
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    const message = this.outbox[this.outboxHead];
    this.outbox[this.outboxHead++] = undefined; // delivered: not kept alive by the queue
    if (this.paused && this.outbox.length - this.outboxHead <= MAX_QUEUED / 2) {
      this.paused = false;
      this.readable.resume();
    }
    try {
      if (message) this.callback?.(message);
    } catch (error) {
      this.fireError(error); // never throw into the stream's data handler
    }
    if (this.outboxHead < this.outbox.length) {
      setImmediate(() => this.drain());
      return;
    }
    this.outbox = [];
    this.outboxHead = 0;
    this.draining = false;
    if (this.ended) setImmediate(() => this.fireClose());
  }
}

/** Writes one message per line, strictly in order: a write starts only when the previous one was flushed. */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private queue: Promise<void> = Promise.resolve();
  private errorCount = 0;

  /** `onMessage` sees every message as it is queued (the protocol trace). */
  constructor(
    private readonly writable: Writable,
    private readonly onMessage?: (message: Message) => void,
  ) {
    super();
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  /**
   * Never rejects: vscode-jsonrpc rethrows a failed request write inside a promise executor,
   * where it becomes an unhandled rejection. A failure is reported through onError instead, and
   * the connection treats it as the end of the agent's stdin.
   */
  write(message: Message): Promise<void> {
    this.onMessage?.(message);
    const line = `${JSON.stringify(message)}\n`;
    this.queue = this.queue.then(() => this.writeLine(line, message));
    return this.queue;
  }

  private writeLine(line: string, message: Message): Promise<void> {
    return new Promise((resolve) => {
      if (this.writable.destroyed || this.writable.writableEnded) {
        this.fireError(new Error('The agent closed its stdin'), message, ++this.errorCount);
        return resolve();
      }
      this.writable.write(line, 'utf8', (error) => {
        if (error) this.fireError(error, message, ++this.errorCount);
        resolve();
      });
    });
  }

  end(): void {
    if (!this.writable.writableEnded) this.writable.end();
  }
}
