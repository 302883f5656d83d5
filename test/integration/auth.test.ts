// Sign-in in the real extension host, with test/fixtures/agents/auth-agent.js configured through
// the user's settings and the panel's intent `{type:'authenticate', methodId}` going through
// AgentHost.handleIntent, as the webview's button sends it.
//   agent:    real end to end (authenticate, then session/new again).
//   env_var:  real SecretStorage and restart; only the password InputBox is replaced (through the
//             exported host.secrets.prompter), since a test cannot type into it.
//   terminal: a real VS Code terminal runs the agent's login command (the extension host's own
//             Electron as Node); its exit code decides. The older `_meta["terminal-auth"]` form,
//             naming the agent's own program, runs the same way, unasked.
//   sign-out: ACP: Sign Out is offered (the `acpHost.canSignOut` context key) only while the
//             shown agent advertises logout; it sends `logout`, says so, records it in the audit
//             log, and the next session signs in again.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';

suite('sign-in (auth methods)', function () {
  this.timeout(60000);

  teardown(async () => {
    const { host } = await api();
    await host.controller.stop();
    await host.secrets.forget();
  });

  test('agent method: the auth phase lists it, authenticate from the panel signs in and the session opens', async () => {
    const controller = await useAgent('Auth agent', 'auth-agent.js', { AUTH_KIND: 'agent' });
    const { host } = await api();
    assert.strictEqual(controller.currentStatus.phase, 'auth', controller.currentStatus.detail);
    assert.deepStrictEqual(controller.currentStatus.authMethods?.map((m) => [m.id, m.type]), [['fake-login', 'agent']]);
    await host.handleIntent({ type: 'authenticate', methodId: 'fake-login' });
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    await host.handleIntent({ type: 'prompt', text: 'signed in' });
    assert.match(find(controller, 'agent').map((e) => e.text).join(''), /signed in/);
    const trace = host.logs.traceText('Auth agent');
    assert.match(trace, /"method":"authenticate"/);
    assert.match(trace, /"auth":\{"terminal":true\}/, 'auth.terminal is advertised: the host has a login terminal');
  });

  test('env_var method: the value goes to SecretStorage, the agent restarts with it, a later start does not ask; Forget clears it', async () => {
    const SECRET = `sk-integration-${Date.now()}-SECRET`;
    const { host } = await api();
    const asked: string[] = [];
    const original = host.secrets.prompter;
    host.secrets.prompter = async (_agent, varName) => (asked.push(varName), SECRET);
    try {
      const controller = await useAgent('Auth key', 'auth-agent.js', { AUTH_KIND: 'env_var', AUTH_EXPECTED_VALUE: SECRET });
      assert.strictEqual(controller.currentStatus.phase, 'auth', controller.currentStatus.detail);
      assert.deepStrictEqual(controller.currentStatus.authMethods?.map((m) => [m.id, m.type]), [['fake-key', 'env_var']]);
      await host.handleIntent({ type: 'authenticate', methodId: 'fake-key' });
      assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
      assert.deepStrictEqual(asked, ['FAKE_API_KEY']);
      assert.deepStrictEqual(await host.secrets.stored(controller.runtime.agent), { FAKE_API_KEY: SECRET });

      await controller.restart();
      assert.strictEqual(controller.currentStatus.phase, 'ready', 'the stored value is used: no question');
      assert.deepStrictEqual(asked, ['FAKE_API_KEY'], 'asked once');
      assert.ok(!host.logs.traceText('Auth key').includes(SECRET), 'the secret is not in the trace');

      await vscode.commands.executeCommand('acpHost.forgetSecrets');
      assert.deepStrictEqual(await host.secrets.stored(controller.runtime.agent), {});
      await controller.restart();
      // The session comes back re-attached (this agent has neither load nor resume); the next
      // prompt finds the agent without the value: it no longer knows the session, the new one it
      // would open needs a sign-in, and the choices are offered again.
      void controller.prompt('hello again');
      await until('forgotten: the agent asks again', () => controller.currentStatus.phase === 'auth' || undefined);
    } finally {
      host.secrets.prompter = original;
    }
  });

  test('terminal method: a real terminal runs the login command; exit 0 reconnects', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-auth-it-'));
    try {
      const controller = await useAgent('Auth terminal', 'auth-agent.js', { AUTH_KIND: 'terminal', AUTH_MARKER_DIR: dir, AUTH_TERMINAL_TOKEN: 'token-from-method-env' });
      const { host } = await api();
      assert.strictEqual(controller.currentStatus.phase, 'auth', controller.currentStatus.detail);
      assert.deepStrictEqual(controller.currentStatus.authMethods?.map((m) => [m.id, m.type]), [['fake-terminal', 'terminal']]);
      const opened = new Promise<vscode.Terminal>((resolve) => {
        const sub = vscode.window.onDidOpenTerminal((t) => (sub.dispose(), resolve(t)));
      });
      const signIn = host.handleIntent({ type: 'authenticate', methodId: 'fake-terminal' });
      const terminal = await opened;
      assert.strictEqual(terminal.name, 'Sign in: Auth terminal');
      await signIn;
      assert.ok(fs.existsSync(path.join(dir, 'logged-in')), 'the login command ran (and got the method env)');
      assert.strictEqual(terminal.exitStatus?.code, 0);
      await until('ready', () => (controller.currentStatus.phase === 'ready' ? true : undefined));
      assert.ok(!host.logs.traceText('Auth terminal').includes('token-from-method-env'), 'the method env value is not in the trace');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('older _meta["terminal-auth"] form naming the agent’s own program: a real terminal runs it, unasked; authenticate is never sent', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-auth-it-'));
    try {
      const controller = await useAgent('Auth meta', 'auth-agent.js', { AUTH_KIND: 'terminal-meta', AUTH_MARKER_DIR: dir, AUTH_TERMINAL_TOKEN: 'token-from-meta-env' });
      const { host } = await api();
      assert.deepStrictEqual(controller.currentStatus.authMethods?.map((m) => [m.id, m.type]), [['fake-meta-login', 'terminal']]);
      await host.handleIntent({ type: 'authenticate', methodId: 'fake-meta-login' });
      await until('ready', () => (controller.currentStatus.phase === 'ready' ? true : undefined));
      assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'logged-in'), 'utf8')), { argv: ['--login'], token: 'token-from-meta-env' });
      const trace = host.logs.traceText('Auth meta');
      assert.match(trace, /"_meta":\{"terminal-auth":true\}/, 'the older form is advertised');
      assert.doesNotMatch(trace, /"method":"authenticate"/);
      const signIns = (await host.audit.events()).filter((e) => e.agent === 'Auth meta' && e.kind === 'sign-in');
      assert.deepStrictEqual(signIns.map((e) => [e.target, e.decision, e.by]), [['Log in (older form)', 'allowed', 'user']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('sign-out: offered only while the agent advertises logout; ACP: Sign Out sends logout, says so, is audited; the next session signs in again', async () => {
    const { host } = await api();
    await useAgent('Auth agent', 'auth-agent.js', { AUTH_KIND: 'agent' });
    await host.handleIntent({ type: 'authenticate', methodId: 'fake-login' });
    assert.strictEqual(host.controller.currentStatus.phase, 'ready');
    assert.strictEqual(host.contextKeys.value('canSignOut'), false, 'not advertised: not offered');
    await host.controller.stop();

    const controller = await useAgent('Auth logout', 'auth-agent.js', { AUTH_KIND: 'agent', AUTH_LOGOUT: '1' });
    await host.handleIntent({ type: 'authenticate', methodId: 'fake-login' });
    assert.strictEqual(controller.currentStatus.phase, 'ready');
    assert.strictEqual(host.contextKeys.value('canSignOut'), true);
    await vscode.commands.executeCommand('acpHost.signOut');
    assert.match(host.logs.traceText('Auth logout'), /"method":"logout","params":\{\}/);
    assert.deepStrictEqual(find(controller, 'note').map((e) => e.message), ['Signed out of Auth logout. New sessions ask you to sign in again.']);
    const signOuts = (await host.audit.events()).filter((e) => e.agent === 'Auth logout' && e.kind === 'sign-out');
    assert.deepStrictEqual(signOuts.map((e) => [e.target, e.decision, e.by]), [['logout', 'allowed', 'user']]);

    await host.newSession();
    assert.notStrictEqual(host.controller, controller);
    assert.strictEqual(host.controller.currentStatus.phase, 'auth', 'a new session must sign in again');
    await host.controller.stop();
    await controller.stop();
    await until('the context key cleared', () => (host.contextKeys.value('canSignOut') === false ? true : undefined));
  });
});
