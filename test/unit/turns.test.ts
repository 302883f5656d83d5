// How turns end when they do not end with a stop reason, against a real fake agent
// (test/fixtures/agents/turns-agent.js, whose sessions and request log are a state folder): a
// prompt answered with an error, questions the agent asks between turns, a session/load that
// fails, and a turn the agent carries on after session/load (its quiet end is tested with a fake
// clock in carriedTurn.test.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import type { SessionOptions } from '../../src/session/agentSession';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts } from '../../src/runtime/ports';
import type { Entry } from '../../src/session/model';
import { currentEnv } from '../../src/agent/environment';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const silent = { info() {}, warn() {}, error() {} };

interface Logged {
  pid: number;
  method?: string;
  answer?: string;
  toolCallId?: string;
  result?: unknown;
  wrong?: unknown;
  params?: { sessionId?: string };
}

function turnsAgent(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-turns-'));
  const definition: AgentDefinition = {
    name: 'Turns',
    identity: 'test',
    launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'turns-agent.js')], cwd: FIXTURES, env: { ...currentEnv(), FAKE_STATE_DIR: dir, ...env } }),
  };
  const settings = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };
  const ports: AgentPorts = { readTextFile: async () => 'x', log: silent, onTrace: () => undefined, forms: true };
  /** A session with the agent (on a process of its own unless `options.runtime`); `options.sessionId` brings one back. */
  const open = (options?: SessionOptions) => new AgentSession(definition, settings, ports, options);
  /** One process for several sessions. */
  const runtime = () => new AgentRuntime(definition, settings, ports);
  const log = (): Logged[] => fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Logged);
  return { dir, session: open(), open, runtime, log };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10000): Promise<T> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 10))) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The transcript in short: text entries, cards with their status and answer, forms, turn ends. */
function shown(c: AgentSession): string[] {
  return c.transcript.entries.map((e: Entry) => {
    switch (e.kind) {
      case 'tool':
        return `tool ${e.toolCallId} ${e.status}${e.permission ? ' asking' : ''}${e.permissionAnswer ? ` ${e.permissionAnswer.outcome === 'selected' ? e.permissionAnswer.name : 'cancelled'}` : ''}`;
      case 'turnEnd':
        return `end ${e.stopReason}${e.error ? ` ${e.error.code} ${e.error.message}` : ''}`;
      case 'elicitation':
        return `form ${e.state}`;
      case 'error':
        return `error ${e.message}`;
      case 'plan':
        return 'plan';
      case 'user':
      case 'agent':
      case 'thought':
        return `${e.kind} ${e.text}`;
      default:
        return e.kind;
    }
  });
}

test('a prompt answered with an error ends like a turn: its running card unfinished, a marker with the message and code; the queue carries on', async () => {
  const { session: c } = turnsAgent();
  try {
    await c.start();
    const failing = c.prompt('fail');
    const after = c.prompt('after');
    assert.deepEqual(c.session.view.queue.map((q) => q.text), ['after']);
    await Promise.all([failing, after]);
    assert.deepEqual(shown(c), [
      'user fail',
      'tool fail-1 unfinished',
      'agent compiling',
      'end failed -32603 Internal error: the model is overloaded',
      'user after',
      'agent after',
      'end end_turn',
    ]);
    assert.equal(c.currentStatus.phase, 'ready');
    await c.prompt('still usable');
    assert.deepEqual(shown(c).slice(-2), ['agent still usable', 'end end_turn']);
  } finally {
    await c.stop();
  }
});

