// The protocol trace: every message both ways, per agent, bounded, redacted and clipped when it
// is recorded (a secret never sits in the trace's memory, let alone in a document). The
// redaction is the agent's SecretScrubber (secrets.ts). No `vscode` import: unit-tested in plain
// Node; src/host/trace/traceView.ts shows it.
import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import { REDACTED, SECRET_KEY, SecretScrubber, SecretScrubbers, redact } from './secrets';

export interface SanitizeOptions {
  /** Strings longer than this are cut, with a note of how much was dropped. */
  maxString: number;
  /** The agent's scrubber: its known secrets are masked wherever they are. */
  secrets?: SecretScrubber;
}

/**
 * A copy of `value` safe to show: values under `env`/`headers` and under secret-looking keys
 * replaced by «redacted», known secret values masked inside any string, long strings clipped.
 */
export function sanitize(value: unknown, options: SanitizeOptions): unknown {
  const how = { leaf: (text: string) => clipString(text, options.maxString) };
  return options.secrets ? options.secrets.redact(value, how) : redact(value, [], how);
}

/** The first `max` UTF-16 units (never half a surrogate pair) and a note of what was dropped. */
export function clipString(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… «clipped: ${text.length - end} of ${text.length} chars not shown»`;
}

export type TraceDirectionName = 'send' | 'receive';

export interface TraceLimits {
  /** How many messages are kept (the oldest go first). */
  maxMessages: number;
  /** Strings in a message are clipped to this many characters. */
  maxString: number;
  /** A line still longer than this (a message of many strings) is replaced by a clipped preview. */
  maxLine: number;
  /** All kept lines together; the oldest go first past it. */
  maxTotal: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { maxMessages: 5000, maxString: 4096, maxLine: 64 * 1024, maxTotal: 16 * 1024 * 1024 };

const ARROW: Record<TraceDirectionName, string> = { send: '→', receive: '←' };

/** One agent's trace: JSON lines `{time, dir, for?, message}`, bounded by count and size. */
export class TraceBuffer {
  private lines: string[] = [];
  private head = 0;
  private chars = 0;
  private total = 0;
  /** Requests in flight per direction, so a response line names its method (`for`). */
  private readonly inFlight: Record<TraceDirectionName, Map<string, string>> = { send: new Map(), receive: new Map() };

  constructor(
    readonly agent: string,
    private readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS,
    private readonly secrets = new SecretScrubber(),
  ) {}

  /** Messages ever recorded (kept or dropped). */
  get recorded(): number {
    return this.total;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  add(direction: TraceDirectionName, message: unknown, time = new Date()): void {
    this.total++;
    const record: Record<string, unknown> = { time: time.toISOString(), dir: ARROW[direction] };
    const method = this.correlate(direction, message);
    if (method) record.for = method;
    record.message = sanitize(message, { maxString: this.limits.maxString, secrets: this.secrets });
    let line = JSON.stringify(record);
    if (line.length > this.limits.maxLine) {
      const preview = clipString(JSON.stringify(record.message), this.limits.maxLine / 2);
      line = JSON.stringify({ time: record.time, dir: record.dir, ...(method ? { for: method } : {}), clipped: `the message is ${line.length} chars long even with its strings clipped; its start:`, preview });
    }
    this.lines.push(line);
    this.chars += line.length;
    while (this.size > this.limits.maxMessages || (this.chars > this.limits.maxTotal && this.size > 1)) {
      this.chars -= this.lines[this.head].length;
      this.head++;
    }
    // Compact now and then rather than shifting on every drop.
    if (this.head > 1024 && this.head > this.lines.length / 2) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept lines, oldest first. */
  entries(): string[] {
    return this.lines.slice(this.head);
  }

  /** The first line of the document: what is shown, that it is redacted, how to read it. */
  header(): string {
    const dropped = this.total - this.size;
    return JSON.stringify({
      trace: `ACP protocol trace of ${this.agent}`,
      shown: dropped > 0 ? `the last ${this.size} of ${this.total} messages (the bound is ${this.limits.maxMessages})` : `all ${this.size} messages`,
      directions: '→ to the agent, ← from the agent; `for` names the request a response answers',
      redacted: `values under env and headers, and of keys matching ${SECRET_KEY.source}, and the agent's known secrets (stored sign-ins, configured env, MCP server credentials) show as ${REDACTED}`,
      clipped: `strings longer than ${this.limits.maxString} chars are clipped, with a note`,
    });
  }

  text(): string {
    return [this.header(), ...this.entries()].join('\n') + '\n';
  }

  private correlate(direction: TraceDirectionName, message: unknown): string | undefined {
    if (typeof message !== 'object' || message === null) return undefined;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    const key = `${typeof id}:${id}`;
    if (typeof method === 'string') {
      const pending = this.inFlight[direction];
      pending.set(key, method);
      // Requests never answered must not pile up.
      if (pending.size > 1000) pending.delete(pending.keys().next().value!);
      return undefined;
    }
    // A response goes the other way from its request.
    const pending = this.inFlight[direction === 'send' ? 'receive' : 'send'];
    const requested = pending.get(key);
    pending.delete(key);
    return requested;
  }
}

/**
 * The traces of every agent run in this window, by agent name, and who wants to hear of new
 * lines. Each agent's trace masks what that agent's scrubber knows.
 */
export class TraceStore {
  private readonly buffers = new Map<string, TraceBuffer>();
  private readonly added = new Emitter<string>();
  /** Fired with the agent's name after each message is traced. */
  readonly onDidAdd: Event<string> = this.added.event;

  constructor(
    private readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS,
    private readonly secrets = new SecretScrubbers(),
  ) {}

  add(agent: string, direction: TraceDirectionName, message: unknown): void {
    this.buffer(agent).add(direction, message);
    this.added.fire(agent);
  }

  buffer(agent: string): TraceBuffer {
    let buffer = this.buffers.get(agent);
    if (!buffer) this.buffers.set(agent, (buffer = new TraceBuffer(agent, this.limits, this.secrets.for(agent))));
    return buffer;
  }

  text(agent: string): string {
    return this.buffer(agent).text();
  }
}
