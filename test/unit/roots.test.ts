// A session's roots (multi-root workspaces, ACP `additionalDirectories`): what they are, how a
// saved session's meet the workspace's folders of now, what session/new, load, resume and fork
// say of them (on the wire, checked against the official schema: the stable one, the unstable one
// for session/fork), and what the session's paths are confined to.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { AcpConnection } from '../../src/agent/connection';
import { currentEnv } from '../../src/agent/environment';
import type { AgentCapabilities } from '../../src/protocol';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentPorts } from '../../src/runtime/ports';
import { AgentSession } from '../../src/session/agentSession';
import { confinementRoots, reopenedRoots, rootParams, sessionRoots } from '../../src/runtime/sessionRoots';
import { sendOpening } from '../../src/runtime/sessionRequests';
import type { Opening } from '../../src/runtime/sessionRequests';
import { SessionOrigin } from '../../src/session/sessionOrigin';
import { specMessageErrors, specValidator, unstableSpecValidator } from './helpers/officialSchema';
import { FakePeer, recordingLog } from './helpers/streams';

const ADVERTISED: AgentCapabilities = { sessionCapabilities: { additionalDirectories: {} } };
const ROOTS = sessionRoots('/ws/app', ['/ws/lib', '/ws/docs']);

test('roots: absolute, each once, never the cwd; a relative folder names nothing certain and is left out', () => {
  assert.deepEqual(sessionRoots('/ws/app', ['/ws/lib', '/ws/app', '/ws/lib/', 'relative/dir', '/ws/docs/../docs', '/ws/docs']), {
    cwd: '/ws/app',
    additionalDirectories: ['/ws/lib', '/ws/docs'],
  });
  assert.deepEqual(sessionRoots('/ws/app', []), { cwd: '/ws/app', additionalDirectories: [] });
});

test('a saved session opens with the folders open now, keeping its cwd while that folder is still open', () => {
  const current = sessionRoots('/ws/app', ['/ws/lib', '/ws/docs']);
  assert.deepEqual(reopenedRoots(undefined, current), current, 'nothing saved: the workspace as it is');
  assert.deepEqual(reopenedRoots(ROOTS, current), ROOTS, 'unchanged: the same list again');
  // The user reordered the folders: the session keeps its cwd, the others follow.
  assert.deepEqual(reopenedRoots(sessionRoots('/ws/lib', ['/ws/app']), current), { cwd: '/ws/lib', additionalDirectories: ['/ws/app', '/ws/docs'] });
  // A folder taken out of the workspace is not sent again (nor accepted); one added is.
  assert.deepEqual(reopenedRoots(sessionRoots('/ws/app', ['/ws/gone']), current), current);
  // Its cwd is gone: the workspace's first folder, as for a new session.
  assert.deepEqual(reopenedRoots(sessionRoots('/ws/gone', ['/ws/lib']), current), current);
});

test('additionalDirectories is said only to an agent that advertises it, and the session is confined to what was said', () => {
  assert.deepEqual(rootParams(ROOTS, ADVERTISED), { cwd: '/ws/app', additionalDirectories: ['/ws/lib', '/ws/docs'] });
  assert.deepEqual(confinementRoots(ROOTS, ADVERTISED), ['/ws/app', '/ws/lib', '/ws/docs']);
  for (const caps of [undefined, {}, { sessionCapabilities: {} }, { sessionCapabilities: { additionalDirectories: null } }] as (AgentCapabilities | undefined)[]) {
    assert.deepEqual(rootParams(ROOTS, caps), { cwd: '/ws/app' }, JSON.stringify(caps));
    assert.deepEqual(confinementRoots(ROOTS, caps), ['/ws/app'], 'not advertised: confined to its cwd');
  }
  // A single-folder workspace sends no empty list.
  assert.deepEqual(rootParams(sessionRoots('/ws/app', []), ADVERTISED), { cwd: '/ws/app' });
});

