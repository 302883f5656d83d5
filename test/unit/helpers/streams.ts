// In-memory plumbing for framing and connection tests: a scripted peer on the far end of a
// PassThrough pair, and a log that remembers what it was told.
import { PassThrough } from 'node:stream';
import type { ConnectionLog } from '../../../src/agent/connection';

/** A JSON-RPC message as the tests see it on the wire (parsed, untyped). */
export type WireMessage = Record<string, any>;

const WAIT_MS = 3000;

/**
 * The agent's end of a connection: `toClient` is what the connection reads (the agent's stdout),
 * `fromClient` is what it writes (the agent's stdin). Every line the connection writes is kept
 * raw in `lines` and parsed in `written`.
 */
export class FakePeer {
  readonly toClient = new PassThrough();
  readonly fromClient = new PassThrough();
  readonly lines: string[] = [];
  readonly written: WireMessage[] = [];
  /** The method of every request this peer sent, by JSON-encoded id (so 0 and "0" stay apart). */
  readonly sentRequests = new Map<string, string>();
  private buffered = '';
  private readonly waiters = new Set<() => void>();

  constructor() {
    this.fromClient.setEncoding('utf8');
    this.fromClient.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf('\n'); nl !== -1; nl = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.lines.push(line);
        this.written.push(JSON.parse(line) as WireMessage);
      }
      for (const wake of [...this.waiters]) wake();
    });
  }

  /** Sends one message as one line. */
  send(message: WireMessage): void {
    if (typeof message.method === 'string' && 'id' in message) this.sentRequests.set(JSON.stringify(message.id), message.method);
    this.toClient.write(`${JSON.stringify(message)}\n`);
  }

  sendRaw(text: string): void {
    this.toClient.write(text);
  }

  /** Ends the agent's stdout (EOF for the connection). */
  end(): void {
    this.toClient.end();
  }

  /** The first message written so far, or later, that matches; fails after a few seconds. */
  waitFor(what: string, match: (m: WireMessage) => boolean, timeoutMs = WAIT_MS): Promise<WireMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.written.find(match);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; written so far: ${JSON.stringify(this.written)}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  /** The response the connection wrote for the agent's request `id` (compared by type and value). */
  responseTo(id: string | number | null, timeoutMs = WAIT_MS): Promise<WireMessage> {
    return this.waitFor(`the response to id ${JSON.stringify(id)}`, (m) => !('method' in m) && 'id' in m && m.id === id, timeoutMs);
  }

  /** The first request the connection sent for `method`. */
  requestFor(method: string): Promise<WireMessage> {
    return this.waitFor(`a ${method} request`, (m) => m.method === method && 'id' in m);
  }
}

export interface RecordingLog extends ConnectionLog {
  readonly entries: Array<{ level: 'info' | 'warn' | 'error'; message: string }>;
  /** Every entry of that level joined, for `assert.match`. */
  text(level?: 'info' | 'warn' | 'error'): string;
}

export function recordingLog(): RecordingLog {
  const entries: RecordingLog['entries'] = [];
  return {
    entries,
    info: (message) => entries.push({ level: 'info', message }),
    warn: (message) => entries.push({ level: 'warn', message }),
    error: (message) => entries.push({ level: 'error', message }),
    text: (level) =>
      entries
        .filter((e) => level === undefined || e.level === level)
        .map((e) => e.message)
        .join('\n'),
  };
}

/** Lets queued I/O and immediates run (vscode-jsonrpc dispatches one message per setImmediate). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 10));
}

/** Polls until `probe` returns a value (not undefined); fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
