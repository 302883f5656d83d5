// "Fork from here" (UNSTABLE session/fork): what a fork of the user message at an index copies and
// says (pure), then end to end over SessionTabs with a real process
// (test/fixtures/agents/fork-agent.js, which checks the fork request and answers each prompt with
// the id of the session it reached): the new tab shows the conversation up to that message, opens
// with session/fork (valid against the official unstable schema), prompts go to the fork's id, and
// the fork (its transcript, header and roots) is kept like any session and comes back after a reload.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { SessionStore } from '../../src/host/sessions/sessionStore';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts } from '../../src/runtime/ports';
import { AgentSession } from '../../src/session/agentSession';
import { conversationThrough, planFork } from '../../src/session/fork';
import type { ForkSource } from '../../src/session/fork';
import type { Entry } from '../../src/session/model';
import { SessionTabs } from '../../src/session/sessionTabs';
import { FakeMemento } from './helpers/memento';
import { unstableSpecValidator } from './helpers/officialSchema';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, additionalDirectories: [path.join(FIXTURES, '..')], clientVersion: '0.0.0-test' };
const silent = { info() {}, warn() {}, error() {} };
const ports: AgentPorts = { readTextFile: async () => 'x', log: silent, onTrace: () => undefined };

const CONVERSATION: Entry[] = [
  { kind: 'user', text: 'one' },
  { kind: 'agent', text: 'first answer' },
  { kind: 'tool', toolCallId: 't1', title: 'Read a', toolKind: 'read', status: 'completed', content: [], locations: [] },
  { kind: 'turnEnd', stopReason: 'end_turn' },
  { kind: 'user', text: 'two' },
  { kind: 'agent', text: 'second answer' },
  { kind: 'turnEnd', stopReason: 'end_turn' },
  { kind: 'user', text: 'three' },
  { kind: 'agent', text: 'third answer' },
  { kind: 'turnEnd', stopReason: 'end_turn' },
];

function source(overrides: Partial<ForkSource> = {}): ForkSource {
  return {
    runtime: { features: new Set(['fork' as const]) },
    agentName: 'Forky',
    currentSessionId: 's-1',
    currentStatus: { agentName: 'Forky', phase: 'ready' },
    transcript: { entries: CONVERSATION },
    label: 'Fix the parser',
    ...overrides,
  };
}

test('the copy runs to the end of the message\'s turn: up to the next message of the user', () => {
  assert.deepEqual(conversationThrough(CONVERSATION, 0), CONVERSATION.slice(0, 4));
  assert.deepEqual(conversationThrough(CONVERSATION, 4), CONVERSATION.slice(0, 7));
  assert.deepEqual(conversationThrough(CONVERSATION, 7), CONVERSATION);
});

test('the latest message forks exactly; an earlier one says the agent\'s copy still holds the later turns', () => {
  const latest = planFork(source(), 7);
  assert.deepEqual(latest.entries, CONVERSATION);
  assert.deepEqual(latest.origin, { sessionId: 's-1', title: 'Fix the parser', note: null });

  const earlier = planFork(source(), 0);
  assert.deepEqual(earlier.entries, CONVERSATION.slice(0, 4));
  assert.equal(earlier.origin.note, "The agent's copy of the conversation still includes the 2 later turns (ACP's session/fork copies the whole session): it may refer to them.");
  assert.match(planFork(source(), 4).origin.note ?? '', /the 1 later turn \(/);
});

test('a fork is refused, in words, when the agent does not fork, the session is not open, a turn runs, or the entry is not the user\'s', () => {
  assert.throws(() => planFork(source({ runtime: { features: new Set() } }), 0), /Forky does not offer session\/fork/);
  assert.throws(() => planFork(source({ currentSessionId: undefined }), 0), /not open on its agent/);
  assert.throws(() => planFork(source({ currentStatus: { agentName: 'Forky', phase: 'prompting' } }), 0), /A turn is running/);
  assert.throws(() => planFork(source(), 1), /Entry 1 is not one of your messages/);
  assert.throws(() => planFork(source(), 99), /Entry 99 is not one of your messages/);
});

const agent = (fixture: string, env: Record<string, string> = {}): AgentDefinition => ({
  name: 'Forky',
  identity: 'test',
  launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, fixture)], cwd: FIXTURES, env: { ...currentEnv(), ...env } }),
});

function tabs(memento = new FakeMemento()) {
  const store = new SessionStore(memento);
  const t = new SessionTabs(
    {
      runtime: (a) => new AgentRuntime(a, SETTINGS, ports),
      session: (a, runtime, options) => new AgentSession(a, SETTINGS, ports, { ...options, runtime }),
    },
    store,
  );
  return { tabs: t, store, memento };
}