test('SessionOrigin: roots from the workspace, confinement from the running agent, a change of folders logged', () => {
  let caps: AgentCapabilities | undefined;
  const log = recordingLog();
  const settings = { workspaceFolder: '/ws/app', additionalDirectories: ['/ws/lib'] };
  const origin = new SessionOrigin(settings, {}, () => caps, log);
  assert.deepEqual(origin.roots, { cwd: '/ws/app', additionalDirectories: ['/ws/lib'] });
  assert.deepEqual(origin.confinement, ['/ws/app'], 'before the agent runs: its cwd only');
  caps = ADVERTISED;
  assert.deepEqual(origin.confinement, ['/ws/app', '/ws/lib']);
  assert.equal(log.entries.length, 0);

  const saved = new SessionOrigin(settings, { roots: sessionRoots('/ws/app', ['/ws/removed']) }, () => caps, log);
  assert.deepEqual(saved.roots, { cwd: '/ws/app', additionalDirectories: ['/ws/lib'] });
  assert.match(log.entries[0]?.message ?? '', /folders changed since this session was saved: it works in \/ws\/app, \/ws\/lib now \(it was \/ws\/app, \/ws\/removed\)/);
});

/** What `opening` writes on the wire, answered with `result`. */
async function sent(opening: Opening, capabilities: AgentCapabilities | undefined, result: object) {
  const peer = new FakePeer();
  const connection = new AcpConnection(peer.toClient, peer.fromClient, { log: recordingLog() });
  try {
    const answer = sendOpening(connection, opening, { roots: ROOTS, mcpServers: [], capabilities });
    const request = await peer.waitFor('the opening request', (m) => typeof m.method === 'string');
    peer.send({ jsonrpc: '2.0', id: request.id, result });
    return { request, answer: await answer };
  } finally {
    connection.dispose();
  }
}

test('session/new, load and resume carry the full list when advertised, valid against the official schema', async () => {
  for (const [opening, method] of [
    [{ how: 'new' }, 'session/new'],
    [{ how: 'load', sessionId: 's-1' }, 'session/load'],
    [{ how: 'resume', sessionId: 's-1' }, 'session/resume'],
  ] as [Opening, string][]) {
    for (const caps of [ADVERTISED, {}]) {
      const { request, answer } = await sent(opening, caps, opening.how === 'new' ? { sessionId: 'new-1' } : {});
      assert.equal(request.method, method);
      assert.deepEqual(specMessageErrors(request, { from: 'client' }), [], JSON.stringify(request));
      assert.equal(request.params.cwd, '/ws/app');
      if (caps === ADVERTISED) assert.deepEqual(request.params.additionalDirectories, ['/ws/lib', '/ws/docs'], method);
      else assert.ok(!('additionalDirectories' in request.params), `${method}: not advertised, not sent`);
      assert.equal(answer.sessionId, opening.how === 'new' ? 'new-1' : 's-1', 'every opening answers the session id');
    }
  }
});

test('session/fork (UNSTABLE): the request is valid against the official unstable schema, roots included when advertised', async () => {
  const valid = unstableSpecValidator('ForkSessionRequest');
  const validAnswer = unstableSpecValidator('ForkSessionResponse');
  for (const caps of [{ sessionCapabilities: { fork: {}, additionalDirectories: {} } }, { sessionCapabilities: { fork: {} } }] as AgentCapabilities[]) {
    const result = { sessionId: 'fork-1', modes: null };
    assert.deepEqual(validAnswer(result), []);
    const { request, answer } = await sent({ how: 'fork', from: 's-1' }, caps, result);
    assert.equal(request.method, 'session/fork');
    assert.deepEqual(valid(request.params), [], JSON.stringify(request.params));
    assert.equal(request.params.sessionId, 's-1');
    assert.equal(request.params.cwd, '/ws/app');
    assert.deepEqual(request.params.mcpServers, []);
    assert.deepEqual(request.params.additionalDirectories, caps.sessionCapabilities?.additionalDirectories ? ['/ws/lib', '/ws/docs'] : undefined);
    assert.equal(answer.sessionId, 'fork-1');
  }
  // The validator does refuse what the schema refuses: a fork without its session.
  assert.notDeepEqual(valid({ cwd: '/ws/app' }), []);
});

