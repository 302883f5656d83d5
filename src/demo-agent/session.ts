// Per-session state of the demo agent. Sessions live only in memory (loadSession is false).

import type { SessionId, SessionMode } from './acp-types';
import type { TurnIO } from './turn-io';

export const MODES: SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Answer and ask before every write' },
  { id: 'code', name: 'Code', description: 'Same demo turn; the mode is only reported back' },
];
export const DEFAULT_MODE_ID = 'ask';

export class DemoSession {
  modeId = DEFAULT_MODE_ID;
  /** The running prompt turn, if any (one turn at a time per session). */
  turn: TurnIO | undefined;
  /** Set when the user picked "always allow" / "always reject" for the demo write. */
  rememberedWrite: 'allow' | 'reject' | undefined;
  turnCount = 0;

  constructor(
    readonly id: SessionId,
    readonly cwd: string,
  ) {}

  get modeName(): string {
    return MODES.find((m) => m.id === this.modeId)?.name ?? this.modeId;
  }
}
