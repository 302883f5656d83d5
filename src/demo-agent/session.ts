// Per-session state of the demo agent. What outlives the process (the conversation, title,
// mode, model, options) goes to disk through toStored; a turn, usage and the connection's
// capabilities live only while the session is open.

import type { SessionId, SessionMode } from './acp-types';
import { History } from './history';
import { DEFAULT_MODEL_ID, modelById } from './models';
import type { StoredSession } from './store';
import type { TurnIO } from './turn-io';
import { Usage } from './usage';

export const MODES: SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Answer and ask before every write' },
  { id: 'code', name: 'Code', description: 'Same demo turn; the mode is only reported back' },
];
export const DEFAULT_MODE_ID = 'ask';

export class DemoSession {
  /** Shared by the legacy modes and the `mode` config option, so the two never disagree. */
  modeId = DEFAULT_MODE_ID;
  modelId = DEFAULT_MODEL_ID;
  /** The `verbose` boolean config option; only offered when the client can show booleans. */
  verbose = false;
  /** The running prompt turn, if any (one turn at a time per session). */
  turn: TurnIO | undefined;
  /** Set when the user picked "always allow" / "always reject" for the demo write. */
  rememberedWrite: 'allow' | 'reject' | undefined;
  turnCount = 0;
  /** Set from the first prompt, as sent in session_info_update. */
  title: string | undefined;
  updatedAt = new Date().toISOString();
  history = History.empty();
  /** Set by session/delete: a turn still ending must not save the session back to disk. */
  deleted = false;
  readonly usage = new Usage();

  constructor(
    readonly id: SessionId,
    readonly cwd: string,
    /** The client advertised session.configOptions.boolean in initialize. */
    readonly offersBooleanOptions: boolean,
  ) {}

  /** A session brought back by session/load or session/resume; unknown modes and models fall back to the defaults. */
  static fromStored(stored: StoredSession, offersBooleanOptions: boolean): DemoSession {
    const session = new DemoSession(stored.sessionId, stored.cwd, offersBooleanOptions);
    if (MODES.some((m) => m.id === stored.modeId)) session.modeId = stored.modeId;
    if (typeof stored.modelId === 'string' && modelById(stored.modelId)) session.modelId = stored.modelId;
    session.verbose = stored.verbose === true;
    if (stored.rememberedWrite === 'allow' || stored.rememberedWrite === 'reject') session.rememberedWrite = stored.rememberedWrite;
    if (Number.isInteger(stored.turnCount) && stored.turnCount > 0) session.turnCount = stored.turnCount;
    if (typeof stored.title === 'string') session.title = stored.title;
    session.updatedAt = stored.updatedAt;
    session.history = History.fromJSON(stored.history);
    return session;
  }

  toStored(): StoredSession {
    return {
      sessionId: this.id,
      cwd: this.cwd,
      ...(this.title === undefined ? {} : { title: this.title }),
      updatedAt: this.updatedAt,
      modeId: this.modeId,
      modelId: this.modelId,
      verbose: this.verbose,
      turnCount: this.turnCount,
      ...(this.rememberedWrite ? { rememberedWrite: this.rememberedWrite } : {}),
      history: this.history.toJSON(),
    };
  }

  get modeName(): string {
    return MODES.find((m) => m.id === this.modeId)?.name ?? this.modeId;
  }

  get modelName(): string {
    return modelById(this.modelId)?.name ?? this.modelId;
  }
}
