// ACP's `$/cancel_request` through the session engine, against the fake agent
// test/fixtures/agents/cancel-agent.js (which checks what we send and says `PROBLEM:` on stderr
// when it is wrong): the agent withdraws a permission or a form it asked (the card shows it, the
// request is answered -32800 once), and we cancel what the user gave up on (a session/list, a
// config option picked again, a session closed, a sign-in), never with LSP's `$/cancelRequest`.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { RequestAbortedError } from '../../src/agent/connectionErrors';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentPorts, TerminalPort } from '../../src/runtime/ports';
import { AgentSession } from '../../src/session/agentSession';
import type { Entry } from '../../src/session/model';
import { until } from './helpers/streams';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const TIMEOUT = { timeout: 20_000 };

interface Rig {
  session: AgentSession;
  logs: string[];
  /** What we sent the agent, parsed (the protocol trace). */
  sent: Array<Record<string, any>>;
  /** Another session on the same agent process. */
  sibling(): AgentSession;
}

function rig(env: Record<string, string> = {}, more: Partial<AgentPorts> = {}): Rig {
  const logs: string[] = [];
  const sent: Rig['sent'] = [];
  const record = (level: string) => (m: string) => logs.push(`${level} ${m}`);
  const agent = { name: 'Cancel', identity: 'test', launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'cancel-agent.js')], cwd: FIXTURES, env: { ...currentEnv(), ...env } }) };
  const settings = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };
  const ports: AgentPorts = {
    readTextFile: async () => 'x',
    log: { info: record('info'), warn: record('warn'), error: record('error') },
    onTrace: (_name, direction, message) => {
      if (direction === 'send') sent.push(JSON.parse(JSON.stringify(message)) as Record<string, any>);
    },
    forms: true,
    ...more,
  };
  const session = new AgentSession(agent, settings, ports, { runtime: new AgentRuntime(agent, settings, ports) });
  return { session, logs, sent, sibling: () => new AgentSession(agent, settings, ports, { runtime: session.runtime }) };
}

type Tool = Extract<Entry, { kind: 'tool' }>;
type Form = Extract<Entry, { kind: 'elicitation' }>;
const lastAgentText = (s: AgentSession) => s.transcript.entries.filter((e) => e.kind === 'agent').at(-1)?.text;

/** What the agent received, as its `__report__` turn lists it. */
async function received(session: AgentSession): Promise<Array<Record<string, any>>> {
  await session.prompt('__report__');
  return JSON.parse(lastAgentText(session) ?? '[]') as Array<Record<string, any>>;
}

/** Nothing the fake agent checked was wrong, and we never spoke LSP's cancellation. */
async function assertClean({ session, logs, sent }: Rig): Promise<void> {
  await session.prompt('__problems__');
  assert.equal(lastAgentText(session), '[]');
  assert.deepEqual(logs.filter((l) => l.includes('PROBLEM')), []);
  assert.deepEqual(sent.filter((m) => m.method === '$/cancelRequest'), []);
  assert.deepEqual(logs.filter((l) => /Ignored an answer/.test(l)), [], 'a late answer to a cancelled request is not a stray');
}

test('the agent withdraws its permission request: the card says so without options, and the request is answered -32800 once', TIMEOUT, async () => {
  const r = rig();
  try {
    await r.session.start();
    const turn = r.session.prompt('ask');
    const card = await until('the permission card', () => r.session.transcript.entries.find((e): e is Tool => e.kind === 'tool' && e.permission !== undefined));
    assert.equal(card.permissionAnswer, undefined);
    await r.session.setMode('plan'); // the fixture's lever: it withdraws the question
    await turn;
    assert.equal(lastAgentText(r.session), 'withdrawn: -32800');
    const withdrawn = r.session.transcript.entries.find((e): e is Tool => e.kind === 'tool' && e.toolCallId === 'risky-1');
    assert.equal(withdrawn?.permission, undefined);
    assert.deepEqual(withdrawn?.permissionAnswer, { outcome: 'withdrawn' });
    // The user's late click finds nothing to answer.
    r.session.choosePermission('risky-1', 'yes');
    const answers = r.sent.filter((m) => !('method' in m) && m.id === 0);
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 0, error: { code: -32800, message: 'Request cancelled: session/request_permission was withdrawn by the agent' } }]);
    await assertClean(r);
  } finally {
    await r.session.runtime.stop();
  }
});

test('the agent withdraws its form: it shows withdrawn, takes no answer, and the request is answered -32800 once', TIMEOUT, async () => {
  const r = rig();
  try {
    await r.session.start();
    const turn = r.session.prompt('form');
    const form = await until('the form', () => r.session.transcript.entries.find((e): e is Form => e.kind === 'elicitation' && e.state === 'pending'));
    await r.session.setMode('plan');
    await turn;
    assert.equal(lastAgentText(r.session), 'withdrawn: -32800');
    assert.equal(r.session.transcript.entries.find((e): e is Form => e.kind === 'elicitation')?.state, 'withdrawn');
    assert.equal(r.session.answerElicitation(form.requestKey, 'accept', { port: 80 }), false);
    assert.equal(r.sent.filter((m) => !('method' in m) && m.id === 0).length, 1);
    await assertClean(r);
  } finally {
    await r.session.runtime.stop();
  }
});