test('questions between turns: shown, not cancelled by the next turn, answered or dismissed (Stop); the end of a turn cancels only its own', async () => {
  const { session: c, log } = turnsAgent();
  try {
    await c.prompt('ask later');
    await until('the questions asked after the turn', () => (shown(c).includes('tool later-1 pending asking') && shown(c).includes('form pending') ? true : undefined));
    assert.equal(c.currentStatus.phase, 'ready', 'no turn runs');

    await c.prompt('ask and end');
    await until('the answer to the question of that turn', () => log().find((m) => m.answer && m.toolCallId === 'in-turn-1'));
    await c.prompt('next');
    const now = shown(c);
    assert.ok(now.includes('tool later-1 pending asking'), `the permission asked between turns still asks: ${now.join(' | ')}`);
    assert.ok(now.includes('form pending'), 'and so does the form');
    assert.ok(now.includes('tool in-turn-1 unfinished cancelled'), `the question of the turn was cancelled with it: ${now.join(' | ')}`);

    c.choosePermission('later-1', 'allow');
    await until('the permission answer', () => log().find((m) => m.answer && m.toolCallId === 'later-1'));
    assert.ok(shown(c).includes('tool later-1 pending Allow once'), 'the card shows the answer chosen');
    await c.cancel(); // Stop between turns: what still waits is dismissed
    await until('the form answer', () => log().find((m) => m.answer === 'elicitation/create'));
    assert.ok(shown(c).includes('form cancelled'));

    const answers = log().filter((m) => m.answer || m.wrong);
    assert.deepEqual(
      answers.map((m) => [m.answer ?? 'WRONG', m.toolCallId, m.result]),
      [
        ['session/request_permission', 'in-turn-1', { outcome: { outcome: 'cancelled' } }],
        ['session/request_permission', 'later-1', { outcome: { outcome: 'selected', optionId: 'allow' } }],
        ['elicitation/create', undefined, { action: 'cancel' }],
      ],
    );
    assert.ok(!log().some((m) => m.method === 'session/cancel'), 'no turn ran: nothing to cancel on the agent');
  } finally {
    await c.stop();
  }
});

test('a permission card dismissed between turns answers cancelled, and says so', async () => {
  const { session: c, log } = turnsAgent();
  try {
    await c.prompt('ask later');
    await until('the permission asked after the turn', () => (shown(c).includes('tool later-1 pending asking') ? true : undefined));
    c.choosePermission('later-1', undefined);
    const answer = await until('its answer', () => log().find((m) => m.answer && m.toolCallId === 'later-1'));
    assert.deepEqual(answer.result, { outcome: { outcome: 'cancelled' } });
    assert.ok(shown(c).includes('tool later-1 pending cancelled'));
    assert.ok(shown(c).includes('form pending'), 'the form is another question: it still waits');
  } finally {
    await c.stop();
  }
});

test('a session/load that fails keeps what was shown, says why, and the session goes on in a new one', async () => {
  const { dir, session: c, log } = turnsAgent();
  try {
    await c.prompt('hello');
    const before = shown(c);
    fs.writeFileSync(path.join(dir, 'fail-load'), '');
    await c.restart();
    assert.equal(c.currentStatus.phase, 'ready');
    assert.deepEqual(shown(c).slice(0, before.length), before, 'kept');
    assert.match(shown(c)[before.length], /^error Turns could not load the session: Internal error: the session store is locked\. What follows is a new session\.$/);
    assert.deepEqual(log().slice(-3).map((m) => m.method), ['initialize', 'session/load', 'session/new']);
    await c.prompt('again');
    assert.deepEqual(shown(c).slice(-2), ['agent again', 'end end_turn']);
  } finally {
    await c.stop();
  }
});

test('a turn the agent carries on after session/load shows as running, queues prompts, and Stop ends it with session/cancel', async () => {
  const { session: c, log } = turnsAgent();
  try {
    await c.start();
    const long = c.prompt('long');
    await until('the long tool call', () => (shown(c).includes('tool long-1 in_progress') ? true : undefined));
    await c.restart();
    await long;
    assert.equal(c.currentStatus.phase, 'prompting', 'the replay left a tool call running: the agent carries on');
    await until('the turn carried on', () => (shown(c).includes('agent working still working') ? true : undefined));
    assert.deepEqual(shown(c), ['user long', 'tool long-1 in_progress', 'agent working still working']);

    const queued = c.prompt('after');
    assert.deepEqual(c.session.view.queue.map((q) => q.text), ['after'], 'one turn at a time');
    await c.cancel();
    await queued;
    assert.deepEqual(shown(c), ['user long', 'tool long-1 unfinished', 'agent working still working', 'end cancelled', 'user after', 'agent after', 'end end_turn']);
    const second = log().filter((m) => m.pid === log().at(-1)!.pid).map((m) => m.method);
    assert.deepEqual(second, ['initialize', 'session/load', 'session/cancel', 'session/prompt']);
    assert.equal(c.currentStatus.phase, 'ready');
  } finally {
    await c.stop();
  }
});

