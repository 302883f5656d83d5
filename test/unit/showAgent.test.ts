// The show-agent fixture (test/fixtures/agents/show-agent.js) against the real session engine:
// everything it reports reaches the transcript the panel is given, because we advertise it; and
// the fixture itself sends nothing we did not advertise and refuses a capability that is not `{}`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { AgentSession } from '../../src/session/agentSession';
import { RAW_JSON_MAX } from '../../src/session/rawJson';
import { entriesView } from '../../src/view/projection';
import { EntryViewSchema } from '../../src/webview-protocol/entries';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/agents/show-agent.js');
const silent = { info() {}, warn() {}, error() {} };

test('what the show agent reports reaches the transcript: raw input and output, name, notices, compactions, plans by id, usage', async () => {
  const c = new AgentSession(
    { name: 'Show', identity: 'test', launch: async () => ({ command: process.execPath, args: [FIXTURE], cwd: __dirname, env: currentEnv() }) },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: __dirname, clientVersion: '0.0.0-test' },
    { readTextFile: async () => '', log: silent, onTrace: () => undefined },
  );
  try {
    await c.prompt('show');
    const entries = c.transcript.entries;
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.deepEqual(entries.filter((e) => e.kind === 'agent'), [], 'nothing “not advertised”');
    assert.deepEqual(entries.map((e) => e.kind), ['user', 'tool', 'notice', 'notice', 'compaction', 'compaction', 'planById', 'planById', 'planById', 'turnEnd']);

    const tool = entries[1];
    assert.ok(tool.kind === 'tool');
    assert.equal(tool.name, 'web_fetch');
    assert.equal(tool.status, 'completed');
    assert.doesNotMatch(tool.rawInput ?? '', /sk-show/, 'the credential is masked');
    assert.match(tool.rawInput ?? '', /"url": "https:\/\/example.com\/docs"/);
    assert.ok((tool.rawOutput ?? '').length < RAW_JSON_MAX + 100 && /clipped/.test(tool.rawOutput ?? ''), 'the 40,000-character output is clipped');

    assert.deepEqual(entries.slice(2, 4).map((e) => e.kind === 'notice' && [e.severity, e.title]), [['warning', 'Rate limit near'], ['info', 'Tip: compact often']]);
    assert.deepEqual(entries[4], { kind: 'compaction', compactionId: 'cmp-1', status: 'completed', summary: 'Read the docs; kept the plan. <img src=x onerror="window.__xss=1"><script>window.__xss=1</script>', error: null });
    assert.deepEqual(entries[5], { kind: 'compaction', compactionId: 'cmp-2', status: 'failed', summary: '', error: 'The summary model timed out.' });
    assert.deepEqual(entries.slice(6, 9).map((e) => e.kind === 'planById' && [e.planId, e.content?.type ?? 'removed']), [['p1', 'items'], ['p2', 'removed'], ['p3', 'file']]);
    assert.deepEqual(entries[9], {
      kind: 'turnEnd',
      stopReason: 'end_turn',
      usage: { tokens: { total: 1234, input: 1000, output: 234, thought: 12, cachedRead: null, cachedWrite: null }, cost: { amount: 0.42, currency: 'USD' }, quota: [{ label: 'used', value: 10 }, { label: 'limit', value: 100 }] },
    });
    assert.deepEqual(c.session.view.usage, { used: 5000, size: 200000, cost: { amount: 0.1, currency: 'USD' }, quota: [{ label: 'remaining', value: 42 }] });
    const views = entriesView(entries);
    assert.deepEqual(views.map((v) => EntryViewSchema.parse(v)), views, 'the panel accepts every entry');
  } finally {
    await c.stop();
  }
});

/** Runs the fixture with `initialize` params of our own; returns every message it wrote and its stderr. */
function runFixture(clientCapabilities: unknown): Promise<{ messages: Record<string, any>[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE], { env: currentEnv() });
    let out = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', () => resolve({ messages: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>), stderr }));
    const send = (id: number, method: string, params: unknown) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    send(1, 'initialize', { protocolVersion: 1, clientCapabilities });
    send(2, 'session/new', { cwd: __dirname, mcpServers: [] });
    send(3, 'session/prompt', { sessionId: 'fake-session-1', prompt: [{ type: 'text', text: 'show' }] });
    // Each request is answered before the next line is read; the prompt's answer is synchronous.
    child.stdout.on('data', () => {
      if (out.includes('"id":3,')) child.stdin.end();
    });
  });
}

test('the show agent sends no kind the client did not advertise, and refuses a capability that is not {}', async () => {
  const bare = await runFixture({ fs: { readTextFile: true } });
  const kinds = bare.messages.filter((m) => m.method === 'session/update').map((m) => m.params.update.sessionUpdate as string);
  assert.deepEqual(kinds.filter((k) => /notice|compaction|plan/.test(k)), [], 'none of the gated kinds');
  assert.ok(kinds.includes('tool_call') && kinds.includes('usage_update'), 'the rest still comes');
  for (const name of ['session.notices', 'session.compaction', 'plan']) assert.match(bare.stderr, new RegExp(`not advertised: ${name.replace('.', '\\.')}`));

  // `session.notices` is in the stable schema every fake checks against (lib.js); the unstable `plan` only in this fake's own check.
  for (const [caps, name] of [[{ session: { notices: true } }, /notices/], [{ plan: true }, /clientCapabilities\.plan must be \{\}/]] as const) {
    const answer = (await runFixture(caps)).messages.find((m) => m.id === 1);
    assert.equal(answer?.error?.code, -32602, JSON.stringify(answer));
    assert.match(answer?.error?.message ?? '', name);
  }
});
