// The workspace's audit log, in memory: bounded (a ring of events, each event's strings clipped),
// secrets masked before anything is kept, and told to whoever listens (the file that keeps it,
// the open view). No vscode, no node: src/host/audit/ keeps it on disk and shows it.
import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import { AuditEventSchema } from './auditEvent';
import type { AuditEvent, NewAuditEvent } from './auditEvent';
import { Ring } from './ring';

export interface AuditLimits {
  /** Events kept; the oldest go first. */
  maxEvents: number;
  /** `target` and `detail` are clipped to this many characters (a command line, an error). */
  maxText: number;
  /** `agent`, `sessionId` and `rule` are clipped to this many. */
  maxName: number;
}

/** About 10,000 events of a few hundred bytes each; at most about 1.5 KB each, whatever an agent sends. */
export const DEFAULT_AUDIT_LIMITS: AuditLimits = { maxEvents: 10_000, maxText: 512, maxName: 128 };

/** Masks the secrets `agent` was given (and any other agent's) in `text`. */
export type AuditScrub = (agent: string, text: string) => string;

export interface AuditLogOptions {
  scrub?: AuditScrub;
  limits?: Partial<AuditLimits>;
}

export class AuditLog {
  readonly limits: AuditLimits;
  private ring: Ring<AuditEvent>;
  private readonly scrub: AuditScrub;
  private readonly recorded = new Emitter<AuditEvent>();
  /** Fired with each event as it is kept (scrubbed and clipped). */
  readonly onDidRecord: Event<AuditEvent> = this.recorded.event;

  constructor(options: AuditLogOptions = {}) {
    this.limits = { ...DEFAULT_AUDIT_LIMITS, ...options.limits };
    this.scrub = options.scrub ?? ((_agent, text) => text);
    this.ring = new Ring(this.limits.maxEvents);
  }

  get size(): number {
    return this.ring.size;
  }

  /** Keeps `event` (stamped now, unless it has a time), as it is kept. */
  record(event: NewAuditEvent): AuditEvent {
    const kept = this.tidy({ ...event, time: event.time ?? new Date().toISOString() });
    this.ring.push(kept);
    this.recorded.fire(kept);
    return kept;
  }

  /**
   * Puts events read back from storage before the ones recorded since (they are older), keeping
   * the newest within the bound. They go through the same scrub and clip: a secret known now is
   * masked in what was kept before, and a hand-edited file cannot bring in a huge string.
   */
  restore(older: readonly AuditEvent[]): void {
    const all = [...older.map((e) => this.tidy(e)), ...this.ring.toArray()];
    this.ring = new Ring(this.limits.maxEvents);
    for (const event of all.slice(-this.limits.maxEvents)) this.ring.push(event);
  }

  /** Every event kept, oldest first. */
  events(): AuditEvent[] {
    return this.ring.toArray();
  }

  /** One JSON object per line, oldest first (what the file holds, and what an export writes). */
  toJsonLines(): string {
    return toJsonLines(this.events());
  }

  dispose(): void {
    this.recorded.dispose();
  }

  /** Scrubbed and clipped, its keys in one order. */
  private tidy(event: AuditEvent): AuditEvent {
    const { maxText, maxName } = this.limits;
    const text = (value: string, max: number) => clip(this.scrub(event.agent, value), max);
    const optional = (value: string | undefined, max: number) => (value === undefined ? undefined : text(value, max));
    const tidy: AuditEvent = {
      time: event.time,
      agent: clip(event.agent, maxName),
      sessionId: optional(event.sessionId, maxName),
      kind: event.kind,
      target: text(event.target, maxText),
      resolved: optional(event.resolved, maxText),
      decision: event.decision,
      by: event.by,
      rule: optional(event.rule, maxName),
      detail: optional(event.detail, maxText),
    };
    for (const key of ['sessionId', 'resolved', 'rule', 'detail'] as const) if (tidy[key] === undefined) delete tidy[key];
    return tidy;
  }
}

/** The first `max` characters (never half a surrogate pair), and how many more there were. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

export function toJsonLines(events: readonly AuditEvent[]): string {
  return events.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** What a file of JSON lines holds: the events that pass the schema, and how many lines did not. */
export function parseJsonLines(text: string): { events: AuditEvent[]; skipped: number } {
  const events: AuditEvent[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = AuditEventSchema.safeParse(parseJson(line));
    if (parsed.success) events.push(parsed.data);
    else skipped++;
  }
  return { events, skipped };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
