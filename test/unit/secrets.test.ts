// One SecretScrubber per agent: every source of a secret feeds it (stored sign-ins, the env
// configured for the agent, MCP server env, headers and URL credentials, a terminal sign-in's
// env) and every place an agent's words end up passes through it (log lines, stderr, start
// failures and crash details, error answers, the protocol trace, saved sessions). The scrubber
// itself first, then through a runtime and sessions with real fake agents.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc/node';
import { AcpConnection } from '../../src/agent/connection';
import { currentEnv } from '../../src/agent/environment';
import { AgentSession } from '../../src/session/agentSession';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { SessionEndpoint } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts } from '../../src/runtime/ports';
import { MASK, REDACTED, SecretScrubber, SecretScrubbers, redact, redactFields, scrubbingLog, urlCredentials } from '../../src/runtime/secrets';
import { TraceStore } from '../../src/runtime/trace';
import { SessionStore } from '../../src/host/sessions/sessionStore';
import { SessionTabs } from '../../src/session/sessionTabs';
import { agentMethods } from '../../src/protocol';
import type { McpServer } from '../../src/protocol';
import { FakePeer, recordingLog } from './helpers/streams';
import { FakeMemento } from './helpers/memento';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };
const TIMEOUT = { timeout: 20_000 };

const MCP_SERVERS: McpServer[] = [
  { name: 'files', command: '/usr/bin/mcp-files', args: [], env: [{ name: 'API_TOKEN', value: 'sk-mcp-env-1' }] },
  { type: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer sk-mcp-bearer-2' }] },
  { type: 'http', name: 'basic', url: 'https://alice:pa%24%24word-3@mcp.example.com/x?access_token=tok-query-4&page=123456&key=key%2Fquery-5', headers: [] },
  { type: 'sse', name: 'legacy', url: 'https://tok-user-6x@mcp.example.com/sse', headers: [] },
];
const MCP_SECRETS = ['sk-mcp-env-1', 'Bearer sk-mcp-bearer-2', 'sk-mcp-bearer-2', 'pa%24%24word-3', 'pa$$word-3', 'tok-query-4', 'key%2Fquery-5', 'key/query-5', 'tok-user-6x'];

test('the scrubber keeps values of 6 characters or more, and masks the longest first', () => {
  const scrubber = new SecretScrubber();
  scrubber.add('12345', 'sk-secret', 'sk-secret-longer');
  assert.equal(scrubber.scrub('a 12345 sk-secret-longer sk-secret'), `a 12345 ${MASK} ${MASK}`);
});

test('MCP servers feed env and header values, the token of a bearer header, and URL credentials (as written and decoded)', () => {
  const scrubber = new SecretScrubber();
  scrubber.addMcpServers(MCP_SERVERS);
  for (const secret of MCP_SECRETS) assert.equal(scrubber.scrub(`<${secret}>`), `<${MASK}>`, secret);
  assert.equal(scrubber.scrub('page=123456'), 'page=123456', 'a query parameter that does not look like a credential stays');
  assert.deepEqual(urlCredentials('https://alice:secret-pw@host/p'), ['secret-pw'], 'the user of user:password@ is a name');
  assert.deepEqual(urlCredentials('https://mcp.example.com/mcp'), []);
});

test('redact hides by structure and masks known values, copying only what changes; redactFields is structure only, with ***', () => {
  const message = { id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [{ name: 'db', env: [{ name: 'PW', value: 'hunter2-x' }] }], note: 'uses sk-known-1' } };
  const out = redact(message, ['sk-known-1']) as typeof message;
  assert.deepEqual(out.params.mcpServers[0].env, [{ name: 'PW', value: REDACTED }]);
  assert.equal(out.params.note, `uses ${REDACTED}`);
  assert.equal(message.params.mcpServers[0].env[0].value, 'hunter2-x', 'the original is not changed');
  const fields = redactFields(message) as typeof message;
  assert.deepEqual(fields.params.mcpServers[0].env, [{ name: 'PW', value: MASK }]);
  assert.equal(fields.params.note, 'uses sk-known-1', 'known values are the trace’s to mask');
  const clean = { id: 2, result: { stopReason: 'end_turn', usage: { inputTokens: 3 } } };
  assert.equal(redactFields(clean), clean, 'nothing to hide: the same object');
});

