// The sessions open on this connection, and the way to and from the store on disk. A session is
// saved when it is created, when its mode or options change and after every turn, so that a new
// agent process (a restart, a window reload) can bring it back with session/load or /resume.

import { DemoSession } from './session';
import type { SessionStore, StoredSession } from './store';
import { ErrorCodes, RpcError } from './wire';

export class Sessions {
  private readonly open = new Map<string, DemoSession>();

  constructor(private readonly store: SessionStore) {}

  /** An open session, else -32002. */
  get(sessionId: unknown): DemoSession {
    const session = this.find(sessionId);
    if (!session) throw new RpcError(ErrorCodes.resourceNotFound, `Unknown sessionId ${JSON.stringify(sessionId)}`);
    return session;
  }

  find(sessionId: unknown): DemoSession | undefined {
    return typeof sessionId === 'string' ? this.open.get(sessionId) : undefined;
  }

  add(session: DemoSession): void {
    this.open.set(session.id, session);
    this.save(session);
  }

  /** The session, open already or read from disk; undefined when it is unknown (or deleted). */
  reopen(sessionId: string, offersBooleanOptions: boolean): DemoSession | undefined {
    const open = this.open.get(sessionId);
    if (open) return open;
    const stored = this.store.find(sessionId);
    if (!stored) return undefined;
    const session = DemoSession.fromStored(stored, offersBooleanOptions);
    this.open.set(session.id, session);
    return session;
  }

  save(session: DemoSession): void {
    if (!session.deleted) this.store.save(session.toStored());
  }

  /** Ends the running turn as session/cancel would and forgets the session here; it stays on disk. */
  close(sessionId: string): void {
    const session = this.open.get(sessionId);
    session?.turn?.cancel();
    this.open.delete(sessionId);
  }

  delete(sessionId: string): void {
    const session = this.open.get(sessionId);
    if (session) session.deleted = true;
    this.close(sessionId);
    this.store.remove(sessionId);
  }

  /**
   * What session/list offers: sessions with at least one prompt, newest first. One opened and
   * left empty can still be loaded, but is no conversation worth a place in a history.
   */
  listed(cwd?: string): StoredSession[] {
    return this.store.list(cwd).filter((s) => Array.isArray(s.history) && s.history.length > 0);
  }
}
