// Sign-in (ACP §6, plus the client-side `env_var` extension) and sign-out (`logout`): the
// controller against the real fake agent test/fixtures/agents/auth-agent.js, with fake ports
// standing in for VS Code (SecretStorage is a Map, the login terminal is a plain child process,
// the confirmation dialog a canned answer). Every log line and every traced message is collected
// and searched for the secrets; what we send is checked against the official schema.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import { clientCapabilities } from '../../src/runtime/ports';
import type { AgentDefinition, AgentPorts, LoginTerminalSpec } from '../../src/runtime/ports';
import { currentEnv } from '../../src/agent/environment';
import type { NewAuditEvent } from '../../src/audit/auditEvent';
import { assertSpecMessage } from './helpers/officialSchema';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const AGENT = path.join(FIXTURES, 'auth-agent.js');

interface Rig {
  controller: AgentSession;
  agent: AgentDefinition;
  ports: AgentPorts;
  logs: string[];
  traces: string[];
  asked: { agentName: string; varName: string; prompt: string }[];
  logins: LoginTerminalSpec[];
  /** The command lines the confirmation dialog was shown for. */
  confirms: string[];
  audits: NewAuditEvent[];
  store: Map<string, string>;
  /** Every log line and traced message, for searching secrets. */
  everything(): string;
}

interface RigOptions {
  /** What the fake InputBox answers (undefined = the user pressed Escape). */
  answer?: string;
  store?: Map<string, string>;
  withoutSecrets?: boolean;
  /** How the agent is started (default: this Node with auth-agent.js). */
  launch?: { command: string; args: string[]; fallbackArgs?: string[][] };
  /** What the user answers when asked to run a login command the agent chose. */
  confirm?: boolean;
}

const SETTINGS = { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' };

function rig(env: Record<string, string>, options: RigOptions = {}): Rig {
  const logs: string[] = [];
  const traces: string[] = [];
  const asked: Rig['asked'] = [];
  const logins: LoginTerminalSpec[] = [];
  const confirms: string[] = [];
  const audits: NewAuditEvent[] = [];
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
    confirmLoginCommand: async (_agentName, commandLine) => (confirms.push(commandLine), options.confirm ?? false),
    audit: (event) => void audits.push(event),
  };
  if (!options.withoutSecrets) {
    ports.askSecret = async ({ name: agentName }, varName, prompt) => {
      asked.push({ agentName, varName, prompt });
      if (options.answer !== undefined) store.set(`${agentName}/${varName}`, options.answer);
      return options.answer;
    };
    ports.storedSecrets = async ({ name: agentName }) =>
      Object.fromEntries([...store].filter(([k]) => k.startsWith(`${agentName}/`)).map(([k, v]) => [k.slice(agentName.length + 1), v]));
    ports.forgetSecrets = async ({ name: agentName }) => {
      const keys = [...store.keys()].filter((k) => k.startsWith(`${agentName}/`));
      for (const key of keys) store.delete(key);
      return keys.length;
    };
  }
  const { command, args, fallbackArgs } = options.launch ?? { command: process.execPath, args: [AGENT] };
  const agent: AgentDefinition = { name: 'Fake', identity: 'test', launch: async () => ({ command, args, cwd: FIXTURES, env: { ...currentEnv(), ...env } }), fallbackArgs };
  const controller = new AgentSession(agent, SETTINGS, ports);
  return { controller, agent, ports, logs, traces, asked, logins, confirms, audits, store, everything: () => [...logs, ...traces].join('\n') };
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

/** What we sent, parsed (requests and notifications; our answers have no method). */
function sentMessages(r: Rig): { method?: string; params?: unknown }[] {
  return r.traces.filter((t) => t.startsWith('send ')).map((t) => JSON.parse(t.slice(5)) as { method?: string; params?: unknown });
}

/** Every request and notification we sent is ACP v1 as the official schema has it. */
function assertSentValid(r: Rig): void {
  for (const message of sentMessages(r)) if (message.method) assertSpecMessage(message, { from: 'client' });
}

/** What the fake agent said on stderr was forbidden (a method it must not get). */
const forbidden = (r: Rig) => r.logs.filter((l) => l.includes('FORBIDDEN'));

test('clientCapabilities advertises auth.terminal (and the older _meta form) only with a login-terminal port', () => {
  const base = { readTextFile: async () => '', log: { info() {}, warn() {}, error() {} }, onTrace: () => undefined };
  assert.equal(clientCapabilities(base).auth, undefined);
  assert.equal(clientCapabilities(base)._meta, undefined);
  const withTerminal = clientCapabilities({ ...base, runLoginTerminal: async () => ({ exitCode: 0 }) });
  assert.deepEqual(withTerminal.auth, { terminal: true });
  assert.deepEqual(withTerminal._meta, { 'terminal-auth': true });
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
    assert.deepEqual(forbidden(r), []);
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'logged-in'), 'utf8')), { argv: ['--login'], token: TOKEN }, 'the login process got the args and the env');
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 2, 'reconnected and re-initialized');
    assert.ok(!r.everything().includes(TOKEN), 'the method env value is in no log line or trace message');
    assert.ok(r.traces.some((t) => t.includes('"FAKE_LOGIN_TOKEN":"***"')), 'the trace keeps the name, masks the value');
    assert.deepEqual(r.audits.map(({ kind, target, decision, by, detail }) => ({ kind, target, decision, by, detail })), [
      { kind: 'sign-in', target: 'Log in in a terminal', decision: 'allowed', by: 'user', detail: 'terminal method fake-terminal' },
    ]);
    assertSentValid(r);
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

