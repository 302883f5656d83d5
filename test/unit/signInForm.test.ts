// Sign-in that asks in a form: an `elicitation/create` that names our request in flight
// (`requestId`: initialize or authenticate) instead of a session is shown by the session waiting
// on that request, marked as the agent's, and the answer goes back to the agent. Against
// test/fixtures/agents/sign-in-form-agent.js, which asks during initialize or authenticate, in
// form or URL mode, and reports what it was answered.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { AgentRuntime } from '../../src/runtime/agentRuntime';
import type { AgentDefinition, AgentPorts, ControllerSettings } from '../../src/runtime/ports';
import { AgentSession } from '../../src/session/agentSession';
import type { FormEntry, UrlEntry } from '../../src/session/model';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { lastAgentText, until as poll } from './helpers/elicitAgent';

/** A loaded machine starts a Node agent slowly. */
const until = <T>(probe: () => T | undefined) => poll(probe, 20000);

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const silent = { info() {}, warn() {}, error() {} };

interface Rig {
  agent: AgentDefinition;
  settings: ControllerSettings;
  ports: AgentPorts;
  /** Every message we sent, parsed. */
  sent: { id?: unknown; method?: string; result?: unknown; error?: { code: number } }[];
}

function rig(during: 'initialize' | 'authenticate', mode: 'form' | 'url', initializeTimeoutMs = 10000): Rig {
  const sent: Rig['sent'] = [];
  const env = { ...currentEnv(), FAKE_ASK_DURING: during, FAKE_ASK_MODE: mode };
  return {
    agent: { name: 'Fake Cloud', identity: 'test', launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'sign-in-form-agent.js')], cwd: FIXTURES, env }) },
    settings: { initializeTimeoutMs, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    ports: { readTextFile: async () => 'x', log: silent, forms: true, onTrace: (_name, direction, message) => void (direction === 'send' && sent.push(message as Rig['sent'][number])) },
    sent,
  };
}

const forms = (s: AgentSession) => s.transcript.entries.filter((e): e is FormEntry => e.kind === 'elicitation');
const urls = (s: AgentSession) => s.transcript.entries.filter((e): e is UrlEntry => e.kind === 'urlElicitation');
/** Our answers to the agent's elicitation/create (by the id it used). */
const elicitationAnswers = (r: Rig) => r.sent.filter((m) => m.method === undefined && m.id !== undefined && (m.result as { action?: string } | undefined)?.action !== undefined).map((m) => m.result);
const refusals = (r: Rig) => r.sent.filter((m) => m.method === undefined && m.error !== undefined);

/** What the agent was answered, as it reports it on the prompt `__signin__`. */
async function agentGot(s: AgentSession): Promise<unknown> {
  await s.prompt('__signin__');
  return JSON.parse(lastAgentText(s) ?? 'null');
}

test('during initialize, form mode: the starting session shows the form as the agent’s; the answer goes back and initialize then succeeds', async () => {
  const r = rig('initialize', 'form');
  const s = new AgentSession(r.agent, r.settings, r.ports);
  try {
    const started = s.start();
    const [form] = await until(() => (forms(s).length > 0 ? forms(s) : undefined));
    assert.equal(s.currentStatus.phase, 'starting', 'no session yet: the agent is initializing');
    assert.deepEqual([form.state, form.forAgent, form.agentName, form.message, form.title], ['pending', true, 'Fake Cloud', 'Sign in to Fake Cloud', 'Fake Cloud account']);
    assert.ok(EntryViewSchema.safeParse(form).success, 'a valid view entry');
    assert.equal(s.answerElicitation(form.requestKey, 'accept', { user: 'ada' }), true);
    await started;
    assert.equal(s.currentStatus.phase, 'ready');
    assert.deepEqual(refusals(r), []);
    assert.deepEqual(await agentGot(s), { action: 'accept', content: { user: 'ada' } });
  } finally {
    await s.stop();
  }
});

