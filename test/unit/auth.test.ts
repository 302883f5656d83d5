// Sign-in (ACP §6, plus the client-side `env_var` extension): the controller against the real
// fake agent test/fixtures/agents/auth-agent.js, with fake ports standing in for VS Code
// (SecretStorage is a Map, the login terminal is a plain child process). Every log line and every
// traced message is collected and searched for the secrets.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import { clientCapabilities } from '../../src/runtime/ports';
import type { AgentPorts, LoginTerminalSpec } from '../../src/runtime/ports';
import { currentEnv } from '../../src/agent/environment';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const AGENT = path.join(FIXTURES, 'auth-agent.js');

interface Rig {
  controller: AgentSession;
  logs: string[];
  traces: string[];
  asked: { agentName: string; varName: string; prompt: string }[];
  logins: LoginTerminalSpec[];
  store: Map<string, string>;
  /** Every log line and traced message, for searching secrets. */
  everything(): string;
}

interface RigOptions {
  /** What the fake InputBox answers (undefined = the user pressed Escape). */
  answer?: string;
  store?: Map<string, string>;
  withoutSecrets?: boolean;
}

function rig(env: Record<string, string>, options: RigOptions = {}): Rig {
  const logs: string[] = [];
  const traces: string[] = [];
  const asked: Rig['asked'] = [];
  const logins: LoginTerminalSpec[] = [];
  const store = options.store ?? new Map<string, string>();
  const record = (level: string) => (m: string) => logs.push(`${level} ${m}`);
  const ports: AgentPorts = {
    readTextFile: async () => 'x',
    log: { info: record('info'), warn: record('warn'), error: record('error') },
    onTrace: (_name, direction, message) => traces.push(`${direction} ${JSON.stringify(message)}`),
    runLoginTerminal: async (spec) => {
      logins.push(spec);
      const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: 'ignore' });
      return new Promise((resolve) => child.on('exit', (code) => resolve({ exitCode: code ?? undefined })));
    },
  };
  if (!options.withoutSecrets) {
    ports.askSecret = async ({ name: agentName }, varName, prompt) => {
      asked.push({ agentName, varName, prompt });
      if (options.answer !== undefined) store.set(`${agentName}/${varName}`, options.answer);
      return options.answer;
    };
    ports.storedSecrets = async ({ name: agentName }) =>
      Object.fromEntries([...store].filter(([k]) => k.startsWith(`${agentName}/`)).map(([k, v]) => [k.slice(agentName.length + 1), v]));
  }
  const controller = new AgentSession(
    { name: 'Fake', identity: 'test', launch: async () => ({ command: process.execPath, args: [AGENT], cwd: FIXTURES, env: { ...currentEnv(), ...env } }) },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    ports,
  );
  return { controller, logs, traces, asked, logins, store, everything: () => [...logs, ...traces].join('\n') };
}