const texts = (c: AgentSession) => c.transcript.entries.map((e) => (e.kind === 'user' || e.kind === 'agent' ? `${e.kind}:${e.text}` : e.kind));

test('Fork from an earlier message: a new tab with the conversation up to it, opened with session/fork, its prompts going to the fork', async () => {
  const { tabs: t, store, memento } = tabs();
  const forky = agent('fork-agent.js', { FAKE_ROOTS: '1' });
  const original = t.open(forky);
  try {
    await original.controller.start();
    assert.equal(original.controller.session.view.canFork, true, 'advertised: the messages offer "Fork from here"');
    await original.controller.prompt('one');
    await original.controller.prompt('two');
    const originalId = original.controller.currentSessionId!;

    const fork = t.fork(original.key, 0);
    assert.deepEqual(texts(fork.controller), ['user:one', `agent:${originalId} heard: one`, 'turnEnd'], 'shown before it is even started');
    assert.deepEqual(fork.controller.session.view.forkOf, { title: 'one', note: "The agent's copy of the conversation still includes the 1 later turn (ACP's session/fork copies the whole session): it may refer to them." });
    assert.equal(fork.controller.label, 'one (fork)');

    await fork.controller.start();
    const forkId = fork.controller.currentSessionId;
    assert.equal(forkId, `fork-1-of-${originalId}`, 'the agent forked the original, checking the request');
    await fork.controller.prompt('three');
    assert.deepEqual(texts(fork.controller).slice(-3), ['user:three', `agent:${forkId} heard: three`, 'turnEnd'], 'the prompt reached the fork');
    assert.deepEqual(texts(original.controller).slice(-2), [`agent:${originalId} heard: two`, 'turnEnd'], 'not the original');

    // On the wire: valid against the official unstable schema, with the original's roots.
    await original.controller.prompt('__report__');
    const report = original.controller.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
    const messages = JSON.parse(report?.kind === 'agent' ? report.text : '[]') as { method?: string; params?: Record<string, unknown> }[];
    const forkRequest = messages.find((m) => m.method === 'session/fork');
    assert.deepEqual(unstableSpecValidator('ForkSessionRequest')(forkRequest?.params), []);
    assert.deepEqual(forkRequest?.params, { sessionId: originalId, cwd: FIXTURES, additionalDirectories: [path.join(FIXTURES, '..')], mcpServers: [] });

    // Kept like any session: its record (roots, what it is a fork of) and its transcript.
    const ref = { agentName: 'Forky', sessionId: forkId! };
    assert.deepEqual(store.details(ref), { roots: fork.controller.origin.roots, forkOf: { sessionId: originalId, title: 'one', note: fork.controller.session.view.forkOf?.note } });
    assert.deepEqual(store.transcript(ref)?.slice(0, 3).map((e) => e.kind), ['user', 'agent', 'turnEnd']);
    assert.ok(store.openTabs().tabs.some((r) => r.sessionId === forkId));

    // A window reload: the fork comes back with its conversation and its header, and loads (not forks) when started.
    await t.dispose();
    const again = tabs(memento);
    const back = again.tabs.open(forky, { sessionId: forkId });
    try {
      assert.deepEqual(texts(back.controller).slice(0, 3), ['user:one', `agent:${originalId} heard: one`, 'turnEnd']);
      assert.equal(back.controller.session.view.forkOf?.title, 'one');
      assert.deepEqual(back.controller.origin.roots, fork.controller.origin.roots);
    } finally {
      await again.tabs.dispose();
    }
  } finally {
    await t.dispose();
  }
});

test('Fork from the latest message copies the whole conversation, and says nothing more', async () => {
  const { tabs: t } = tabs();
  const original = t.open(agent('fork-agent.js'));
  try {
    await original.controller.prompt('only');
    const fork = t.fork(original.key, 0);
    assert.deepEqual(texts(fork.controller), texts(original.controller));
    assert.equal(fork.controller.session.view.forkOf?.note, null);
    await fork.controller.start();
    assert.match(fork.controller.currentSessionId ?? '', /^fork-1-of-/);
  } finally {
    await t.dispose();
  }
});

test('an agent that does not advertise session/fork offers no "Fork from here", and a fork of its session is refused', async () => {
  const { tabs: t } = tabs();
  const plain = t.open(agent('well-behaved.js'));
  try {
    await plain.controller.prompt('hello');
    assert.equal(plain.controller.session.view.canFork, false);
    assert.throws(() => t.fork(plain.key, 0), /Forky does not offer session\/fork/);
    assert.equal(t.all.length, 1, 'no tab opened');
  } finally {
    await t.dispose();
  }
});
