// The open sessions across agents (SessionTabs) and what is kept of them per workspace
// (SessionStore): one process per agent shared by its tabs, the switcher's view, closing, and the
// records a window reload brings back, with a fake Memento.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts } from '../../src/runtime/ports';
import { MAX_RECORDS, MAX_TRANSCRIPTS, MAX_TRANSCRIPT_CHARS, SessionStore } from '../../src/host/sessions/sessionStore';
import { SessionTabs } from '../../src/session/sessionTabs';
import { currentEnv } from '../../src/agent/environment';
import { FakeMemento } from './helpers/memento';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };
const silent = { info() {}, warn() {}, error() {} };
const ports: AgentPorts = { readTextFile: async () => 'x', log: silent, onTrace: () => undefined };

const agent = (name: string): AgentDefinition => ({
  name,
  identity: 'test',
  launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], cwd: FIXTURES, env: currentEnv() }),
});

function tabs(memento = new FakeMemento()) {
  const store = new SessionStore(memento);
  let runtimes = 0;
  const tabs = new SessionTabs(
    {
      runtime: (a) => (runtimes++, new AgentRuntime(a, SETTINGS, ports)),
      session: (a, runtime, options) => new AgentSession(a, SETTINGS, ports, { ...options, runtime }),
    },
    store,
  );
  return { tabs, store, memento, runtimes: () => runtimes };
}

test('tabs across agents: one runtime per agent, the switcher view, closing shows the neighbour', async () => {
  const { tabs: t, store, runtimes } = tabs();
  const a1 = t.open(agent('Alpha'));
  const a2 = t.open(agent('Alpha'));
  const b1 = t.open(agent('Beta'));
  try {
    assert.equal(runtimes(), 2);
    assert.equal(a1.controller.runtime, a2.controller.runtime);
    t.show(a2.key);
    await Promise.all([a1.controller.start(), a2.controller.start(), b1.controller.start()]);
    await a2.controller.prompt('fix the tests');
    assert.deepEqual(
      t.views().map((v) => [v.agentName, v.label, v.phase]),
      [
        ['Alpha', 'New session', 'ready'],
        ['Alpha', 'fix the tests', 'ready'],
        ['Beta', 'New session', 'ready'],
      ],
    );
    assert.equal(a1.controller.runtime.current?.process.pid, a2.controller.runtime.current?.process.pid, 'one process for Alpha');

    // What a reload brings back: the tabs with an agent session id, and the shown one.
    const saved = store.openTabs();
    assert.deepEqual(saved.tabs.map((r) => r.sessionId), [a1, a2, b1].map((x) => x.controller.agentSessionId));
    assert.equal(saved.shown?.sessionId, a2.controller.agentSessionId);
    assert.equal(store.records('Alpha').find((r) => r.sessionId === a2.controller.agentSessionId)?.title, 'fix the tests');

    const next = await t.close(a2.key);
    assert.equal(next?.key, b1.key, 'the neighbour is shown');
    assert.equal(a2.controller.currentStatus.phase, 'idle');
    assert.ok(a1.controller.runtime.current, 'Alpha still runs for its other session');
    await t.close(a1.key);
    assert.equal(a1.controller.runtime.current, undefined, 'no Alpha session left: its process stopped');
    assert.deepEqual(store.openTabs().tabs.map((r) => r.agentName), ['Beta']);
    assert.ok(store.records('Alpha').length === 2, 'closed sessions stay in the history');
  } finally {
    await t.dispose();
  }
});

test('the store: newest first, bounded, forget, and corrupt entries are dropped rather than trusted', async () => {
  const memento = new FakeMemento();
  const store = new SessionStore(memento);
  for (let i = 0; i < MAX_RECORDS + 5; i++) await store.remember({ agentName: 'A', sessionId: `s${i}` }, `t${i}`, {}, new Date(1_700_000_000_000 + i));
  assert.equal(store.records().length, MAX_RECORDS);
  assert.equal(store.records()[0].sessionId, `s${MAX_RECORDS + 4}`);
  await store.remember({ agentName: 'A', sessionId: 's100' }, 'again');
  assert.equal(store.records()[0].title, 'again', 'used again: it moves to the top');
  assert.equal(store.records().filter((r) => r.sessionId === 's100').length, 1);

  await store.setOpenTabs([{ agentName: 'A', sessionId: 's100' }], { agentName: 'A', sessionId: 's100' });
  await store.forget({ agentName: 'A', sessionId: 's100' });
  assert.deepEqual(store.openTabs(), { tabs: [], shown: undefined });

  memento.values.set('acpHost.sessions', { records: [{ agentName: 'A', sessionId: 1 }, null, { agentName: 'A', sessionId: 'ok', title: 'x', updatedAt: 'y' }], open: 'nope' });
  assert.deepEqual(store.records().map((r) => r.sessionId), ['ok']);
  assert.deepEqual(store.openTabs().tabs, []);
});

