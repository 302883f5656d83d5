import type { ConnectionLog } from '../agent/connection';
import type { SessionUpdate } from '../protocol';
import type { SessionState } from './sessionState';
import type { Transcript } from './transcript';

/**
 * Who folds each kind of `session/update`: the transcript (what was said and done, in order) or
 * the session state (what holds now: commands, mode, config, title, usage). One table, which the
 * compiler checks names every kind, so a kind added to the protocol cannot fall between the two.
 */
const FOLDED_BY: Record<SessionUpdate['sessionUpdate'], 'transcript' | 'state' | 'ignored'> = {
  user_message_chunk: 'transcript',
  agent_message_chunk: 'transcript',
  agent_thought_chunk: 'transcript',
  tool_call: 'transcript',
  tool_call_update: 'transcript',
  plan: 'transcript',
  plan_update: 'transcript',
  plan_removed: 'transcript',
  notice: 'transcript',
  compaction_update: 'transcript',
  compaction_summary_chunk: 'transcript',
  available_commands_update: 'state',
  current_mode_update: 'state',
  config_option_update: 'state',
  session_info_update: 'state',
  usage_update: 'state',
  unknown: 'ignored',
};

/** One session's fold: every update the agent streams lands in exactly one of its parts, which is returned. */
export function foldUpdate(update: SessionUpdate, parts: { transcript: Transcript; session: SessionState; log: ConnectionLog }): 'transcript' | 'state' | 'ignored' {
  const by = FOLDED_BY[update.sessionUpdate];
  switch (by) {
    case 'transcript':
      // Only an update naming a card of ACP Host's own is refused (toolCards.ts `hostCard`).
      if (!parts.transcript.apply(update) && 'toolCallId' in update) parts.log.warn(`Ignored the agent's ${update.sessionUpdate} for tool call ${update.toolCallId}: that card is ACP Host's own`);
      break;
    case 'state':
      parts.session.apply(update);
      break;
    case 'ignored':
      if (update.sessionUpdate === 'unknown') parts.log.info(`Ignored session/update of unknown kind ${update.kind}`);
  }
  return by;
}
