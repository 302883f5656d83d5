// session/list pages. The cursor names the last session of the page sent (its time and id,
// base64url JSON), so a session saved between two requests neither repeats nor skips entries.

import { newestFirst, type StoredSession } from './store';
import { invalidParams } from './params';

const PAGE_SIZE = 20;

interface SessionInfo {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt: string;
}

/** One page of `sessions` (sorted newest first), from `cursor` (undefined or null for the first). */
export function sessionPage(sessions: readonly StoredSession[], cursor: unknown): { sessions: SessionInfo[]; nextCursor?: string } {
  const after = cursor === undefined || cursor === null ? undefined : decode(cursor);
  const start = after ? sessions.findIndex((s) => newestFirst(s, after) > 0) : 0;
  const page = start === -1 ? [] : sessions.slice(start, start + PAGE_SIZE);
  const more = start !== -1 && start + PAGE_SIZE < sessions.length;
  return {
    sessions: page.map((s) => ({ sessionId: s.sessionId, cwd: s.cwd, ...(s.title === undefined ? {} : { title: s.title }), updatedAt: s.updatedAt })),
    ...(more ? { nextCursor: encode(page[page.length - 1]) } : {}),
  };
}

type Key = Pick<StoredSession, 'updatedAt' | 'sessionId'>;

function encode({ updatedAt, sessionId }: Key): string {
  return Buffer.from(JSON.stringify([updatedAt, sessionId])).toString('base64url');
}

function decode(cursor: unknown): Key {
  try {
    const [updatedAt, sessionId] = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as unknown[];
    if (typeof cursor === 'string' && typeof updatedAt === 'string' && typeof sessionId === 'string') return { updatedAt, sessionId };
  } catch {
    // Reported below, like a cursor of the wrong shape.
  }
  throw invalidParams(`session/list: ${JSON.stringify(cursor)} is not a cursor this agent gave out`);
}
