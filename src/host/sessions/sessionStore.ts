import * as z from 'zod/mini';
import { EntryViewSchema } from '../../webview-protocol/entries';
import type { EntryView } from '../../webview-protocol/entries';
import type { SessionDetails } from '../../session/sessionOrigin';
import type { SessionRef, TabStore } from '../../session/sessionTabs';
import { savedEntries } from './savedTranscript';

/** The sessions this extension opened in a workspace, newest first: its history and its open tabs. */
export interface SessionRecord extends SessionDetails {
  agentName: string;
  /** The agent's id of the session. */
  sessionId: string;
  title: string;
  /** ISO 8601, when it was last used. */
  updatedAt: string;
}

// A record's details, checked when read back: one that does not fit is dropped (the session then
// opens with the workspace's folders, and without its fork header), never trusted.
const DetailsSchema = z.object({
  roots: z.catch(z.optional(z.object({ cwd: z.string(), additionalDirectories: z.array(z.string()) })), undefined),
  forkOf: z.catch(z.optional(z.object({ sessionId: z.string(), title: z.string(), note: z.nullable(z.string()) })), undefined),
});


/** VS Code's `Memento` (workspaceState), as far as it is used here. */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

interface Saved {
  records: SessionRecord[];
  /** The tabs open when the window closed, in order, and the one shown. */
  open: SessionRef[];
  shown?: SessionRef;
}

const KEY = 'acpHost.sessions';
/** Enough history for anyone; the memento is not a database. */
export const MAX_RECORDS = 200;
/** Transcripts are kept for the newest sessions only, each within savedTranscript.ts's budget. */
export const MAX_TRANSCRIPTS = 20;
export { MAX_ENTRY_CHARS, MAX_TRANSCRIPT_CHARS } from './savedTranscript';

const transcriptKey = (ref: SessionRef) => `acpHost.transcript/${ref.agentName}/${ref.sessionId}`;
const StoredTranscriptSchema = z.array(EntryViewSchema);

const same = (a: SessionRef, b: SessionRef) => a.agentName === b.agentName && a.sessionId === b.sessionId;

function isRef(value: unknown): value is SessionRef {
  const ref = value as SessionRef | null;
  return typeof ref?.agentName === 'string' && typeof ref.sessionId === 'string';
}

/**
 * History and open tabs per workspace, in extension storage (workspaceState): what lets a
 * session survive a window reload, and what the history offers for agents without session/list.
 * Whatever is stored is checked when read: a corrupt entry is dropped, never trusted.
 */
export class SessionStore implements TabStore {
  constructor(private readonly memento: Memento) {}

  private read(): Saved {
    const raw = this.memento.get<Partial<Saved>>(KEY);
    const records = Array.isArray(raw?.records)
      ? raw.records.filter((r): r is SessionRecord => isRef(r) && typeof r.title === 'string' && typeof r.updatedAt === 'string')
      : [];
    const open = Array.isArray(raw?.open) ? raw.open.filter(isRef) : [];
    return { records, open, shown: isRef(raw?.shown) ? raw.shown : undefined };
  }

  private write(saved: Saved): Thenable<void> {
    return this.memento.update(KEY, saved);
  }

  /** Newest first; one agent's only when `agentName` is given. */
  records(agentName?: string): SessionRecord[] {
    const all = this.read().records;
    return agentName === undefined ? all : all.filter((r) => r.agentName === agentName);
  }

  /**
   * Adds or refreshes a session (it moves to the top), with its details (what is not given stays
   * as it was); the oldest beyond MAX_RECORDS are forgotten.
   */
  async remember(ref: SessionRef, title: string, details: SessionDetails = {}, now = new Date()): Promise<void> {
    const saved = this.read();
    const kept = this.details(ref);
    const roots = details.roots ?? kept?.roots;
    const forkOf = details.forkOf ?? kept?.forkOf;
    const record: SessionRecord = { agentName: ref.agentName, sessionId: ref.sessionId, title, updatedAt: now.toISOString(), ...(roots ? { roots } : {}), ...(forkOf ? { forkOf } : {}) };
    const records = [record, ...saved.records.filter((r) => !same(r, ref))];
    // A transcript outlives its place among the newest sessions only as long as that place.
    const dropped = records.length > MAX_TRANSCRIPTS ? records[MAX_TRANSCRIPTS] : undefined;
    if (dropped) await this.memento.update(transcriptKey(dropped), undefined);
    await this.write({ ...saved, records: records.slice(0, MAX_RECORDS) });
  }

