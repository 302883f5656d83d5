// Sessions of an agent that offers neither session/load nor session/resume but keeps its sessions
// across processes (test/fixtures/agents/reattach-agent.js, whose memory and request log are a
// state folder): after a restart, a window reload (the store's tabs, as AgentHost.restoreTabs
// opens them) or a pick from the history, the next prompt goes to the saved session id; when the
// agent answers that first prompt with any error (-32002, its own words, or the ACP SDK's -32603
// "Internal error" with the reason in data.details) a new session is opened and the same prompt
// (its attachments too) sent there; a later error is an ordinary error.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts } from '../../src/runtime/ports';
import { SessionStore } from '../../src/host/sessions/sessionStore';
import { SessionTabs } from '../../src/session/sessionTabs';
import { currentEnv } from '../../src/agent/environment';
import { FakeMemento } from './helpers/memento';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };
const silent = { info() {}, warn() {}, error() {} };
const ports: AgentPorts = { readTextFile: async () => 'x', log: silent, onTrace: () => undefined };

interface Logged {
  pid: number;
  method?: string;
  params?: { sessionId?: string; prompt?: unknown };
  wrong?: string;
}

function reattachAgent(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reattach-'));
  const definition: AgentDefinition = {
    name: 'Keeper',
    identity: 'test',
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'reattach-agent.js')], cwd: FIXTURES, env: { ...currentEnv(), FAKE_STATE_DIR: dir, ...env } }),
  };
  /** Every request the agent got, across its processes, with which process got it. */
  const log = (): Logged[] => fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Logged);
  return { dir, definition, log, forget: () => fs.rmSync(path.join(dir, 'known.json')) };
}

/** The log as `method sessionId`, one process after the other (`--` where the process changes). */
function sequence(log: Logged[]): string[] {
  return log.flatMap((m, i) => [...(i > 0 && log[i - 1].pid !== m.pid ? ['--'] : []), `${m.method ?? `WRONG ${m.wrong}`}${m.params?.sessionId ? ` ${m.params.sessionId}` : ''}`]);
}

const conversation = (c: AgentSession) => c.transcript.entries.map((e) => (e.kind === 'user' || e.kind === 'agent' ? `${e.kind}:${e.text}` : e.kind === 'error' ? `error:${e.message}` : e.kind));

test('Restart: the next prompt goes to the same session id on the new process, without session/new', async () => {
  const agent = reattachAgent();
  const c = new AgentSession(agent.definition, SETTINGS, ports);
  try {
    await c.prompt('one');
    const id = c.agentSessionId!;
    const firstPid = c.runtime.current?.process.pid;
    await c.restart();
    assert.equal(c.currentStatus.phase, 'ready');
    assert.notEqual(c.runtime.current?.process.pid, firstPid, 'a new process');
    await c.prompt('two');
    assert.deepEqual(sequence(agent.log()), ['initialize', 'session/new', `session/prompt ${id}`, '--', 'initialize', `session/prompt ${id}`]);
    assert.deepEqual(conversation(c), ['user:one', 'agent:one', 'turnEnd', 'user:two', 'agent:two', 'turnEnd']);
    assert.equal(c.agentSessionId, id);
  } finally {
    await c.stop();
  }
});

for (const [forgotten, env] of [
  ['-32002', {}],
  ['an error whose message says the session is not found', { FAKE_FORGOTTEN: 'message' }],
  ['the ACP SDK\'s -32603 "Internal error", the reason only in data.details', { FAKE_FORGOTTEN: 'sdk' }],
] as const) {
  test(`an agent that no longer knows the session (${forgotten}): a new session, the same prompt sent there, and the transcript says so`, async () => {
    const agent = reattachAgent(env);
    const c = new AgentSession(agent.definition, SETTINGS, ports);
    try {
      await c.prompt('one');
      const id = c.agentSessionId!;
      agent.forget();
      await c.restart();
      c.attach({ kind: 'file', uri: 'file:///w/notes.md', name: 'notes.md', path: 'notes.md' });
      await c.prompt('two');
      const fresh = c.agentSessionId!;
      assert.notEqual(fresh, id);
      await c.prompt('three');
      assert.deepEqual(sequence(agent.log()), [
        'initialize',
        'session/new',
        `session/prompt ${id}`,
        '--',
        'initialize',
        `session/prompt ${id}`,
        'session/new',
        `session/prompt ${fresh}`,
        `session/prompt ${fresh}`,
      ]);
      const prompts = agent.log().filter((m) => m.method === 'session/prompt');
      assert.deepEqual(prompts[2].params?.prompt, prompts[1].params?.prompt, 'the same prompt, resent');
      assert.ok(JSON.stringify(prompts[2].params?.prompt).includes('file:///w/notes.md'), 'with its attachment');
      const shown = conversation(c);
      assert.deepEqual(shown.slice(0, 4), ['user:one', 'agent:one', 'turnEnd', 'user:two']);
      assert.match(shown[4], /^error:Keeper did not take this prompt in the session it had before \(.+\): a new session was opened and your prompt sent there\. It does not know the earlier conversation\.$/);
      if (env.FAKE_FORGOTTEN === 'sdk') assert.match(shown[4], /\(Internal error: Session not found\)/, 'the reason in data.details is said');
      assert.deepEqual(shown.slice(5), ['agent:two', 'turnEnd', 'user:three', 'agent:three', 'turnEnd'], 'the prompt is shown once');
    } finally {
      await c.stop();
    }
  });
}