async function until(what: string, probe: () => boolean, timeoutMs = 8000): Promise<void> {
  for (const started = Date.now(); !probe(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The methods of what the controller sent, in order (from the trace). */
function sent(r: Rig): string[] {
  return r.traces.filter((t) => t.startsWith('send ')).map((t) => (JSON.parse(t.slice(5)) as { method?: string }).method ?? '(response)');
}

test('clientCapabilities advertises auth.terminal only with a login-terminal port', () => {
  const base = { readTextFile: async () => '', log: { info() {}, warn() {}, error() {} }, onTrace: () => undefined };
  assert.equal(clientCapabilities(base).auth, undefined);
  assert.deepEqual(clientCapabilities({ ...base, runLoginTerminal: async () => ({ exitCode: 0 }) }).auth, { terminal: true });
});

test('agent method: session/new answers -32000, the panel offers the method, authenticate then session/new again', async () => {
  const r = rig({ AUTH_KIND: 'agent' });
  const c = r.controller;
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'auth');
    assert.deepEqual(c.currentStatus.authMethods, [{ id: 'fake-login', name: 'Log in with Fake', description: 'The agent signs in by itself', type: 'agent' }]);
    assert.equal(c.currentStatus.detail, undefined);
    await c.start(); // does not start (or ask) again while the choice is open
    assert.deepEqual(sent(r), ['initialize', 'session/new']);
    const init = JSON.parse(r.traces[0].slice(5)) as { params: { clientCapabilities: { auth?: unknown } } };
    assert.deepEqual(init.params.clientCapabilities.auth, { terminal: true });

    await c.authenticate('nonexistent');
    assert.equal(c.currentStatus.phase, 'auth', 'an unknown method id does nothing');
    await c.authenticate('fake-login');
    assert.equal(c.currentStatus.phase, 'ready');
    assert.equal(c.currentStatus.authMethods, undefined);
    await c.prompt('hello');
    assert.deepEqual(sent(r), ['initialize', 'session/new', 'authenticate', 'session/new', 'session/prompt']);
    const auth = r.traces.map((t) => JSON.parse(t.slice(t.indexOf(' ') + 1)) as { method?: string; params?: unknown }).find((m) => m.method === 'authenticate');
    assert.deepEqual(auth?.params, { methodId: 'fake-login' });
    assert.equal(c.transcript.entries.filter((e) => e.kind === 'error').length, 0);
  } finally {
    await c.stop();
  }
});

test('agent method: a second -32000 after a sign-in is an error, not another round', async () => {
  const r = rig({ AUTH_KIND: 'agent', AUTH_NEVER: '1' });
  const c = r.controller;
  try {
    await c.start();
    await c.authenticate('fake-login');
    assert.equal(c.currentStatus.phase, 'auth', 'the choice stays open for another try');
    assert.match(c.currentStatus.detail ?? '', /Fake still asks to sign in after signing in with "Log in with Fake"/);
    const error = c.transcript.entries.at(-1);
    assert.match(error?.kind === 'error' ? error.message : '', /still asks to sign in/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(sent(r), ['initialize', 'session/new', 'authenticate', 'session/new'], 'no automatic retry');
  } finally {
    await c.stop();
  }
});

test('agent method: a prompt answered -32000 waits in the queue, and is retried once after the sign-in', async () => {
  const r = rig({ AUTH_KIND: 'agent', AUTH_ON: 'prompt' });
  const c = r.controller;
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'ready');
    let done = false;
    const turn = c.prompt('hello').then(() => (done = true));
    await until('the auth phase', () => c.currentStatus.phase === 'auth');
    assert.equal(done, false);
    assert.deepEqual(c.session.view.queue.map((q) => q.text), ['hello'], 'the prompt waits, visibly');
    await c.authenticate('fake-login');
    await turn;
    assert.equal(c.currentStatus.phase, 'ready');
    assert.deepEqual(sent(r), ['initialize', 'session/new', 'session/prompt', 'authenticate', 'session/prompt']);
    assert.deepEqual(c.transcript.entries.filter((e) => e.kind === 'user').length, 1, 'the prompt shows once');
    assert.match(c.transcript.entries.filter((e) => e.kind === 'agent').map((e) => (e.kind === 'agent' ? e.text : '')).join(''), /hello/);
  } finally {
    await c.stop();
  }
});