test('scrubDeep masks known values in every string and keeps the shape (a saved transcript stays valid)', () => {
  const scrubber = new SecretScrubber();
  scrubber.add('sk-entry-secret');
  const entries = [{ kind: 'agent', text: 'key sk-entry-secret' }, { kind: 'tool', rawInput: { token: 'plain', env: { A: 'b' } } }];
  assert.deepEqual(scrubber.scrubDeep(entries), [{ kind: 'agent', text: `key ${MASK}` }, { kind: 'tool', rawInput: { token: 'plain', env: { A: 'b' } } }]);
});

test('a shared log masks every agent’s secrets; an agent’s log masks its own', () => {
  const scrubbers = new SecretScrubbers();
  scrubbers.for('A').add('secret-of-a');
  scrubbers.for('B').add('secret-of-b');
  const log = recordingLog();
  scrubbingLog(log, scrubbers).warn('secret-of-a and secret-of-b');
  scrubbingLog(log, scrubbers.for('A')).error('secret-of-a and secret-of-b');
  assert.deepEqual(log.entries, [
    { level: 'warn', message: `${MASK} and ${MASK}` },
    { level: 'error', message: `${MASK} and secret-of-b` },
  ]);
});

test('the trace masks what the agent’s scrubber knows, under its own marker', () => {
  const scrubbers = new SecretScrubbers();
  const store = new TraceStore(undefined, scrubbers);
  scrubbers.for('A').add('sk-traced-secret');
  store.add('A', 'receive', { jsonrpc: '2.0', method: 'session/update', params: { text: 'sk-traced-secret' } });
  assert.ok(store.text('A').includes(`"text":"${REDACTED}"`), store.text('A'));
});

test('an error answer of the agent reaches the caller scrubbed, code and data kept', TIMEOUT, async () => {
  const peer = new FakePeer();
  const scrubber = new SecretScrubber();
  scrubber.add('sk-echoed-secret');
  const connection = new AcpConnection(peer.toClient, peer.fromClient, { log: recordingLog(), scrub: (text) => scrubber.scrub(text) });
  const pending = connection.request(agentMethods.sessionPrompt, { sessionId: 's1', prompt: [] });
  const request = await peer.requestFor('session/prompt');
  peer.send({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'bad key sk-echoed-secret', data: { n: 1 } } });
  await assert.rejects(pending, (e: unknown) => {
    assert.ok(e instanceof ResponseError);
    assert.deepEqual([e.code, e.message, e.data], [-32603, `bad key ${MASK}`, { n: 1 }]);
    return true;
  });
  connection.dispose();
});

/** An agent that prints the two env values it was given to stderr and exits before answering initialize. */
function leakyStarter(): AgentDefinition {
  const script = "process.stderr.write(`stored=${process.env.STORED} configured=${process.env.CONFIGURED}\\n`, () => process.exit(3))";
  return {
    name: 'Leaky',
    identity: 'test',
    configuredEnv: { CONFIGURED: 'configured-secret-2' },
    launch: async () => ({ command: process.execPath, args: ['-e', script], cwd: FIXTURES, env: { ...currentEnv(), CONFIGURED: 'configured-secret-2' } }),
  };
}

test('stored secrets and the configured env feed the agent’s scrubber: its stderr, the log and the start failure shown in the transcript are masked', TIMEOUT, async () => {
  const scrubbers = new SecretScrubbers();
  const log = recordingLog();
  const ports: AgentPorts = {
    readTextFile: async () => '',
    log,
    onTrace: () => undefined,
    storedSecrets: async () => ({ STORED: 'stored-secret-1' }),
    secrets: (name) => scrubbers.for(name),
  };
  const controller = new AgentSession(leakyStarter(), SETTINGS, ports);
  try {
    await controller.start();
    assert.equal(controller.runtime.secrets, scrubbers.for('Leaky'), 'the runtime feeds the host’s scrubber');
    assert.equal(controller.currentStatus.phase, 'crashed');
    const shown = JSON.stringify([controller.currentStatus.detail, controller.transcript.entries, log.entries]);
    assert.match(shown, /stored=\*\*\* configured=\*\*\*/);
    assert.ok(log.entries.some((e) => e.message === `[Leaky stderr] stored=${MASK} configured=${MASK}`), log.text());
    assert.ok(!shown.includes('stored-secret-1') && !shown.includes('configured-secret-2'), shown);
  } finally {
    await controller.stop();
  }
});

