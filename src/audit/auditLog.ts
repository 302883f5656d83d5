// The workspace's audit log, in memory: bounded (two rings of events, each event's strings
// clipped), secrets masked before anything is kept, and told to whoever listens (the file that
// keeps it, the open view). No vscode, no node: src/host/audit/ keeps it on disk and shows it.
import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import { AuditEventSchema } from './auditEvent';
import type { AuditEvent, NewAuditEvent } from './auditEvent';
import { Ring } from './ring';

export interface AuditLimits {
  /** Events that change something or that someone decided (see `isRead`) kept; the oldest go first. */
  maxChanges: number;
  /** Reads kept, apart from the changes: no number of reads pushes a change out. */
  maxReads: number;
  /** `target` and `detail` are clipped to this many characters (a command line, an error). */
  maxText: number;
  /** `agent`, `sessionId` and `rule` are clipped to this many. */
  maxName: number;
}

/** About 10,000 changes and 10,000 reads of a few hundred bytes each; at most about 1.5 KB each, whatever an agent sends. */
export const DEFAULT_AUDIT_LIMITS: AuditLimits = { maxChanges: 10_000, maxReads: 10_000, maxText: 512, maxName: 128 };

/**
 * A read the host served or refused on its own (served from disk, refused by confinement or a
 * rule, failed): an agent can make as many as it likes, so they are kept apart from everything
 * else. A read the user was asked about (the question, the answer, its withdrawal) is a change:
 * the user's clicks bound how many there are.
 */
export function isRead(event: AuditEvent): boolean {
  return event.kind === 'read' && event.by !== 'user' && event.decision !== 'asked' && event.decision !== 'cancelled';
}

/** Masks the secrets `agent` was given (and any other agent's) in `text`. */
export type AuditScrub = (agent: string, text: string) => string;

export interface AuditLogOptions {
  scrub?: AuditScrub;
  limits?: Partial<AuditLimits>;
}

/** An event as a ring keeps it: with its time as a number and its place in the order recorded, to merge the two rings by. */
interface Kept {
  event: AuditEvent;
  at: number;
  seq: number;
}

export class AuditLog {
  readonly limits: AuditLimits;
  private changes: Ring<Kept>;
  private reads: Ring<Kept>;
  private seq = 0;
  private readonly scrub: AuditScrub;
  private readonly recorded = new Emitter<AuditEvent>();
  /** Fired with each event as it is kept (scrubbed and clipped). */
  readonly onDidRecord: Event<AuditEvent> = this.recorded.event;

  constructor(options: AuditLogOptions = {}) {
    this.limits = { ...DEFAULT_AUDIT_LIMITS, ...options.limits };
    this.scrub = options.scrub ?? ((_agent, text) => text);
    this.changes = new Ring(this.limits.maxChanges);
    this.reads = new Ring(this.limits.maxReads);
  }

  /** Events kept, of both kinds. */
  get size(): number {
    return this.changes.size + this.reads.size;
  }

  /** The most events kept, of both kinds together. */
  get capacity(): number {
    return this.limits.maxChanges + this.limits.maxReads;
  }

  /** Keeps `event` (stamped now, unless it has a time), as it is kept. O(1): one push into one ring. */
  record(event: NewAuditEvent): AuditEvent {
    const kept = this.tidy({ ...event, time: event.time ?? new Date().toISOString() });
    this.keep(kept);
    this.recorded.fire(kept);
    return kept;
  }

  /**
   * Puts events read back from storage before the ones recorded since (they are older), each
   * ring keeping its newest within its bound. They go through the same scrub and clip: a secret
   * known now is masked in what was kept before, and a hand-edited file cannot bring in a huge string.
   */
  restore(older: readonly AuditEvent[]): void {
    const since = this.events();
    this.changes = new Ring(this.limits.maxChanges);
    this.reads = new Ring(this.limits.maxReads);
    this.seq = 0;
    for (const event of older) this.keep(this.tidy(event));
    for (const event of since) this.keep(event);
  }

  /** Every event kept, both rings merged in time order (the order recorded among events of one time), oldest first. */
  events(): AuditEvent[] {
    const changes = this.changes.toArray();
    const reads = this.reads.toArray();
    const merged: AuditEvent[] = [];
    let c = 0;
    let r = 0;
    while (c < changes.length && r < reads.length) {
      const change = changes[c];
      const read = reads[r];
      if (change.at < read.at || (change.at === read.at && change.seq < read.seq)) {
        merged.push(change.event);
        c++;
      } else {
        merged.push(read.event);
        r++;
      }
    }
    for (; c < changes.length; c++) merged.push(changes[c].event);
    for (; r < reads.length; r++) merged.push(reads[r].event);
    return merged;
  }

  /** One JSON object per line, oldest first (what the file holds, and what an export writes). */
  toJsonLines(): string {
    return toJsonLines(this.events());
  }

  dispose(): void {
    this.recorded.dispose();
  }

  private keep(event: AuditEvent): void {
    (isRead(event) ? this.reads : this.changes).push({ event, at: Date.parse(event.time), seq: this.seq++ });
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