test('a prompt sent to a session brought back (a window reload) waits for the turn its load finds running', async () => {
  const { session: before, open, log } = turnsAgent();
  await before.start();
  void before.prompt('long');
  await until('the long tool call', () => (shown(before).includes('tool long-1 in_progress') ? true : undefined));
  const sessionId = before.agentSessionId;
  await before.stop();

  const after = open({ sessionId });
  try {
    const waiting = after.prompt('after the reload');
    // The agent's chunk after the load answer arrives on its own time: wait for it, not only the phase.
    await until('the turn carried on, with the prompt queued', () =>
      after.currentStatus.phase === 'prompting' && after.session.view.queue.length === 1 && shown(after).includes('agent working still working') ? true : undefined,
    );
    assert.deepEqual(shown(after), ['user long', 'tool long-1 in_progress', 'agent working still working']);
    await after.cancel();
    await waiting;
    assert.deepEqual(shown(after).slice(3), ['end cancelled', 'user after the reload', 'agent after the reload', 'end end_turn']);
    const methods = log().filter((m) => m.pid === log().at(-1)!.pid).map((m) => m.method);
    assert.deepEqual(methods, ['initialize', 'session/load', 'session/cancel', 'session/prompt'], 'the prompt went after the cancel, not on top of the running turn');
  } finally {
    await after.stop();
  }
});

test('Stop: its running tool call is unfinished at once, and a turn the agent answers with an error ends cancelled, not failed', async () => {
  const { session: c } = turnsAgent();
  try {
    await c.start();
    const turn = c.prompt('abort fails');
    await until('the running tool call', () => (shown(c).includes('tool abort-1 in_progress') ? true : undefined));
    await c.cancel();
    assert.deepEqual(shown(c), ['user abort fails', 'tool abort-1 unfinished'], 'marked when Stop was sent, before the agent answers (300 ms later)');
    await turn;
    assert.deepEqual(shown(c), ['user abort fails', 'tool abort-1 unfinished', 'end cancelled']);
    assert.equal(c.currentStatus.phase, 'ready');
  } finally {
    await c.stop();
  }
});

test('closing a session mid-turn while another keeps the process: session/cancel, then session/close, and the other goes on', async () => {
  const agent = turnsAgent({ FAKE_CLOSE: '1' });
  const runtime = agent.runtime();
  const closing = agent.open({ runtime });
  const staying = agent.open({ runtime });
  try {
    await staying.start();
    const turn = closing.prompt('long');
    await until('the running tool call', () => (shown(closing).includes('tool long-1 in_progress') ? true : undefined));
    const sessionId = closing.agentSessionId;
    await closing.close();
    const toIt = () => agent.log().filter((m) => m.params?.sessionId === sessionId).map((m) => m.method);
    await until('session/close', () => (toIt().includes('session/close') ? true : undefined));
    assert.deepEqual(toIt(), ['session/prompt', 'session/cancel', 'session/close'], 'the turn stopped before the session closed');
    await turn;
    assert.ok(runtime.current, 'the process lives on for the other session');
    await staying.prompt('still here');
    assert.deepEqual(shown(staying), ['user still here', 'agent still here', 'end end_turn']);
  } finally {
    await staying.close();
    await runtime.stop();
  }
});

test('a message the agent sends after session/load does not hold the next prompt: it goes out at once', async () => {
  const { session: before, open } = turnsAgent();
  await before.prompt('greet on load');
  const sessionId = before.agentSessionId;
  await before.stop();

  const after = open({ sessionId });
  try {
    await after.start();
    await until('the message after the load', () => (shown(after).some((line) => line.endsWith('welcome back')) ? true : undefined));
    const started = Date.now();
    await after.prompt('right away');
    const waited = Date.now() - started;
    assert.ok(waited < 2000, `sent after ${waited} ms: nothing of the agent's was running`);
    assert.deepEqual(shown(after).slice(-3), ['user right away', 'agent right away', 'end end_turn']);
    assert.ok(!shown(after).includes('end quiet'), 'the prompt ended what the message began, without a marker');
  } finally {
    await after.stop();
  }
});