test('terminal method: the login runs the command line that started the agent (its fallback args, its env), not a fresh launch', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-auth-'));
  // The configured args start a program that dies during initialize; the fallback is the agent.
  const r = rig({ AUTH_KIND: 'terminal', AUTH_MARKER_DIR: dir }, { launch: { command: process.execPath, args: [path.join(FIXTURES, 'crash-on-initialize.js')], fallbackArgs: [[AGENT]] } });
  try {
    await r.controller.start();
    assert.equal(r.controller.currentStatus.phase, 'auth', r.controller.currentStatus.detail);
    await r.controller.authenticate('fake-terminal');
    assert.equal(r.controller.currentStatus.phase, 'ready', r.controller.currentStatus.detail);
    assert.deepEqual(r.logins.map((l) => l.args), [[AGENT, '--login']]);
  } finally {
    await r.controller.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('terminal method: not listed by an agent to a client that does not run them; then nothing is offered', async () => {
  const r = rig({ AUTH_KIND: 'terminal' });
  delete r.ports.runLoginTerminal;
  try {
    await r.controller.start();
    assert.equal(r.controller.currentStatus.phase, 'crashed', 'no method: the -32000 is a start failure');
    const init = sentMessages(r).find((m) => m.method === 'initialize') as { params: { clientCapabilities: Record<string, unknown> } };
    assert.equal(init.params.clientCapabilities.auth, undefined);
    assert.equal(init.params.clientCapabilities._meta, undefined);
  } finally {
    await r.controller.stop();
  }
});

test('older _meta["terminal-auth"] form naming the agent’s own program: a terminal sign-in, run without asking, never authenticate', async () => {
  const TOKEN = 'meta-env-SECRET-7';
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-auth-'));
  const r = rig({ AUTH_KIND: 'terminal-meta', AUTH_MARKER_DIR: dir, AUTH_TERMINAL_TOKEN: TOKEN });
  const c = r.controller;
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'auth', c.currentStatus.detail);
    assert.deepEqual(c.currentStatus.authMethods, [{ id: 'fake-meta-login', name: 'Log in (older form)', description: null, type: 'terminal' }]);
    await c.authenticate('fake-meta-login');
    assert.equal(c.currentStatus.phase, 'ready', c.currentStatus.detail);
    assert.deepEqual(r.confirms, [], 'its own program: no question');
    assert.deepEqual(r.logins.map(({ command, args, cwd }) => ({ command, args, cwd })), [{ command: process.execPath, args: [AGENT, '--login'], cwd: FIXTURES }]);
    assert.equal(r.logins[0].env.AUTH_KIND, 'terminal-meta', 'the launch env is kept under the method env');
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'logged-in'), 'utf8')), { argv: ['--login'], token: TOKEN });
    assert.ok(!sent(r).includes('authenticate'));
    assert.deepEqual(forbidden(r), []);
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 2, 'reconnected and re-initialized');
    assert.ok(!r.everything().includes(TOKEN), 'the method env value is in no log line or trace message');
    assertSentValid(r);
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('older _meta form naming another program: it runs only after the user confirmed that exact command line', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-auth-'));
  // The agent is started through a shell (as npx starts a node script): the Node it names is not its own program.
  const launch = { command: '/bin/sh', args: ['-c', 'exec "$0" "$1"', process.execPath, AGENT] };
  const refused = rig({ AUTH_KIND: 'terminal-meta', AUTH_MARKER_DIR: dir }, { launch, confirm: false });
  try {
    await refused.controller.start();
    await refused.controller.authenticate('fake-meta-login');
    assert.deepEqual(refused.confirms, [`${process.execPath} ${AGENT} --login`]);
    assert.deepEqual(refused.logins, [], 'not run');
    assert.equal(refused.controller.currentStatus.phase, 'auth');
    assert.match(refused.controller.currentStatus.detail ?? '', /was not run: Fake asked to run .* which is not its own command, and it was not confirmed/);
    assert.equal(refused.audits.at(-1)?.decision, 'cancelled');
    assert.ok(!existsSync(path.join(dir, 'logged-in')));
  } finally {
    await refused.controller.stop();
  }
  const confirmed = rig({ AUTH_KIND: 'terminal-meta', AUTH_MARKER_DIR: dir }, { launch, confirm: true });
  try {
    await confirmed.controller.start();
    await confirmed.controller.authenticate('fake-meta-login');
    assert.equal(confirmed.confirms.length, 1);
    assert.equal(confirmed.logins[0]?.command, process.execPath, 'the command the agent named, as confirmed');
    assert.equal(confirmed.controller.currentStatus.phase, 'ready', confirmed.controller.currentStatus.detail);
    assert.deepEqual(forbidden(confirmed), []);
  } finally {
    await confirmed.controller.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- sign-out

test('sign-out: logout goes to an agent that offers it, the transcript says so, and a new session must sign in again', async () => {
  const r = rig({ AUTH_KIND: 'agent', AUTH_LOGOUT: '1' });
  const c = r.controller;
  const next = new AgentSession(r.agent, SETTINGS, r.ports, { runtime: c.runtime });
  try {
    await c.start();
    await c.authenticate('fake-login');
    assert.equal(c.currentStatus.phase, 'ready');
    const said = await c.signOut();
    assert.equal(said, 'Signed out of Fake. New sessions ask you to sign in again.');
    const logout = sentMessages(r).filter((m) => m.method === 'logout');
    assert.deepEqual(logout.map((m) => m.params), [{}]);
    assert.deepEqual(c.transcript.entries.at(-1), { kind: 'note', message: said });
    assert.deepEqual(forbidden(r), []);
    assert.deepEqual(r.audits.map(({ kind, target, decision, by }) => ({ kind, target, decision, by })), [
      { kind: 'sign-in', target: 'Log in with Fake', decision: 'allowed', by: 'user' },
      { kind: 'sign-out', target: 'logout', decision: 'allowed', by: 'user' },
    ]);

    // The agent's other sessions share its process: a new one meets -32000, and the sign-in choices.
    await next.start();
    assert.equal(next.currentStatus.phase, 'auth', next.currentStatus.detail);
    assert.equal(next.currentStatus.detail, undefined, 'a fresh sign-in round, not “still asks”');
    await next.authenticate('fake-login');
    assert.equal(next.currentStatus.phase, 'ready');
    assertSentValid(r);
  } finally {
    await next.stop();
    await c.stop();
  }
});

test('sign-out: not offered, nothing is sent; the stored values of the agent are forgotten and its process restarts without them', async () => {
  const plain = rig({ AUTH_KIND: 'agent' });
  try {
    await plain.controller.start();
    await plain.controller.authenticate('fake-login');
    await assert.rejects(plain.controller.signOut(), /Fake does not offer signing out/);
    assert.ok(!sent(plain).includes('logout'));
    assert.equal(plain.audits.filter((a) => a.kind === 'sign-out').length, 0);
  } finally {
    await plain.controller.stop();
  }
  const idle = rig({ AUTH_KIND: 'agent', AUTH_LOGOUT: '1' });
  await assert.rejects(idle.controller.signOut(), /Fake is not running: start it to sign out/);
  assert.deepEqual(sent(idle), []);

  const SECRET = 'sk-signout-SECRET';
  const store = new Map([['Fake/FAKE_API_KEY', SECRET], ['Other/FAKE_API_KEY', 'kept']]);
  const r = rig({ AUTH_KIND: 'env_var', AUTH_EXPECTED_VALUE: SECRET, AUTH_LOGOUT: '1' }, { store, answer: undefined });
  try {
    await r.controller.start();
    assert.equal(r.controller.currentStatus.phase, 'ready', 'signed in with the stored value');
    const said = await r.controller.signOut();
    assert.match(said, /ACP Host forgot the 1 stored value it kept for it/);
    assert.deepEqual([...store.keys()], ['Other/FAKE_API_KEY'], 'only this agent’s');
    assert.equal(sent(r).filter((m) => m === 'initialize').length, 2, 'restarted');
    // The session comes back on the new process (re-attached: this agent has neither load nor
    // resume); the next prompt finds the agent signed out, and it asks to sign in.
    void r.controller.prompt('hello again');
    await until('the sign-in choices', () => r.controller.currentStatus.phase === 'auth');
    assert.match(r.audits.find((a) => a.kind === 'sign-out')?.detail ?? '', /forgot 1 stored value/);
  } finally {
    await r.controller.stop();
  }
});