test('during initialize, URL mode: the card waits for the user’s Open, then for elicitation/complete; the user’s time does not count against the initialize timeout', async () => {
  const r = rig('initialize', 'url', 5000);
  const s = new AgentSession(r.agent, r.settings, r.ports);
  try {
    const started = s.start();
    const [card] = await until(() => (urls(s).length > 0 ? urls(s) : undefined));
    assert.deepEqual([card.state, card.forAgent, card.host], ['pending', true, 'login.example.com']);
    await new Promise((resolve) => setTimeout(resolve, 6000)); // the user reads, longer than the timeout
    assert.equal(s.answerElicitation(card.requestKey, 'accept'), true);
    await started;
    assert.equal(s.currentStatus.phase, 'ready', `started: ${s.currentStatus.detail ?? ''}`);
    await until(() => (urls(s)[0].state === 'completed' ? true : undefined));
    assert.deepEqual(await agentGot(s), { action: 'accept' });
  } finally {
    await s.stop();
  }
});

test('during authenticate, form mode: the session signing in shows the form; accept signs in and the session opens', async () => {
  const r = rig('authenticate', 'form');
  const s = new AgentSession(r.agent, r.settings, r.ports);
  try {
    await s.start();
    assert.equal(s.currentStatus.phase, 'auth');
    const signingIn = s.authenticate('fake-oauth');
    const [form] = await until(() => (forms(s).length > 0 ? forms(s) : undefined));
    assert.equal(s.currentStatus.signingIn, 'Fake Cloud');
    assert.equal(form.forAgent, true);
    s.answerElicitation(form.requestKey, 'accept', { user: 'grace' });
    await signingIn;
    assert.equal(s.currentStatus.phase, 'ready');
    assert.deepEqual(await agentGot(s), { action: 'accept', content: { user: 'grace' } });
  } finally {
    await s.stop();
  }
});

test('during authenticate, URL mode: Stop answers the card `cancel`; the sign-in fails and its choices come back', async () => {
  const r = rig('authenticate', 'url');
  const s = new AgentSession(r.agent, r.settings, r.ports);
  try {
    await s.start();
    const signingIn = s.authenticate('fake-oauth');
    const [card] = await until(() => (urls(s).length > 0 ? urls(s) : undefined));
    assert.equal(card.forAgent, true);
    await s.cancel();
    await signingIn;
    assert.equal(urls(s)[0].state, 'cancelled');
    assert.deepEqual(elicitationAnswers(r), [{ action: 'cancel' }]);
    assert.equal(s.currentStatus.phase, 'auth');
    assert.match(s.currentStatus.detail ?? '', /Sign-in cancelled/);
  } finally {
    await s.stop();
  }
});

test('several sessions start the same agent: the first shows the question once, the answer serves all; closing it answers `cancel`', async () => {
  const r = rig('initialize', 'form');
  const runtime = new AgentRuntime(r.agent, r.settings, r.ports);
  const [a, b] = [0, 1].map(() => new AgentSession(r.agent, r.settings, r.ports, { runtime }));
  try {
    const started = Promise.all([a.start(), b.start()]);
    const [form] = await until(() => (forms(a).length > 0 ? forms(a) : undefined));
    assert.equal(forms(b).length, 0, 'shown once');
    a.answerElicitation(form.requestKey, 'accept', { user: 'ada' });
    await started;
    assert.deepEqual([a.currentStatus.phase, b.currentStatus.phase], ['ready', 'ready']);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }

  const again = rig('initialize', 'form');
  const shared = new AgentRuntime(again.agent, again.settings, again.ports);
  const [first, second] = [0, 1].map(() => new AgentSession(again.agent, again.settings, again.ports, { runtime: shared }));
  try {
    void first.start();
    const starting = second.start();
    await until(() => (forms(first).length > 0 ? true : undefined));
    await first.close();
    assert.equal(forms(first)[0].state, 'cancelled');
    await until(() => (elicitationAnswers(again).length > 0 ? true : undefined));
    assert.deepEqual(elicitationAnswers(again), [{ action: 'cancel' }]);
    await starting;
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});
