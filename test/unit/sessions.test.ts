// Several sessions on one agent process, and bringing sessions back: session/load with replay,
// session/resume, a crash mid-turn then Restart, session/list paging, close and delete. Real
// subprocesses (test/fixtures/agents/history-agent.js keeps its sessions in a file, so they
// outlive its process); what the client sends is checked against the official schema.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import type { SessionOptions } from '../../src/session/agentSession';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentPorts } from '../../src/runtime/ports';
import { currentEnv } from '../../src/agent/environment';
import { specMessageErrors } from './helpers/officialSchema';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };

interface Agent {
  runtime: AgentRuntime;
  session(options?: Omit<SessionOptions, 'runtime'>): AgentSession;
  logs: string[];
}

function historyAgent(env: Record<string, string> = {}, fixture = 'history-agent.js'): Agent {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-history-')), 'sessions.json');
  const definition = {
    name: 'History',
    identity: 'test',
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, fixture)], cwd: FIXTURES, env: { ...currentEnv(), FAKE_SESSION_FILE: file, ...env } }),
  };
  const logs: string[] = [];
  const log = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
  const ports: AgentPorts = { readTextFile: async () => 'x', log, onTrace: () => undefined };
  const runtime = new AgentRuntime(definition, SETTINGS, ports);
  return { runtime, logs, session: (options = {}) => new AgentSession(definition, SETTINGS, ports, { ...options, runtime }) };
}

/** The conversation: user and agent messages, in order. */
const texts = (c: AgentSession) => c.transcript.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [`${e.kind}:${e.text}`] : []));

/** What the agent process received so far (its `__report__`), checked against the official schema. */
async function received(c: AgentSession): Promise<{ method?: string; params?: Record<string, unknown> }[]> {
  await c.prompt('__report__');
  const report = c.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
  assert.ok(report && report.kind === 'agent');
  const messages = JSON.parse(report.text) as { method?: string; params?: Record<string, unknown> }[];
  for (const m of messages) assert.deepEqual(specMessageErrors(m, { from: 'client' }), [], JSON.stringify(m));
  return messages;
}

test('two sessions share one process; each gets only its own updates', async () => {
  const agent = historyAgent();
  const a = agent.session();
  const b = agent.session();
  try {
    await Promise.all([a.start(), b.start()]);
    assert.equal(agent.runtime.current?.initialize.agentInfo?.name, 'fake-history');
    assert.notEqual(a.currentSessionId, b.currentSessionId);
    await Promise.all([a.prompt('alpha'), b.prompt('beta')]);
    assert.ok(texts(a).includes('user:alpha') && !texts(a).some((t) => t.includes('beta')), texts(a).join('|'));
    assert.ok(texts(b).includes('user:beta') && !texts(b).some((t) => t.includes('alpha')), texts(b).join('|'));
    assert.equal(a.label, 'alpha', 'the agent titled it after its first prompt');
    const initializes = (await received(a)).filter((m) => m.method === 'initialize');
    assert.equal(initializes.length, 1, 'one process, initialized once');
  } finally {
    await agent.runtime.stop();
  }
});

test('session/load brings a session back in a new process: the conversation is replayed before it is ready', async () => {
  const agent = historyAgent();
  const first = agent.session();
  await first.prompt('hello');
  await first.prompt('world');
  const id = first.agentSessionId;
  assert.ok(id);
  await agent.runtime.stop();
  assert.equal(first.currentStatus.phase, 'idle');

  const phasesAtReplay: string[] = [];
  const again = agent.session({ sessionId: id, title: 'hello' });
  again.transcript.onChange(() => phasesAtReplay.push(again.currentStatus.phase));
  try {
    await again.start();
    assert.equal(again.currentStatus.phase, 'ready');
    assert.equal(again.currentSessionId, id, 'the same session, not a new one');
    assert.deepEqual(texts(again), ['user:hello', 'agent:hello', 'user:world', 'agent:world']);
    assert.ok(phasesAtReplay.length > 0 && phasesAtReplay.every((p) => p === 'starting'), 'replayed while it was opening');
    assert.equal(again.label, 'hello');
    const load = (await received(again)).find((m) => m.method === 'session/load');
    assert.deepEqual(load?.params, { sessionId: id, cwd: FIXTURES, mcpServers: [] });
  } finally {
    await agent.runtime.stop();
  }
});

