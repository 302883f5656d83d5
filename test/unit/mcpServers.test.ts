// acpHost.mcpServers: validation (invalid entries reported, never with their secrets), the exact
// ACP shapes (checked against the official schema in a whole session/new request), capability
// filtering, and, through a controller and a fake agent, what session/new really carries.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { AgentSession } from '../../src/session/agentSession';
import type { AgentRuntime } from '../../src/runtime/agentRuntime';
import { buildMcpServers, parseMcpServerSettings, resolveCommand, selectMcpServers, toMcpServer } from '../../src/runtime/mcpServers';
import { redactFields as redactMcpSecrets } from '../../src/runtime/secrets';
import type { McpServer } from '../../src/protocol';
import { specMessageErrors } from './helpers/officialSchema';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SECRET = 'sk-very-secret-value';

const SETTINGS = [
  { name: 'files', command: '/usr/local/bin/mcp-files', args: ['--root', '/w'], env: { API_TOKEN: SECRET } },
  { name: 'bare', command: '/opt/mcp/bare' },
  { name: 'remote', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${SECRET}` } },
  { name: 'legacy', type: 'sse', url: 'https://mcp.example.com/sse' },
];

const EXPECTED: McpServer[] = [
  { name: 'files', command: '/usr/local/bin/mcp-files', args: ['--root', '/w'], env: [{ name: 'API_TOKEN', value: SECRET }] },
  { name: 'bare', command: '/opt/mcp/bare', args: [], env: [] },
  { type: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: `Bearer ${SECRET}` }] },
  { type: 'sse', name: 'legacy', url: 'https://mcp.example.com/sse', headers: [] },
];

function parse(raw: unknown): { servers: ReturnType<typeof parseMcpServerSettings>; reports: string[] } {
  const reports: string[] = [];
  return { servers: parseMcpServerSettings(raw, (m) => reports.push(m)), reports };
}

describe('settings → ACP shapes', () => {
  test('stdio, http and sse entries become the schema shapes: env and headers as {name, value} arrays, every required field present', () => {
    const { servers, reports } = parse(SETTINGS);
    assert.deepEqual(reports, []);
    assert.deepEqual(servers.map((s) => toMcpServer(s)), EXPECTED);
  });

  test('a whole session/new request carrying them is valid against the official ACP schema', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: EXPECTED } };
    assert.deepEqual(specMessageErrors(request, { from: 'client' }), []);
    // The check has teeth: env as an object (the settings' form) is not the wire form.
    const wrong = { ...request, params: { cwd: '/w', mcpServers: [{ name: 'x', command: '/x', args: [], env: { A: 'b' } }] } };
    assert.notDeepEqual(specMessageErrors(wrong, { from: 'client' }), []);
  });

  test('invalid entries are skipped and reported by name and problem, never with their values', () => {
    const { servers, reports } = parse([
      { name: 'no-command', env: { TOKEN: SECRET } },
      { name: 'bad-url', type: 'http', url: 'not a url', headers: { Authorization: SECRET } },
      { name: 'typo', command: '/bin/x', evn: { TOKEN: SECRET } },
      { type: 'websocket', name: 'ws', url: 'wss://x' },
      42,
      { name: 'ok', command: '/bin/ok' },
      { name: 'ok', command: '/bin/again' },
    ]);
    assert.deepEqual(servers.map((s) => s.name), ['ok']);
    assert.equal(reports.length, 6, reports.join('\n'));
    assert.match(reports[0], /"no-command".*command/);
    assert.match(reports[1], /"bad-url".*url/);
    assert.match(reports[2], /"typo"/);
    assert.match(reports[4], /#5/);
    assert.match(reports[5], /second MCP server named "ok"/);
    for (const r of reports) assert.ok(!r.includes(SECRET), r);
  });

  test('not an array at all: reported, nothing sent; absent: nothing, quietly', () => {
    assert.deepEqual(parse({ name: 'x' }), { servers: [], reports: ['Ignored acpHost.mcpServers: it must be an array.'] });
    assert.deepEqual(parse(undefined), { servers: [], reports: [] });
  });

  test('a bare stdio command is resolved on the agent PATH (the schema wants an absolute path)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-mcp-'));
    try {
      const tool = path.join(dir, 'my-mcp');
      writeFileSync(tool, '#!/bin/sh\n');
      chmodSync(tool, 0o755);
      writeFileSync(path.join(dir, 'not-executable'), '');
      const env = { PATH: `/nonexistent:${dir}` };
      assert.equal(resolveCommand('my-mcp', env, 'linux'), tool);
      assert.equal(resolveCommand('/abs/tool', env, 'linux'), '/abs/tool');
      assert.equal(resolveCommand('not-executable', env, 'linux'), undefined);
      assert.equal(resolveCommand('./relative', env, 'linux'), undefined);
      const warnings: string[] = [];
      const { servers } = parse([{ name: 'a', command: 'my-mcp' }, { name: 'b', command: 'missing-mcp', env: { K: SECRET } }]);
      const built = buildMcpServers(servers, env, (m) => warnings.push(m));
      assert.deepEqual(built.map((s) => ('command' in s ? s.command : '')), [tool], 'a command not found is not passed for the agent to look up itself');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /"b" is not given to the agent: "missing-mcp" was not found on PATH/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('redactMcpSecrets hides env and header values of session/new, and leaves other messages alone', () => {
  const message = { jsonrpc: '2.0', id: 3, method: 'session/new', params: { cwd: '/w', mcpServers: EXPECTED } };
  const redacted = redactMcpSecrets(message) as typeof message;
  assert.ok(!JSON.stringify(redacted).includes(SECRET));
  assert.deepEqual(redacted.params.mcpServers[2], { ...EXPECTED[2], headers: [{ name: 'Authorization', value: '***' }] });
  assert.deepEqual(message.params.mcpServers, EXPECTED, 'the message itself is not changed');
  const other = { jsonrpc: '2.0', id: 4, method: 'session/prompt', params: { sessionId: 's', prompt: [] } };
  assert.equal(redactMcpSecrets(other), other);
});

describe('capabilities', () => {
  test('stdio always; http and sse only when advertised; each skipped server is reported', () => {
    const warnings: string[] = [];
    const names = (caps: Parameters<typeof selectMcpServers>[1]) => selectMcpServers(EXPECTED, caps, (m) => warnings.push(m)).map((s) => s.name);
    assert.deepEqual(names(undefined), ['files', 'bare']);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0], /Skipped MCP server "remote".*http/);
    assert.match(warnings[1], /Skipped MCP server "legacy".*sse/);
    warnings.length = 0;
    assert.deepEqual(names({ http: true }), ['files', 'bare', 'remote']);
    assert.deepEqual(names({ http: true, sse: true }), ['files', 'bare', 'remote', 'legacy']);
    assert.deepEqual(names({ http: false, sse: true }), ['files', 'bare', 'legacy']);
    for (const w of warnings) assert.ok(!w.includes(SECRET));
  });
});

// ---- through a controller and the well-behaved fake agent, which reports what it received

function recordingLog() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) } };
}

function controller(capabilities: object, log: ReturnType<typeof recordingLog>['log'], traces: unknown[] = [], runtime?: AgentRuntime): AgentSession {
  return new AgentSession(
    {
      name: 'Fake',
      identity: 'test',
      launch: async () => ({
        command: process.execPath,
        args: [path.join(FIXTURES, 'well-behaved.js')],
        cwd: FIXTURES,
        env: { ...currentEnv(), FAKE_AGENT_CAPABILITIES: JSON.stringify(capabilities) },
      }),
    },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    { readTextFile: async () => 'x', log, mcpServers: async () => EXPECTED, onTrace: (_name, _direction, message) => traces.push(message) },
    { runtime },
  );
}

async function sessionNewParams(c: AgentSession): Promise<{ mcpServers: McpServer[] }[]> {
  await c.prompt('__report__');
  const report = c.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
  assert.ok(report && report.kind === 'agent');
  const received = JSON.parse(report.text) as { method?: string; params: { mcpServers: McpServer[] } }[];
  for (const message of received) assert.deepEqual(specMessageErrors(message, { from: 'client' }), [], JSON.stringify(message));
  return received.filter((m) => m.method === 'session/new').map((m) => m.params);
}

test('controller: session/new carries the configured servers; http and sse are skipped (with a warning) when not advertised', async () => {
  const { lines, log } = recordingLog();
  const traces: unknown[] = [];
  const c = controller({ mcpCapabilities: { http: false } }, log, traces);
  try {
    const [params] = await sessionNewParams(c);
    assert.deepEqual(params.mcpServers, EXPECTED.slice(0, 2));
    const traced = traces.find((m) => (m as { method?: string }).method === 'session/new') as { params: { mcpServers: McpServer[] } };
    assert.deepEqual(traced.params.mcpServers[0], { ...EXPECTED[0], env: [{ name: 'API_TOKEN', value: '***' }] }, 'the trace keeps names, not values');
    assert.ok(!JSON.stringify(traces.filter((m) => (m as { method?: string }).method === 'session/new')).includes(SECRET));
    const skipped = lines.filter((l) => l.startsWith('Skipped MCP server'));
    assert.equal(skipped.length, 2);
    assert.ok(!lines.some((l) => l.includes(SECRET)), 'no secret in the log');

    // A second session on the same process sends them again, without warning again.
    const all = await sessionNewParams(controller({ mcpCapabilities: { http: false } }, log, traces, c.runtime));
    assert.equal(all.length, 2);
    assert.deepEqual(all[1].mcpServers, EXPECTED.slice(0, 2));
    assert.equal(lines.filter((l) => l.startsWith('Skipped MCP server')).length, 2, 'once per start');
  } finally {
    await c.stop();
  }
});

test('controller: an agent that advertises http gets the http server too (sse still skipped)', async () => {
  const { lines, log } = recordingLog();
  const c = controller({ mcpCapabilities: { http: true } }, log);
  try {
    const [params] = await sessionNewParams(c);
    assert.deepEqual(params.mcpServers, EXPECTED.slice(0, 3));
    assert.deepEqual(lines.filter((l) => l.startsWith('Skipped MCP server')).map((l) => l.match(/"(\w+)"/)?.[1]), ['legacy']);
  } finally {
    await c.stop();
  }
});