test('a window reload: the store brings the tab back with its transcript, and the next prompt re-attaches to its session', async () => {
  const agent = reattachAgent();
  const memento = new FakeMemento();
  const open = () => {
    const store = new SessionStore(memento);
    const tabs = new SessionTabs(
      { runtime: (a) => new AgentRuntime(a, SETTINGS, ports), session: (a, runtime, options) => new AgentSession(a, SETTINGS, ports, { ...options, runtime }) },
      store,
    );
    return { store, tabs };
  };
  const before = open();
  const first = before.tabs.open(agent.definition);
  before.tabs.show(first.key);
  await first.controller.prompt('before the reload');
  const id = first.controller.agentSessionId!;
  await before.tabs.dispose(); // the window closes: transcripts saved, processes stopped

  const after = open();
  const { tabs: records } = after.store.openTabs();
  assert.deepEqual(records.map((r) => r.sessionId), [id]);
  const tab = after.tabs.open(agent.definition, { sessionId: records[0].sessionId, title: records[0].title });
  try {
    assert.deepEqual(conversation(tab.controller), ['user:before the reload', 'agent:before the reload', 'turnEnd'], 'shown before the agent starts');
    await tab.controller.prompt('after the reload');
    assert.deepEqual(sequence(agent.log()).slice(-3), ['--', 'initialize', `session/prompt ${id}`]);
    assert.deepEqual(conversation(tab.controller).slice(-3), ['user:after the reload', 'agent:after the reload', 'turnEnd']);
    assert.equal(agent.log().filter((m) => m.wrong).length, 0);
  } finally {
    await after.tabs.dispose();
  }
});

test('a pick from the history opens the session with its saved id: its first prompt goes there', async () => {
  const agent = reattachAgent();
  const runtime = new AgentRuntime(agent.definition, SETTINGS, ports);
  const earlier = new AgentSession(agent.definition, SETTINGS, ports, { runtime });
  await earlier.prompt('from an earlier day');
  const id = earlier.agentSessionId!;
  await earlier.close();
  assert.equal(runtime.current, undefined, 'its process stopped with its last session');
  const picked = new AgentSession(agent.definition, SETTINGS, ports, { runtime, sessionId: id, title: 'from an earlier day' });
  try {
    await picked.prompt('picked again');
    assert.deepEqual(sequence(agent.log()).slice(-3), ['--', 'initialize', `session/prompt ${id}`]);
    assert.deepEqual(conversation(picked), ['user:picked again', 'agent:picked again', 'turnEnd']);
  } finally {
    await picked.stop();
  }
});

test('only the first prompt after a re-attach opens a new session on an error: a later error is an ordinary error', async () => {
  const agent = reattachAgent({ FAKE_FORGOTTEN: 'sdk' });
  const c = new AgentSession(agent.definition, SETTINGS, ports);
  try {
    await c.prompt('one');
    const id = c.agentSessionId!;
    await c.restart();
    await c.prompt('two'); // the agent still knows it: the re-attach holds
    agent.forget();
    await c.prompt('three');
    assert.equal(c.agentSessionId, id, 'no new session');
    assert.deepEqual(sequence(agent.log()).slice(-3), ['initialize', `session/prompt ${id}`, `session/prompt ${id}`]);
    const end = c.transcript.entries.at(-1);
    assert.ok(end?.kind === 'turnEnd' && end.stopReason === 'failed', 'the turn failed');
    assert.deepEqual(end.error, { message: 'Internal error: Session not found', code: -32603 });
  } finally {
    await c.stop();
  }
});