const silentPorts = (extra: Partial<AgentPorts>): AgentPorts => ({ readTextFile: async () => '', log: { info() {}, warn() {}, error() {} }, onTrace: () => undefined, ...extra });

const endpoint: SessionEndpoint = {
  onUpdate: () => undefined,
  onPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
  onElicitation: async () => ({ action: 'cancel' }),
  onElicitationComplete: () => false,
  readTextFile: async () => '',
  onAgentExit: () => undefined,
  onAgentStop: () => undefined,
};

test('MCP credentials feed the scrubber before session/new is traced; a sign-in terminal’s env feeds it through addSecret', TIMEOUT, async () => {
  const scrubbers = new SecretScrubbers();
  const trace = new TraceStore(undefined, scrubbers);
  const caps = JSON.stringify({ mcpCapabilities: { http: true, sse: true } });
  const agent: AgentDefinition = {
    name: 'Mcp',
    identity: 'test',
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], cwd: FIXTURES, env: { ...currentEnv(), FAKE_AGENT_CAPABILITIES: caps } }),
  };
  const runtime = new AgentRuntime(agent, SETTINGS, silentPorts({ mcpServers: async () => MCP_SERVERS, secrets: (name) => scrubbers.for(name), onTrace: (name, direction, message) => trace.add(name, direction, message) }));
  try {
    await runtime.openNew(await runtime.start(), endpoint, { cwd: FIXTURES, additionalDirectories: [] });
    const text = trace.text('Mcp');
    assert.match(text, /"method":"session\/new"/);
    for (const secret of MCP_SECRETS) assert.ok(!text.includes(secret), `${secret} is in the trace`);
    runtime.addSecret('terminal-env-secret');
    assert.equal(scrubbers.scrub('sk-mcp-env-1 terminal-env-secret'), `${MASK} ${MASK}`);
  } finally {
    await runtime.stop();
  }
});

test('what the agent says with a secret it was given is masked in the saved session and the trace, not in the live transcript', TIMEOUT, async () => {
  const KEY = 'sk-configured-key-9';
  const scrubbers = new SecretScrubbers();
  const trace = new TraceStore(undefined, scrubbers);
  const ports = silentPorts({ secrets: (name) => scrubbers.for(name), onTrace: (name, direction, message) => trace.add(name, direction, message) });
  const agent: AgentDefinition = {
    name: 'Trace',
    identity: 'test',
    configuredEnv: { MY_API_KEY: KEY },
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'trace-agent.js')], cwd: FIXTURES, env: { ...currentEnv(), MY_API_KEY: KEY } }),
  };
  const store = new SessionStore(new FakeMemento());
  const tabs = new SessionTabs({ runtime: (a) => new AgentRuntime(a, SETTINGS, ports), session: (a, runtime, options) => new AgentSession(a, SETTINGS, ports, { ...options, runtime }) }, store);
  const tab = tabs.open(agent);
  try {
    await tab.controller.start();
    await tab.controller.prompt('hello');
    const sessionId = tab.controller.agentSessionId!;
    assert.ok(JSON.stringify(tab.controller.transcript.entries).includes(`my key is ${KEY}`), 'the panel shows what the agent said');
    await tabs.close(tab.key);
    const saved = JSON.stringify(store.transcript({ agentName: 'Trace', sessionId }));
    assert.ok(saved.includes(`my key is ${MASK}`), saved.slice(0, 500));
    assert.ok(!saved.includes(KEY));
    assert.ok(trace.text('Trace').includes(`my key is ${REDACTED}`));
    assert.ok(!trace.text('Trace').includes(KEY));
  } finally {
    await tabs.dispose();
  }
});

test('the shared scrub masks every agent\'s secrets longest first: one agent\'s short secret inside another\'s does not leave the rest of it showing', () => {
  const all = new SecretScrubbers();
  all.for('A').add('secret');
  all.for('B').add('sk-audit-secret-4242');
  assert.equal(all.scrub('token sk-audit-secret-4242 and secret'), 'token *** and ***');
});