  async forget(ref: SessionRef): Promise<void> {
    const saved = this.read();
    await this.memento.update(transcriptKey(ref), undefined);
    await this.write({ records: saved.records.filter((r) => !same(r, ref)), open: saved.open.filter((r) => !same(r, ref)), shown: saved.shown && same(saved.shown, ref) ? undefined : saved.shown });
  }

  /**
   * Keeps what a session showed, so it comes back after a reload even with an agent that cannot
   * replay it (no session/load). A huge entry is clipped (or marked as not saved) on its own; too
   * big a transcript loses its oldest entries, with a marker saying so (savedTranscript.ts).
   * `scrub` masks the agent's secrets in what is kept, and only there: masking the whole
   * transcript first made every turn's end dearer as the conversation grew (+7 ms at 100,000
   * entries, +17 ms at 200,000), where what is kept is bounded. Masking only shortens strings (no
   * secret is shorter than its mask), so the budget still holds.
   */
  saveTranscript(ref: SessionRef, entries: readonly EntryView[], scrub: <T>(value: T) => T = (value) => value): Thenable<void> {
    return this.memento.update(transcriptKey(ref), scrub(savedEntries(entries)));
  }

  /** The roots a session was opened with and what it is a fork of, as far as they are kept and valid. */
  details(ref: SessionRef): SessionDetails | undefined {
    const record = this.read().records.find((r) => same(r, ref));
    const parsed = DetailsSchema.safeParse(record);
    if (!parsed.success) return undefined;
    const { roots, forkOf } = parsed.data;
    return { ...(roots ? { roots } : {}), ...(forkOf ? { forkOf } : {}) };
  }

  /** The saved transcript, if there is one and it is still a valid one. */
  transcript(ref: SessionRef): EntryView[] | undefined {
    const parsed = StoredTranscriptSchema.safeParse(this.memento.get(transcriptKey(ref)));
    return parsed.success && parsed.data.length > 0 ? parsed.data : undefined;
  }

  /** The tabs to bring back after a reload, with their titles from the history. */
  openTabs(): { tabs: SessionRecord[]; shown?: SessionRef } {
    const saved = this.read();
    const tabs = saved.open.map((ref) => saved.records.find((r) => same(r, ref)) ?? { ...ref, title: '', updatedAt: '' });
    return { tabs, shown: saved.shown };
  }

  /**
   * Moves what is kept of one agent's sessions to another name (a preset renamed): the history,
   * the open tabs and the transcripts. Every update is made before this returns (a memento
   * changes at once; only the writing to disk is awaited), so a read right after sees the new name.
   */
  renameAgent(from: string, to: string): Thenable<unknown> {
    const saved = this.read();
    const rename = <T extends SessionRef>(ref: T): T => (ref.agentName === from ? { ...ref, agentName: to } : ref);
    const moved = [...saved.records, ...saved.open].filter((ref) => ref.agentName === from);
    if (moved.length === 0) return Promise.resolve();
    const writes: Thenable<void>[] = [];
    for (const ref of moved) {
      const transcript = this.memento.get(transcriptKey(ref));
      if (transcript === undefined) continue;
      // One the new name already has is the newer.
      if (this.memento.get(transcriptKey(rename(ref))) === undefined) writes.push(this.memento.update(transcriptKey(rename(ref)), transcript));
      writes.push(this.memento.update(transcriptKey(ref), undefined));
    }
    // A session known under both names is kept once, as its newest record.
    const records = saved.records.map(rename).filter((r, i, all) => all.findIndex((o) => same(o, r)) === i);
    writes.push(this.write({ records, open: saved.open.map(rename), shown: saved.shown && rename(saved.shown) }));
    return Promise.all(writes);
  }

  setOpenTabs(open: SessionRef[], shown: SessionRef | undefined): Thenable<void> {
    const saved = this.read();
    return this.write({ ...saved, open: open.map(({ agentName, sessionId }) => ({ agentName, sessionId })), shown: shown && { agentName: shown.agentName, sessionId: shown.sessionId } });
  }
}
