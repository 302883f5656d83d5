import { agentPresets } from '../../runtime/presets';
import type { SessionStore } from '../sessions/sessionStore';

/**
 * A preset renamed in a release ("Claude Code", now "Claude Agent") keeps what users had under
 * its former name. The workspace's session history, open tabs and transcripts move to the new
 * name, at once (so the tabs come back right after); not while an agent still goes by the former
 * name (an acpHost.agents entry that replaces the preset under it): they are then that agent's.
 * Secrets move on their own (auth/authPorts.ts, by the preset's identity). Settings are not
 * rewritten: `findAgent` (runtime/presets.ts) and the agent list read a former name as the
 * preset's. Once moved, nothing is left to move: this costs a read at every activation.
 */
export function carryOverRenamedPresets(listedNames: readonly string[], store: SessionStore): Thenable<unknown> {
  const renames = agentPresets().flatMap((preset) => preset.formerNames.filter((former) => !listedNames.includes(former)).map((former) => ({ from: former, to: preset.name })));
  return Promise.all(renames.map(({ from, to }) => store.renameAgent(from, to)));
}