// With real processes: test/fixtures/agents/roots-agent.js refuses (-32602) an opening that says
// the roots wrongly, so a session that opens is one the agent accepted; what it received is asked
// of it after ({"received": method}) and checked against the official schema too.
const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const OTHERS = [path.resolve(FIXTURES, '..'), path.resolve(FIXTURES, '../workspace')];
const silent = { info() {}, warn() {}, error() {} };
const ports: AgentPorts = { readTextFile: async () => 'x', log: silent, onTrace: () => undefined };
// The workspace as VS Code lists it may repeat a folder or hold the cwd again: neither is sent.
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, additionalDirectories: [...OTHERS, FIXTURES, OTHERS[0]], clientVersion: '0.0.0-test' };

function rootsAgent(env: Record<string, string>) {
  const definition = {
    name: 'Roots',
    identity: 'test',
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'roots-agent.js')], cwd: FIXTURES, env: { ...currentEnv(), ...env } }),
  };
  const runtime = new AgentRuntime(definition, SETTINGS, ports);
  return { runtime, session: () => new AgentSession(definition, SETTINGS, ports, { runtime }) };
}

/** The params of every `method` request the agent received (fs-agent.js's {"received"} command). */
async function received(session: AgentSession, method: string): Promise<Record<string, unknown>[]> {
  await session.prompt(JSON.stringify({ received: method }));
  const answer = session.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
  return JSON.parse(answer?.kind === 'agent' ? answer.text : 'null') as Record<string, unknown>[];
}

test('an agent that takes additionalDirectories gets the full list in session/new, and again on load and on resume', { timeout: 30_000 }, async () => {
  for (const how of ['load', 'resume'] as const) {
    const agent = rootsAgent({ FAKE_EXPECT_DIRS: JSON.stringify(OTHERS), FAKE_RESUME: how === 'resume' ? '1' : '0' });
    const session = agent.session();
    try {
      await session.start();
      assert.equal(session.currentStatus.phase, 'ready', session.currentStatus.detail);
      const [created] = await received(session, 'session/new');
      assert.deepEqual(created.additionalDirectories, OTHERS);
      assert.deepEqual(specValidator('NewSessionRequest')(created), []);
      assert.deepEqual(session.origin.confinement, [FIXTURES, ...OTHERS], 'confined to what the agent was told');

      // A new process: the session comes back (load with an empty transcript, resume with one shown).
      await agent.runtime.stop();
      if (how === 'load') session.transcript.clear();
      await session.start();
      assert.equal(session.currentStatus.phase, 'ready', session.currentStatus.detail);
      const [reopened] = await received(session, `session/${how}`);
      assert.deepEqual(reopened.additionalDirectories, OTHERS, `session/${how} sends the full list again`);
      assert.deepEqual(specValidator(how === 'load' ? 'LoadSessionRequest' : 'ResumeSessionRequest')(reopened), []);
    } finally {
      await agent.runtime.stop();
    }
  }
});

test('an agent that does not advertise it never gets the field, and its session is confined to its cwd', { timeout: 30_000 }, async () => {
  const agent = rootsAgent({ FAKE_ROOTS: '0' });
  const session = agent.session();
  try {
    await session.start();
    assert.equal(session.currentStatus.phase, 'ready', session.currentStatus.detail);
    await agent.runtime.stop();
    session.transcript.clear();
    await session.start();
    assert.equal(session.currentStatus.phase, 'ready', session.currentStatus.detail);
    const [loaded] = await received(session, 'session/load');
    assert.equal(loaded.cwd, FIXTURES);
    assert.ok(!('additionalDirectories' in loaded));
    assert.deepEqual(session.origin.confinement, [FIXTURES]);
  } finally {
    await agent.runtime.stop();
  }
});

test('the agent does refuse a wrong list: a session whose roots it refused does not open, and says why', { timeout: 30_000 }, async () => {
  const agent = rootsAgent({ FAKE_EXPECT_DIRS: JSON.stringify([OTHERS[1]]) });
  const session = agent.session();
  try {
    await session.start();
    assert.equal(session.currentStatus.phase, 'crashed');
    assert.match(session.currentStatus.detail ?? '', /additionalDirectories .*, expected/);
  } finally {
    await agent.runtime.stop();
  }
});
