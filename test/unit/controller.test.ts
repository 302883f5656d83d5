// The host's controller against a real fake agent process (no VS Code needed: it only sees
// ports): what it sends is checked by the agent's own record against the official schema.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import type { SessionOptions } from '../../src/session/agentSession';
import { clientCapabilities } from '../../src/runtime/ports';
import { currentEnv } from '../../src/agent/environment';
import { specMessageErrors } from './helpers/officialSchema';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const silent = { info() {}, warn() {}, error() {} };

function controller(fixture: string, env: Record<string, string> = {}, options?: SessionOptions): AgentSession {
  return new AgentSession(
    {
      name: 'Fake',
      identity: 'test',
      launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, fixture)], cwd: FIXTURES, env: { ...currentEnv(), ...env } }),
    },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    { readTextFile: async () => 'x', log: silent, onTrace: () => undefined },
    options,
  );
}

async function until(probe: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const started = Date.now(); !probe(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
  }
}

test('everything the controller sends in a turn is valid ACP v1, with the capabilities this build serves', async () => {
  const c = controller('well-behaved.js');
  try {
    await c.prompt('hello');
    await c.prompt('__report__');
    const report = c.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
    assert.ok(report && report.kind === 'agent');
    const received = JSON.parse(report.text) as Record<string, unknown>[];
    assert.deepEqual(received.map((m) => m.method), ['initialize', 'session/new', 'session/prompt', 'session/prompt']);
    for (const message of received) assert.deepEqual(specMessageErrors(message, { from: 'client' }), [], JSON.stringify(message));
    const init = received[0].params as { protocolVersion: number; clientCapabilities: unknown; clientInfo: { name: string } };
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.clientCapabilities, clientCapabilities({ readTextFile: async () => '', log: silent, onTrace: () => undefined }));
    assert.deepEqual(init.clientCapabilities, { fs: { readTextFile: true, writeTextFile: false }, terminal: false, session: { configOptions: { boolean: {} }, notices: {}, compaction: {} }, plan: {} });
    assert.equal(init.clientInfo.name, 'acp-host');
    assert.deepEqual(received[1].params, { cwd: FIXTURES, mcpServers: [] });
  } finally {
    await c.stop();
  }
});

test('an agent that exits mid-turn leaves the controller crashed, with its exit code, and restartable', async () => {
  const c = controller('exit-mid-turn.js');
  try {
    await c.prompt('go');
    assert.equal(c.currentStatus.phase, 'crashed');
    assert.match(c.currentStatus.detail ?? '', /exited with code 42/);
    await c.restart();
    assert.equal(c.currentStatus.phase, 'ready');
  } finally {
    await c.stop();
  }
});

test('state sent before the session/new answer and between turns is kept; a mode switch reaches the agent', async () => {
  const c = controller('rich-session.js');
  try {
    await c.start();
    await until(() => c.session.view.usage !== null);
    assert.deepEqual(c.session.view.commands.map((x) => x.name), ['echo', 'mode', 'xss']);
    assert.equal(c.session.view.title, 'Rich session');
    assert.equal(c.session.view.modes?.currentModeId, 'ask');
    await c.setMode('code');
    await c.prompt('/mode');
    assert.deepEqual(c.transcript.entries.at(-2), { kind: 'agent', text: 'mode: code' });
    await c.setMode('nonexistent');
    assert.equal(c.session.view.modes?.currentModeId, 'code', 'a refused mode is taken back');
    const last = c.transcript.entries.at(-1);
    assert.match(last?.kind === 'error' ? last.message : '', /did not switch to mode nonexistent/);
  } finally {
    await c.stop();
  }
});

test('prompts sent during a turn queue in order and can be dropped; a second session on the same process starts empty', async () => {
  const c = controller('well-behaved.js', { FAKE_CHUNKS: '20', FAKE_CHUNK_DELAY_MS: '5' });
  try {
    await c.start();
    const turns = [c.prompt('one'), c.prompt('two'), c.prompt('three')];
    assert.deepEqual(c.session.view.queue.map((q) => q.text), ['two', 'three']);
    c.unqueue(c.session.view.queue[0].id);
    await Promise.all(turns);
    assert.deepEqual(c.transcript.entries.filter((e) => e.kind === 'user').map((e) => e.kind === 'user' && e.text), ['one', 'three']);
    const second = controller('well-behaved.js', {}, { runtime: c.runtime });
    await second.start();
    assert.equal(second.transcript.entries.length, 0);
    assert.equal(second.currentStatus.phase, 'ready');
    assert.equal(second.runtime.current?.process.pid, c.runtime.current?.process.pid, 'one process for both');
    assert.notEqual(second.currentSessionId, c.currentSessionId);
  } finally {
    await c.stop();
  }
});
