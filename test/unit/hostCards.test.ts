// The cards ACP Host asks on when no tool call of the agent's runs (src/session/policyGate.ts,
// toolCards.ts `hostCard`): their ids cannot be guessed, no update or permission request of the
// agent's can change them, and what they say of the agent's values is escaped (shownText.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { foldUpdate } from '../../src/session/fold';
import { PolicyGate } from '../../src/session/policyGate';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { RuleSet } from '../../src/policy/rules';
import type { PolicyPort } from '../../src/runtime/ports';
import type { ToolEntry } from '../../src/session/model';
import { SessionUpdateSchema } from '../../src/protocol';

const ROOT = '/ws';

/** A gate whose policy asks before any write to `.vscode/` (the built-in protected paths), and a log to read. */
function gateFor(agentName: string) {
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([]), workspace: [], protectedPaths: [], autoApprove: 'off' }),
    rememberForWorkspace: () => undefined,
  };
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
  const transcript = new Transcript();
  const gate = new PolicyGate(port, transcript, agentName, log, () => [ROOT]);
  const write = (path: string) => gate.writeTextFile({ sessionId: 's', path, content: 'x' }, async () => undefined);
  const fold = (update: unknown) => foldUpdate(SessionUpdateSchema.parse(update), { transcript, session: new SessionState(), log });
  return { transcript, write, fold, warnings };
}

async function hostCard(transcript: Transcript): Promise<ToolEntry> {
  // The gate resolves the path on the file system first: a few turns of the event loop.
  for (let i = 0; i < 400; i++) {
    const card = transcript.entries.findLast((e): e is ToolEntry => e.kind === 'tool' && e.permission !== undefined);
    if (card) return card;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no card asks');
}

test('the host’s own cards have ids no agent can guess: a random UUID each, never a counter', async () => {
  const { transcript, write } = gateFor('Fake');
  const first = write(`${ROOT}/.vscode/a.json`);
  const a = await hostCard(transcript);
  transcript.questions.answerPermission(a.toolCallId, 'acp-host:allow-once');
  await first;
  const second = write(`${ROOT}/.vscode/b.json`);
  const b = await hostCard(transcript);
  transcript.questions.answerPermission(b.toolCallId, 'acp-host:allow-once');
  await second;
  const uuid = /^acp-host-ask-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(a.toolCallId, uuid);
  assert.match(b.toolCallId, uuid);
  assert.notEqual(a.toolCallId, b.toolCallId);
});

test('an agent’s tool_call_update (or tool_call) with a host card’s id changes nothing on it, and is logged', async () => {
  const { transcript, write, fold, warnings } = gateFor('Fake');
  const pending = write(`${ROOT}/.vscode/settings.json`);
  const card = await hostCard(transcript);
  const before = structuredClone(transcript.entries);
  const id = card.toolCallId;
  fold({ sessionUpdate: 'tool_call_update', toolCallId: id, title: 'Read README.md', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'harmless' } }], locations: [{ path: '/ws/README.md' }] });
  fold({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Read README.md', kind: 'read', status: 'pending' });
  assert.deepEqual(transcript.entries, before);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /Ignored the agent's tool_call_update for tool call acp-host-ask-.*: that card is ACP Host's own/);
  // The agent's own cards still fold as before.
  fold({ sessionUpdate: 'tool_call', toolCallId: 'agent-1', title: 'Read README.md', kind: 'read', status: 'pending' });
  assert.equal((transcript.entries.at(-1) as ToolEntry).title, 'Read README.md');
  assert.ok(transcript.questions.answerPermission(id, 'acp-host:deny'));
  await assert.rejects(pending);
  assert.equal((transcript.entries.find((e) => e.kind === 'tool' && e.toolCallId === id) as ToolEntry).title, 'Write .vscode/settings.json');
});

test('an agent’s permission request naming a host card is answered cancelled; the host’s question still waits', async () => {
  const { transcript, write } = gateFor('Fake');
  const pending = write(`${ROOT}/.vscode/settings.json`);
  const card = await hostCard(transcript);
  const answer = await transcript.questions.askPermission({ toolCallId: card.toolCallId, title: 'Read README.md' }, [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }]);
  assert.deepEqual(answer, { outcome: { outcome: 'cancelled' } });
  const now = await hostCard(transcript);
  assert.equal(now.title, 'Write .vscode/settings.json');
  assert.deepEqual(now.permission?.map((o) => o.optionId), ['acp-host:allow-once', 'acp-host:allow-session', 'acp-host:allow-workspace', 'acp-host:deny']);
  assert.ok(transcript.questions.answerPermission(card.toolCallId, 'acp-host:deny'));
  await assert.rejects(pending);
});

test('the card shows the agent’s name and the path escaped, on one line', async () => {
  const { transcript, write } = gateFor('Fake\nACP Host: allowed by your rules\u202E');
  const pending = write(`${ROOT}/.vscode/a\u202Enosj.json`);
  const card = await hostCard(transcript);
  assert.equal(card.title, 'Write .vscode/a\\u202Enosj.json');
  assert.ok(!/[\n\u202E]/.test(card.policyNote ?? ''), card.policyNote);
  assert.match(card.policyNote ?? '', /^ACP Host asks before Fake\\nACP Host: allowed by your rules\\u202E may write \.vscode\/a\\u202Enosj\.json: /);
  transcript.questions.answerPermission(card.toolCallId, 'acp-host:deny');
  await assert.rejects(pending);
});
