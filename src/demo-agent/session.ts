// Per-session state of the demo agent. Sessions live only in memory (loadSession is false).

import type { SessionId, SessionMode } from './acp-types';
import { DEFAULT_MODEL_ID, modelById } from './models';
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
  readonly usage = new Usage();

  constructor(
    readonly id: SessionId,
    readonly cwd: string,
    /** The client advertised session.configOptions.boolean in initialize. */
    readonly offersBooleanOptions: boolean,
  ) {}

  get modeName(): string {
    return MODES.find((m) => m.id === this.modeId)?.name ?? this.modeId;
  }

  get modelName(): string {
    return modelById(this.modelId)?.name ?? this.modelId;
  }
}