test('after a window reload, the messages session/load replays keep the checkpoints their saved copies had (in order, by text)', async () => {
  const agent = historyAgent();
  const first = agent.session();
  await first.prompt('hello');
  await first.prompt('world');
  await agent.runtime.stop();

  // What the host saved before the reload: the messages with their checkpoints (one never sent to this agent).
  const again = agent.session({ sessionId: first.agentSessionId, title: 'hello' });
  again.transcript.restore([
    { kind: 'user', text: 'hello\n', checkpoint: 3 },
    { kind: 'agent', text: 'hello' },
    { kind: 'user', text: 'not replayed', checkpoint: 4 },
    { kind: 'user', text: 'world', checkpoint: 5 },
    { kind: 'agent', text: 'world' },
  ]);
  try {
    await again.start();
    const users = again.transcript.entries.filter((e) => e.kind === 'user');
    assert.deepEqual(users, [
      { kind: 'user', text: 'hello', checkpoint: 3 },
      { kind: 'user', text: 'world', checkpoint: 5 },
    ]);
  } finally {
    await agent.runtime.stop();
  }
});

test('a crash mid-turn shows the exit code and stderr; Restart brings the conversation back with session/load', async () => {
  const agent = historyAgent();
  const c = agent.session();
  try {
    await c.prompt('before the crash');
    await c.prompt('/crash');
    assert.equal(c.currentStatus.phase, 'crashed');
    assert.match(c.currentStatus.detail ?? '', /History exited with code 3\.\nLast lines of its stderr:\n[\s\S]*crashing on purpose/);
    const id = c.agentSessionId;

    await c.restart();
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.equal(c.currentSessionId, id);
    // Replayed by the agent: the transcript is the agent's record, the crash report is not doubled.
    assert.deepEqual(texts(c), ['user:before the crash', 'agent:before the crash', 'user:/crash']);
    await c.prompt('after');
    assert.deepEqual(texts(c).slice(-2), ['user:after', 'agent:after']);
  } finally {
    await agent.runtime.stop();
  }
});

test('with session/resume offered, a restart resumes: nothing is replayed and the transcript stays as it was', async () => {
  const agent = historyAgent({ FAKE_RESUME: '1' });
  const c = agent.session();
  try {
    await c.prompt('one');
    await c.prompt('/crash');
    const shown = texts(c);
    await c.restart();
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.deepEqual(texts(c), shown, 'kept, not replayed');
    const methods = (await received(c)).map((m) => m.method);
    assert.ok(methods.includes('session/resume') && !methods.includes('session/load'), methods.join(','));
  } finally {
    await agent.runtime.stop();
  }
});

test('session/list pages by cwd with the agent\'s cursor; delete removes a session; close frees it and the process stops with the last one', async () => {
  const agent = historyAgent({ FAKE_PAGE_SIZE: '2' });
  const sessions = Array.from({ length: 5 }, () => agent.session());
  try {
    for (const [i, s] of sessions.entries()) await s.prompt(`session ${i}`);
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await agent.runtime.list(cursor);
      ids.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(new Set(ids), new Set(sessions.map((s) => s.agentSessionId)));

    await agent.runtime.delete(sessions[0].agentSessionId!);
    const after = await agent.runtime.list();
    assert.ok(!after.sessions.some((s) => s.sessionId === sessions[0].agentSessionId));

    const methods = (await received(sessions[1])).map((m) => m.method);
    assert.ok(methods.includes('session/list') && methods.includes('session/delete'));
    const pid = agent.runtime.current?.process.pid;
    for (const s of sessions) await s.close();
    assert.equal(agent.runtime.current, undefined, 'no session left: the process stopped');
    assert.ok(pid);
    assert.throws(() => process.kill(pid, 0), 'the process is gone');
  } finally {
    await agent.runtime.stop();
  }
});

test('a call naming a session that is not open on the process is refused with -32602', async () => {
  const agent = historyAgent();
  const c = agent.session();
  try {
    await c.prompt('/foreign-read');
    assert.equal(texts(c).at(-1), 'agent:refused -32602');
  } finally {
    await agent.runtime.stop();
  }
});

test('a session closed while the agent starts does not stop it under a sibling, and a process started for nobody does not stay', async () => {
  const agent = historyAgent();
  const a = agent.session();
  const b = agent.session();
  try {
    const starting = Promise.all([a.start(), b.start()]);
    await a.stop();
    await starting;
    assert.equal(b.currentStatus.phase, 'ready', b.currentStatus.detail);
    assert.equal(a.currentStatus.phase, 'idle');

    await b.stop();
    const alone = agent.session();
    const start = alone.start();
    await alone.stop();
    await start;
    assert.equal(agent.runtime.current, undefined, 'stopped once its start finished');
    assert.equal(alone.currentStatus.phase, 'idle');
  } finally {
    await agent.runtime.stop();
  }
});
