// What the Claude Agent adapter (claude-agent-acp 0.101.0) sends a client that does not advertise
// the unstable `subagents` capability: the Agent/Task tool call, then each tool call of the
// subagent it started with `_meta.claudeCode.parentToolUseId` naming that call (and
// `claudeCode.toolName`). The fold nests those cards under their parent, each with its own status;
// any other `_meta` changes nothing, and the view the panel validates carries the nesting.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parentToolCallIdOf, SessionUpdateSchema } from '../../src/protocol';
import type { ToolEntry } from '../../src/session/model';
import { SessionState } from '../../src/session/sessionState';
import { foldUpdate } from '../../src/session/fold';
import { Transcript } from '../../src/session/transcript';
import { entriesView } from '../../src/view/projection';
import { EntryViewSchema } from '../../src/webview-protocol/entries';

/** A fake Claude Agent adapter's session/update stream for one turn that delegates to a subagent. */
const CLAUDE_SUBAGENT_TURN = [
  { sessionUpdate: 'tool_call', toolCallId: 'toolu_task', name: 'Agent', title: 'Explore the tests', kind: 'think', status: 'pending', rawInput: { description: 'Explore the tests', subagent_type: 'Explore' }, _meta: { claudeCode: { toolName: 'Agent' } } },
  { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_task', status: 'in_progress', _meta: { claudeCode: { toolName: 'Agent' } } },
  { sessionUpdate: 'tool_call', toolCallId: 'toolu_read', name: 'Read', title: 'Read test/a.ts', kind: 'read', status: 'pending', _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'toolu_task' } } },
  { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_read', status: 'completed', _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'toolu_task' } } },
  { sessionUpdate: 'tool_call', toolCallId: 'toolu_grep', name: 'Grep', title: 'grep "describe"', kind: 'search', status: 'in_progress', _meta: { claudeCode: { toolName: 'Grep', parentToolUseId: 'toolu_task' } } },
  // A later update that loses the meta keeps the card where it is.
  { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_grep', status: 'failed' },
  { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_task', status: 'completed', _meta: { claudeCode: { toolName: 'Agent' } } },
];

function foldAll(updates: unknown[]): ToolEntry[] {
  const transcript = new Transcript();
  const session = new SessionState();
  const log = { info() {}, warn() {}, error() {} };
  for (const u of updates) foldUpdate(SessionUpdateSchema.parse(u), { transcript, session, log });
  return transcript.entries.filter((e): e is ToolEntry => e.kind === 'tool');
}

test('subagents: a tool call whose _meta names the Agent/Task call that started it is nested under it, with its own status', () => {
  const cards = foldAll(CLAUDE_SUBAGENT_TURN);
  assert.deepEqual(
    cards.map((c) => [c.toolCallId, c.name, c.status, c.parentToolCallId]),
    [
      ['toolu_task', 'Agent', 'completed', undefined],
      ['toolu_read', 'Read', 'completed', 'toolu_task'],
      ['toolu_grep', 'Grep', 'failed', 'toolu_task'],
    ],
  );
  // The panel validates what it is sent: the nesting crosses the boundary as a plain id.
  const views = entriesView(cards).map((view) => EntryViewSchema.parse(view));
  assert.deepEqual(views.map((v) => (v.kind === 'tool' ? v.parentToolCallId : null)), [undefined, 'toolu_task', 'toolu_task']);
});

test('subagents: only a well-formed claudeCode.parentToolUseId nests; other _meta, a malformed one or a card naming itself do not', () => {
  assert.equal(parentToolCallIdOf({ claudeCode: { parentToolUseId: 'toolu_task' } }), 'toolu_task');
  for (const meta of [undefined, null, {}, { claudeCode: {} }, { claudeCode: { parentToolUseId: 7 } }, { claudeCode: { parentToolUseId: '' } }, { parentToolUseId: 'x' }, { claudeCode: 'x' }]) {
    assert.equal(parentToolCallIdOf(meta as Record<string, unknown> | null | undefined), undefined, JSON.stringify(meta));
  }
  const cards = foldAll([
    { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', _meta: { claudeCode: { parentToolUseId: 7 } } },
    { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', _meta: { claudeCode: { parentToolUseId: 'b' } } },
  ]);
  assert.deepEqual(cards.map((c) => c.parentToolCallId), [undefined, undefined]);
});
