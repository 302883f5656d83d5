// Sign-in that asks in a form, in the real extension host: test/fixtures/agents/sign-in-form-agent.js
// asks with a request-scoped elicitation/create (it names our initialize or authenticate, not a
// session) and waits for the answer before it answers that request. The tab starting the agent
// shows it, marked as the agent's; the panel's intent answers it, and the agent gets the answer.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import { api, closeSessionsAndAgents, find, until } from './helpers';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/agents/sign-in-form-agent.js');
const NAME = 'Sign-in form';

/** Configures the fixture and starts it in the shown tab, without waiting: the start waits on the user. */
async function startAsking(during: 'initialize' | 'authenticate', mode: 'form' | 'url'): Promise<{ controller: AgentSession; started: Promise<void> }> {
  const config = vscode.workspace.getConfiguration('acpHost');
  const agent = { name: NAME, command: process.execPath, args: [FIXTURE], env: { ELECTRON_RUN_AS_NODE: '1', FAKE_ASK_DURING: during, FAKE_ASK_MODE: mode } };
  await config.update('agents', [agent], vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', NAME, vscode.ConfigurationTarget.Global);
  const { host } = await api();
  const started = host.startAgent();
  const controller = await until('the tab starting the agent', () => (host.controller.agentName === NAME ? host.controller : undefined));
  return { controller, started };
}

/** What the agent was answered, as it reports it. */
async function agentGot(controller: AgentSession): Promise<unknown> {
  await controller.prompt('__signin__');
  return JSON.parse(find(controller, 'agent').at(-1)?.text ?? 'null');
}

suite('sign-in forms (request-scoped elicitation)', function () {
  this.timeout(60000);

  teardown(async () => {
    await closeSessionsAndAgents();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a form asked during initialize is shown in the starting tab as the agent’s; the answer through the panel reaches the agent, and the session opens', async () => {
    const { host } = await api();
    const { controller, started } = await startAsking('initialize', 'form');
    const form = await until('the sign-in form', () => find(controller, 'elicitation').find((e) => e.state === 'pending'));
    assert.strictEqual(controller.currentStatus.phase, 'starting', 'no session yet');
    assert.strictEqual(form.forAgent, true);
    assert.strictEqual(form.title, 'Fake Cloud account');
    await host.handleIntent({ type: 'elicitation', requestKey: form.requestKey, action: 'accept', content: { user: 'ada' } });
    await started;
    assert.strictEqual(controller.currentStatus.phase, 'ready');
    assert.deepStrictEqual(await agentGot(controller), { action: 'accept', content: { user: 'ada' } });
  });

  test('a URL sign-in during initialize: Open opens it through openExternal, and elicitation/complete closes the card', async () => {
    const { host } = await api();
    const opened: string[] = [];
    const original = host.workbench.openExternal;
    host.workbench.openExternal = async (uri) => (opened.push(uri.toString(true)), true);
    try {
      const { controller, started } = await startAsking('initialize', 'url');
      const card = await until('the sign-in page card', () => find(controller, 'urlElicitation').find((e) => e.state === 'pending'));
      assert.strictEqual(card.forAgent, true);
      assert.deepStrictEqual(opened, [], 'nothing opens before the click');
      await host.handleIntent({ type: 'elicitation', requestKey: card.requestKey, action: 'accept' });
      await started;
      assert.deepStrictEqual(opened, ['https://login.example.com/authorize?client=fake']);
      await until('the card completed', () => (find(controller, 'urlElicitation')[0].state === 'completed' ? true : undefined));
      assert.deepStrictEqual(await agentGot(controller), { action: 'accept' });
    } finally {
      host.workbench.openExternal = original;
    }
  });

  test('a form asked during authenticate is shown in the tab signing in; accept signs in and the session opens', async () => {
    const { host } = await api();
    const { controller, started } = await startAsking('authenticate', 'form');
    await started;
    assert.strictEqual(controller.currentStatus.phase, 'auth');
    const signingIn = host.handleIntent({ type: 'authenticate', methodId: 'fake-oauth' });
    const form = await until('the sign-in form', () => find(controller, 'elicitation').find((e) => e.state === 'pending'));
    await host.handleIntent({ type: 'elicitation', requestKey: form.requestKey, action: 'accept', content: { user: 'grace' } });
    await signingIn;
    await until('the session open', () => (controller.currentStatus.phase === 'ready' ? true : undefined));
    assert.deepStrictEqual(await agentGot(controller), { action: 'accept', content: { user: 'grace' } });
  });
});