test('the agent cancels its terminal/wait_for_exit: answered -32800 at once, while the command runs on', TIMEOUT, async () => {
  let waiting = false;
  const released: string[] = [];
  const terminals: TerminalPort = {
    create: async () => ({ terminalId: 't1' }),
    output: async () => ({ output: '', truncated: false }),
    waitForExit: () => {
      waiting = true;
      return new Promise(() => undefined); // the command never ends
    },
    kill: async () => undefined,
    release: async (request) => void released.push(request.terminalId),
  };
  const r = rig({}, { terminals });
  try {
    await r.session.start();
    const turn = r.session.prompt('wait');
    await until('the wait', () => waiting || undefined);
    await r.session.setMode('plan');
    await turn;
    assert.equal(lastAgentText(r.session), 'withdrawn: -32800');
    assert.deepEqual(released, ['t1'], 'the agent went on and released it');
    await assertClean(r);
  } finally {
    await r.session.runtime.stop();
  }
});

test('a session/list the user gave up on is cancelled with $/cancel_request naming its id; the late -32800 is dropped quietly', TIMEOUT, async () => {
  const r = rig();
  try {
    await r.session.start();
    const closed = new AbortController();
    const listing = r.session.runtime.list(undefined, closed.signal);
    const request = await until('session/list on the wire', () => r.sent.find((m) => m.method === 'session/list'));
    closed.abort();
    await assert.rejects(listing, RequestAbortedError);
    const got = await received(r.session);
    assert.deepEqual(got.filter((m) => m.method === '$/cancel_request'), [{ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: request.id } }]);
    assert.equal(got.filter((m) => m.method === '$/cancelRequest').length, 0);
    assert.ok(r.logs.some((l) => l.includes(`the client cancelled session/list (id ${request.id})`)), 'the agent saw it');
    await assertClean(r);
  } finally {
    await r.session.runtime.stop();
  }
});

test('a config option picked again before the answer cancels the first request; closing the session cancels what still waits', TIMEOUT, async () => {
  const r = rig();
  try {
    await r.session.start();
    const first = r.session.setConfigOption('model', 'slow');
    await until('the first set_config_option', () => r.sent.find((m) => m.method === 'session/set_config_option'));
    await r.session.setConfigOption('model', 'smart');
    await first;
    const [option] = r.session.session.view.configOptions;
    assert.equal(option?.currentValue, 'smart');
    assert.equal(r.session.transcript.entries.filter((e) => e.kind === 'error').length, 0, 'a pick the user replaced is no error');
    const got = await received(r.session);
    const picks = got.filter((m) => m.method === 'session/set_config_option');
    assert.deepEqual(got.filter((m) => m.method === '$/cancel_request').map((m) => m.params.requestId), [picks[0]?.id]);

    await assertClean(r);

    // Closed while a pick waits: the agent's process lives on for the other session, which asks it.
    const other = r.sibling();
    await other.start();
    const last = r.session.setConfigOption('model', 'slow');
    const request = await until('the last set_config_option', () => r.sent.filter((m) => m.method === 'session/set_config_option')[2]);
    await r.session.close();
    await last;
    assert.deepEqual(r.sent.filter((m) => m.method === '$/cancel_request').map((m) => m.params.requestId), [picks[0]?.id, request.id]);
    assert.equal((await received(other)).filter((m) => m.method === '$/cancel_request').at(-1)?.params.requestId, request.id);
    await assertClean({ ...r, session: other });
  } finally {
    await r.session.runtime.stop();
  }
});

test('a sign-in cancelled while the agent signs in: $/cancel_request for authenticate, the choices come back, the next one works', TIMEOUT, async () => {
  const r = rig({ FAKE_REQUIRE_AUTH: '1' });
  try {
    await r.session.start();
    assert.equal(r.session.currentStatus.phase, 'auth');
    const signingIn = r.session.authenticate('slow-login');
    await until('the sign-in in progress', () => r.session.currentStatus.signingIn);
    assert.equal(r.session.currentStatus.signingIn, 'Slow login');
    r.session.cancelSignIn();
    await signingIn;
    assert.equal(r.session.currentStatus.phase, 'auth');
    assert.equal(r.session.currentStatus.signingIn, undefined);
    assert.match(r.session.currentStatus.detail ?? '', /Signing in with "Slow login" was cancelled/);
    const authenticate = r.sent.find((m) => m.method === 'authenticate');
    assert.deepEqual(r.sent.filter((m) => m.method === '$/cancel_request').map((m) => m.params), [{ requestId: authenticate?.id }]);

    await r.session.authenticate('slow-login');
    assert.equal(r.session.currentStatus.phase, 'ready');
    const got = await received(r.session);
    assert.equal(got.filter((m) => m.method === '$/cancel_request').length, 1);
    await assertClean(r);
  } finally {
    await r.session.runtime.stop();
  }
});
