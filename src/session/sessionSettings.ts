import type { AcpConnection } from '../agent/connection';
import { RequestAbortedError } from '../agent/connectionErrors';
import { agentMethods } from '../protocol/methods';
import type { SessionState } from './sessionState';
import type { Transcript } from './transcript';

/** Where a setting goes: the session's connection and id, while it is open. */
export type SettingsTarget = () => { connection: AcpConnection; sessionId: string } | undefined;

/**
 * What the user sets on the session from the panel's pickers: its mode (`session/set_mode`) and
 * its config options (`session/set_config_option`), shown at once and taken back if the agent
 * refuses. The panel's picker posts the value it was given and closes, so the host cannot see a
 * picker closed before the answer; the user moving on is seen instead: a pick for the same
 * option before the agent answered, or the session closing, cancels the request still waiting
 * (`$/cancel_request`), whose answer is then ignored.
 */
export class SessionSettings {
  /** The `session/set_config_option` requests waiting for the agent, by config id. */
  private readonly waiting = new Map<string, AbortController>();

  constructor(
    private readonly target: SettingsTarget,
    private readonly session: SessionState,
    private readonly transcript: Transcript,
  ) {}

  async setMode(modeId: string): Promise<void> {
    const target = this.target();
    const previous = this.session.currentModeId;
    if (!target || previous === undefined || previous === modeId) return;
    this.session.setCurrentMode(modeId);
    try {
      await target.connection.request(agentMethods.sessionSetMode, { sessionId: target.sessionId, modeId });
    } catch (error) {
      this.session.setCurrentMode(previous);
      this.transcript.addError(`The agent did not switch to mode ${modeId}: ${(error as Error).message}`);
    }
  }

  /** The answer is the complete new set (other options may change too). */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const target = this.target();
    if (!target) return;
    const { sessionId, connection } = target;
    const request = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean' as const, value } : { sessionId, configId, value };
    this.waiting.get(configId)?.abort();
    const mine = new AbortController();
    this.waiting.set(configId, mine);
    try {
      const result = await connection.request(agentMethods.sessionSetConfigOption, request, mine.signal);
      // No set in the answer (`null`, `{}`): the value was applied and nothing else changed.
      if (result.configOptions) this.session.setConfigOptions(result.configOptions);
      else this.session.setConfigValue(configId, value);
    } catch (error) {
      if (error instanceof RequestAbortedError) return; // the newer pick (or the closing) has the say
      // The picker shows the value the user picked: send it the unchanged state again.
      this.session.republish();
      this.transcript.addError(`The agent did not change ${configId}: ${(error as Error).message}`);
    } finally {
      if (this.waiting.get(configId) === mine) this.waiting.delete(configId);
    }
  }

  /** The session closes: every setting still waiting is cancelled. */
  abandon(): void {
    for (const request of this.waiting.values()) request.abort();
    this.waiting.clear();
  }
}
