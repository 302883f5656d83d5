// Where the demo agent keeps its sessions between runs: one JSON file per workspace, named from a
// hash of the cwd, in the state directory (see main.ts). A file keeps the 50 most recently active
// sessions of its workspace. Writes go to a temp file that is then renamed over the old one, so a
// crash mid-write never leaves half a file; a file that is missing or unreadable counts as empty
// (logged), since losing demo history must never stop the agent. Every call reads the file
// afresh: another window's agent may share it.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { log } from './log';

export interface StoredSession {
  sessionId: string;
  cwd: string;
  title?: string;
  /** ISO 8601, the last turn (or the creation). */
  updatedAt: string;
  modeId: string;
  modelId: string;
  verbose: boolean;
  /** Numbers the turns, hence the tool call ids, which must stay unique in the session. */
  turnCount: number;
  rememberedWrite?: 'allow' | 'reject';
  /** History.toJSON(); checked by History.fromJSON when read. */
  history: unknown;
}

const MAX_SESSIONS_PER_WORKSPACE = 50;
const FILE_NAME = /^[0-9a-f]{16}\.json$/;

export class SessionStore {
  constructor(private readonly dir: string) {}

  /** The sessions of one workspace, or of all of them; most recently active first. */
  list(cwd?: string): StoredSession[] {
    const files = cwd === undefined ? this.allFiles() : [this.fileFor(cwd)];
    return files.flatMap((f) => this.read(f)).sort(newestFirst);
  }

  find(sessionId: string): StoredSession | undefined {
    return this.list().find((s) => s.sessionId === sessionId);
  }

  save(session: StoredSession): void {
    const file = this.fileFor(session.cwd);
    const others = this.read(file).filter((s) => s.sessionId !== session.sessionId);
    this.write(file, [session, ...others].sort(newestFirst).slice(0, MAX_SESSIONS_PER_WORKSPACE));
  }

  /** Removes the session from whichever workspace file holds it; unknown ids are no error. */
  remove(sessionId: string): void {
    for (const file of this.allFiles()) {
      const sessions = this.read(file);
      const kept = sessions.filter((s) => s.sessionId !== sessionId);
      if (kept.length !== sessions.length) this.write(file, kept);
    }
  }

  private fileFor(cwd: string): string {
    return path.join(this.dir, `${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}.json`);
  }

  private allFiles(): string[] {
    try {
      return fs.readdirSync(this.dir).filter((name) => FILE_NAME.test(name)).map((name) => path.join(this.dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log(`cannot list ${this.dir}:`, String(err));
      return [];
    }
  }

  private read(file: string): StoredSession[] {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log(`cannot read ${file}, starting empty:`, String(err));
      return [];
    }
    try {
      const sessions = (JSON.parse(text) as { sessions?: unknown }).sessions;
      if (!Array.isArray(sessions)) throw new Error('no "sessions" array');
      return sessions.filter(isStoredSession);
    } catch (err) {
      log(`ignoring the corrupt state file ${file} (it is replaced on the next save):`, String(err));
      return [];
    }
  }

  private write(file: string, sessions: StoredSession[]): void {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(temp, JSON.stringify({ version: 1, sessions }));
      fs.renameSync(temp, file);
    } catch (err) {
      log(`cannot save sessions to ${file}:`, String(err));
      try {
        fs.rmSync(temp, { force: true });
      } catch {
        // Left behind: the next write of this process reuses the name, and readers skip it.
      }
    }
  }
}

/** Most recently active first; ties by id, so that the order (and a list cursor) is stable. */
export function newestFirst(a: Pick<StoredSession, 'updatedAt' | 'sessionId'>, b: Pick<StoredSession, 'updatedAt' | 'sessionId'>): number {
  return compare(b.updatedAt, a.updatedAt) || compare(a.sessionId, b.sessionId);
}

/** Code-unit order, the same in every locale (ISO 8601 times sort as text). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The fields every reader relies on; the rest is checked where it is used. */
function isStoredSession(value: unknown): value is StoredSession {
  const v = value as Partial<Record<string, unknown>> | null;
  return typeof v?.sessionId === 'string' && typeof v.cwd === 'string' && path.isAbsolute(v.cwd) && typeof v.updatedAt === 'string';
}
