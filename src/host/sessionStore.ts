/** The sessions this extension opened in a workspace, newest first: its history and its open tabs. */
export interface SessionRecord {
  agentName: string;
  /** The agent's id of the session. */
  sessionId: string;
  title: string;
  /** ISO 8601, when it was last used. */
  updatedAt: string;
}

/** A session by agent and id: what identifies it across window reloads. */
export interface SessionRef {
  agentName: string;
  sessionId: string;
}

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
export class SessionStore {
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

  /** Adds or refreshes a session (it moves to the top); the oldest beyond MAX_RECORDS are forgotten. */
  remember(ref: SessionRef, title: string, now = new Date()): Thenable<void> {
    const saved = this.read();
    const records = [{ ...ref, title, updatedAt: now.toISOString() }, ...saved.records.filter((r) => !same(r, ref))].slice(0, MAX_RECORDS);
    return this.write({ ...saved, records });
  }

  forget(ref: SessionRef): Thenable<void> {
    const saved = this.read();
    return this.write({ records: saved.records.filter((r) => !same(r, ref)), open: saved.open.filter((r) => !same(r, ref)), shown: saved.shown && same(saved.shown, ref) ? undefined : saved.shown });
  }

  /** The tabs to bring back after a reload, with their titles from the history. */
  openTabs(): { tabs: SessionRecord[]; shown?: SessionRef } {
    const saved = this.read();
    const tabs = saved.open.map((ref) => saved.records.find((r) => same(r, ref)) ?? { ...ref, title: '', updatedAt: '' });
    return { tabs, shown: saved.shown };
  }

  setOpenTabs(open: SessionRef[], shown: SessionRef | undefined): Thenable<void> {
    const saved = this.read();
    return this.write({ ...saved, open: open.map(({ agentName, sessionId }) => ({ agentName, sessionId })), shown: shown && { agentName: shown.agentName, sessionId: shown.sessionId } });
  }
}