test('env_var method: asked once, kept in the (fake) SecretStorage, the agent restarted with it; never logged or traced', async () => {
  const SECRET = 'sk-fake-0123456789-SECRET';
  const store = new Map<string, string>();
  const r = rig({ AUTH_KIND: 'env_var', AUTH_EXPECTED_VALUE: SECRET, AUTH_LEAK: '1' }, { answer: SECRET, store });
  const c = r.controller;
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'auth');
    assert.deepEqual(c.currentStatus.authMethods, [{ id: 'fake-key', name: 'Fake API key', description: 'Paste your key', type: 'env_var' }]);
    await c.authenticate('fake-key');
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.deepEqual(r.asked.map(({ agentName, varName }) => ({ agentName, varName })), [{ agentName: 'Fake', varName: 'FAKE_API_KEY' }]);
    assert.match(r.asked[0].prompt, /FAKE_API_KEY/);
    assert.equal(store.get('Fake/FAKE_API_KEY'), SECRET);
    assert.ok(!sent(r).includes('authenticate'), 'env_var never calls authenticate');
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 2, 'restarted');
    assert.ok(r.logs.some((l) => l.includes('FAKE_API_KEY set from SecretStorage')), r.logs.join('\n'));
    await c.prompt('hi');
    await until('the agent’s careless stderr line', () => r.logs.some((l) => l.includes('careless: FAKE_API_KEY=')));
    assert.ok(r.logs.some((l) => l.includes('careless: FAKE_API_KEY=***')), 'what the agent prints is masked');
    assert.ok(!r.everything().includes(SECRET), 'the secret is in no log line or trace message');
  } finally {
    await c.stop();
  }

  // A later start (another controller, same store): no question, straight to ready.
  const again = rig({ AUTH_KIND: 'env_var', AUTH_EXPECTED_VALUE: SECRET }, { answer: 'not-asked', store });
  try {
    await again.controller.start();
    assert.equal(again.controller.currentStatus.phase, 'ready');
    assert.equal(again.asked.length, 0, 'asked once');
    assert.ok(!again.everything().includes(SECRET));
  } finally {
    await again.controller.stop();
  }
});

test('env_var method: cancelling the question leaves the choice open with a message; without a secret store it is not offered', async () => {
  const r = rig({ AUTH_KIND: 'env_var' }, { answer: undefined });
  try {
    await r.controller.start();
    await r.controller.authenticate('fake-key');
    assert.equal(r.controller.currentStatus.phase, 'auth');
    assert.match(r.controller.currentStatus.detail ?? '', /cancelled: no value for FAKE_API_KEY/);
    assert.equal(r.store.size, 0);
  } finally {
    await r.controller.stop();
  }

  const bare = rig({ AUTH_KIND: 'env_var' }, { withoutSecrets: true });
  try {
    await bare.controller.start();
    assert.equal(bare.controller.currentStatus.phase, 'crashed', 'no method this client can run: the -32000 is a start failure');
    assert.match(bare.controller.currentStatus.detail ?? '', /Authentication required/);
  } finally {
    await bare.controller.stop();
  }
});

test('terminal method: the agent command runs with the method args and env, exit 0 restarts the agent; authenticate is never sent', async () => {
  const TOKEN = 'terminal-env-SECRET-42';
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-auth-'));
  const r = rig({ AUTH_KIND: 'terminal', AUTH_MARKER_DIR: dir, AUTH_TERMINAL_TOKEN: TOKEN });
  const c = r.controller;
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'auth');
    assert.deepEqual(c.currentStatus.authMethods, [{ id: 'fake-terminal', name: 'Log in in a terminal', description: null, type: 'terminal' }]);
    await c.authenticate('fake-terminal');
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.equal(r.logins.length, 1);
    const [login] = r.logins;
    assert.equal(login.command, process.execPath);
    assert.deepEqual(login.args, [AGENT, '--login']);
    assert.equal(login.env.FAKE_LOGIN_TOKEN, TOKEN);
    assert.equal(login.env.AUTH_KIND, 'terminal', 'the launch env is kept under the method env');
    assert.equal(login.cwd, FIXTURES);
    assert.equal(login.agentName, 'Fake');
    assert.ok(!sent(r).includes('authenticate'));
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 2, 'reconnected and re-initialized');
    assert.ok(!r.everything().includes(TOKEN), 'the method env value is in no log line or trace message');
    assert.ok(r.traces.some((t) => t.includes('"FAKE_LOGIN_TOKEN":"***"')), 'the trace keeps the name, masks the value');
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('terminal method: a failed login command leaves the choice open with its exit code', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-auth-'));
  const r = rig({ AUTH_KIND: 'terminal', AUTH_MARKER_DIR: dir, AUTH_LOGIN_EXIT: '2' });
  try {
    await r.controller.start();
    await r.controller.authenticate('fake-terminal');
    assert.equal(r.controller.currentStatus.phase, 'auth');
    assert.match(r.controller.currentStatus.detail ?? '', /the login command exited with code 2/);
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 1, 'no restart after a failure');
  } finally {
    await r.controller.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
