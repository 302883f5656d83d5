import { agentPresets } from '../../runtime/presets';
import type { AgentSecrets } from '../auth/authPorts';
import type { SessionStore } from '../sessions/sessionStore';

/**
 * A preset renamed in a release ("Claude Code", now "Claude Agent") keeps what users had under
 * its former name. What ACP Host saved itself moves to the new name: the workspace's session
 * history, open tabs and transcripts at once (so the tabs come back right after), the secrets
 * stored for the agent in the background (the returned promise; a start waits for it). Not while
 * an agent still goes by the former name (an acpHost.agents entry that replaces the preset under
 * it): what was saved is then that agent's. Settings are not rewritten: `findAgent` and
 * `listAgents` (agentConfig.ts) read a former name as the preset's. Once moved, nothing is left
 * to move: this costs a read at every activation.
 */
export function carryOverRenamedPresets(listedNames: readonly string[], store: SessionStore, secrets: AgentSecrets): Promise<unknown> {
  const renames = agentPresets().flatMap((preset) => preset.formerNames.filter((former) => !listedNames.includes(former)).map((former) => ({ from: former, to: preset.name })));
  const stored = renames.map(({ from, to }) => store.renameAgent(from, to));
  return Promise.all([...stored, ...renames.map(({ from, to }) => secrets.renameAgent(from, to))]);
}