test('transcripts: saved when a turn ends, restored when the session is opened again, bounded, and never trusted blindly', async () => {
  const { tabs: t, store, memento } = tabs();
  const first = t.open(agent('Alpha'));
  try {
    await first.controller.prompt('keep me');
    const ref = { agentName: 'Alpha', sessionId: first.controller.agentSessionId! };
    const saved = store.transcript(ref);
    assert.deepEqual(saved?.map((e) => e.kind), ['user', 'agent', 'turnEnd']);

    await t.close(first.key);
    const again = t.open(agent('Alpha'), { sessionId: ref.sessionId });
    const conversation = again.controller.transcript.entries.map((e) => (e.kind === 'user' || e.kind === 'agent' ? `${e.kind}:${e.text}` : e.kind));
    assert.deepEqual(conversation, ['user:keep me', 'agent:keep me', 'turnEnd'], 'shown before the agent is even started');
    assert.equal(again.controller.currentStatus.phase, 'idle');

    // Too big: the newest entries are kept.
    const big = Array.from({ length: 50 }, (_, i) => ({ kind: 'agent' as const, text: `${i} `.padEnd(MAX_TRANSCRIPT_CHARS / 20, 'x') }));
    await store.saveTranscript(ref, big);
    const kept = store.transcript(ref)!;
    assert.ok(kept.length < 50 && kept.length > 0);
    const last = kept.at(-1);
    assert.ok(last?.kind === 'agent' && last.text.startsWith('49 '), 'the newest entry is kept');
    assert.ok(JSON.stringify(kept).length <= MAX_TRANSCRIPT_CHARS);

    // Tampered with: ignored.
    memento.values.set(`acpHost.transcript/Alpha/${ref.sessionId}`, [{ kind: 'agent', text: 1 }]);
    assert.equal(store.transcript(ref), undefined);

    // Only the newest sessions keep theirs.
    await store.saveTranscript(ref, [{ kind: 'agent', text: 'old' }]);
    for (let i = 0; i < MAX_TRANSCRIPTS; i++) await store.remember({ agentName: 'Alpha', sessionId: `newer-${i}` }, 'n');
    assert.equal(store.transcript(ref), undefined, 'dropped with its place among the newest');
  } finally {
    await t.dispose();
  }
});

test('a saved transcript masks the secrets its agent was given; the live one keeps the text', async () => {
  const { tabs: t, store } = tabs();
  const tab = t.open(agent('Alpha'));
  try {
    tab.controller.runtime.secrets.add('sk-live-123456');
    await tab.controller.prompt('use sk-live-123456 now');
    const saved = store.transcript({ agentName: 'Alpha', sessionId: tab.controller.agentSessionId! });
    assert.deepEqual(saved?.map((e) => (e.kind === 'user' || e.kind === 'agent' ? e.text : e.kind)), ['use *** now', 'use *** now', 'turnEnd']);
    const first = tab.controller.transcript.entries[0];
    assert.ok(first?.kind === 'user' && first.text === 'use sk-live-123456 now');
  } finally {
    await t.dispose();
  }
});

test("a renamed preset: its history, open tabs and transcripts move to the new name at once; other agents' stay", async () => {
  const store = new SessionStore(new FakeMemento());
  const old = (sessionId: string) => ({ agentName: 'Claude Code', sessionId });
  const entries = [{ kind: 'user' as const, text: 'hello', attachments: [] }];
  await store.remember({ agentName: 'Codex', sessionId: 'c1' }, 'codex work', {}, new Date('2026-01-01'));
  await store.remember(old('a'), 'older claude work', {}, new Date('2026-01-02'));
  await store.remember(old('b'), 'claude work', {}, new Date('2026-01-03'));
  await store.saveTranscript(old('b'), entries);
  await store.setOpenTabs([old('b'), { agentName: 'Codex', sessionId: 'c1' }], old('b'));

  const written = store.renameAgent('Claude Code', 'Claude Agent');
  // Read before the writes settle: a window restoring its tabs right after sees the new name.

  assert.deepEqual(store.records().map((r) => [r.agentName, r.sessionId, r.title]), [
    ['Claude Agent', 'b', 'claude work'],
    ['Claude Agent', 'a', 'older claude work'],
    ['Codex', 'c1', 'codex work'],
  ]);
  assert.deepEqual(store.openTabs().tabs.map((r) => [r.agentName, r.sessionId]), [['Claude Agent', 'b'], ['Codex', 'c1']]);
  assert.deepEqual(store.openTabs().shown, { agentName: 'Claude Agent', sessionId: 'b' });
  assert.deepEqual(store.transcript({ agentName: 'Claude Agent', sessionId: 'b' }), entries);
  assert.equal(store.transcript(old('b')), undefined, 'the old key is gone');
  assert.deepEqual(store.records('Claude Code'), []);
  await written;
});

test('the store keeps a session\'s roots and fork origin with its record; what is given again replaces them, a corrupt one is dropped', async () => {
  const memento = new FakeMemento();
  const store = new SessionStore(memento);
  const ref = { agentName: 'Alpha', sessionId: 's1' };
  const roots = { cwd: '/ws/app', additionalDirectories: ['/ws/lib'] };
  const forkOf = { sessionId: 's0', title: 'the original', note: null };
  await store.remember(ref, 'first', { roots, forkOf });
  assert.deepEqual(store.details(ref), { roots, forkOf });
  await store.remember(ref, 'retitled');
  assert.deepEqual(store.details(ref), { roots, forkOf }, 'a title alone keeps them');
  await store.remember(ref, 'moved', { roots: { cwd: '/ws/lib', additionalDirectories: [] } });
  assert.deepEqual(store.details(ref)?.roots, { cwd: '/ws/lib', additionalDirectories: [] });
  assert.equal(store.details({ agentName: 'Alpha', sessionId: 'unknown' }), undefined);

  // Tampered with: each part that does not fit is dropped on its own.
  const saved = memento.get<{ records: Record<string, unknown>[] }>('acpHost.sessions')!;
  saved.records[0] = { ...saved.records[0], roots: { cwd: 1, additionalDirectories: 'x' } };
  await memento.update('acpHost.sessions', saved);
  assert.deepEqual(store.details(ref), { forkOf });
});
