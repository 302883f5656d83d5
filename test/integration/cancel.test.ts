// ACP's `$/cancel_request` in the real extension host, against test/fixtures/agents/cancel-agent.js
// (which checks what it is sent and writes `PROBLEM:` to stderr, hence to the log, when it is
// wrong): the agent withdraws its permission request and the panel's card says so, with its
// ACP Host policy in the way as in real use; a protected write cancelled while ACP Host asks is
// not written; closing the history picker cancels the agent's session/list; the panel's Cancel
// on a sign-in in progress cancels `authenticate`.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import { api, find, until, useAgent } from './helpers';

const lastAgentText = (c: AgentSession) => find(c, 'agent').at(-1)?.text;

/**
 * The fixture's lever: a mode change makes it withdraw what it asked. To the mode not current:
 * a session brought back for the same agent keeps the mode an earlier test chose.
 */
async function pullLever(c: AgentSession): Promise<void> {
  await (await api()).host.handleIntent({ type: 'setMode', modeId: c.session.currentModeId === 'plan' ? 'default' : 'plan' });
}

/** What the agent received, as its `__report__` turn lists it. */
async function received(c: AgentSession): Promise<Array<{ method?: string; id?: unknown; params?: { requestId?: unknown } }>> {
  await c.prompt('__report__');
  return JSON.parse(lastAgentText(c) ?? '[]') as Array<{ method?: string; params?: { requestId?: unknown } }>;
}

/** Nothing the agent checked was wrong (its `__problems__`), and LSP's cancellation never went out. */
async function assertClean(c: AgentSession, agent: string): Promise<void> {
  await c.prompt('__problems__');
  assert.strictEqual(lastAgentText(c), '[]');
  const trace = (await api()).host.logs.traceText(agent);
  assert.ok(!trace.includes('$/cancelRequest'), 'LSP $/cancelRequest is never sent');
  assert.ok(trace.includes('"method":"$/cancel_request"'), 'the trace shows the cancel');
}

suite('$/cancel_request', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  test('the agent withdraws its permission request: the card has no options left and says so; the agent got -32800', async () => {
    const controller = await useAgent('Canceller', 'cancel-agent.js');
    const { host } = await api();
    const turn = controller.prompt('ask');
    await until('the permission card', () => find(controller, 'tool').find((t) => t.permission));
    await pullLever(controller);
    await turn;
    assert.strictEqual(lastAgentText(controller), 'withdrawn: -32800');
    const card = find(controller, 'tool').find((t) => t.toolCallId === 'risky-1');
    assert.strictEqual(card?.permission, undefined);
    assert.deepStrictEqual(card?.permissionAnswer, { outcome: 'withdrawn' });
    // A click that was on its way does nothing.
    await host.handleIntent({ type: 'permission', toolCallId: 'risky-1', optionId: 'yes' });
    const answers = (await received(controller)).filter((m) => m.method === undefined && m.id === 0);
    assert.strictEqual(answers.length, 1, 'answered once');
    await assertClean(controller, 'Canceller');
  });

  test('the agent cancels a protected write while ACP Host asks about it: the question is withdrawn, nothing is written', async () => {
    const controller = await useAgent('Canceller', 'cancel-agent.js');
    const dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'cancel-target');
    const target = path.join(dir, '.env');
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      const turn = controller.prompt(`write ${target}`);
      const card = await until('ACP Host’s question', () => find(controller, 'tool').find((t) => t.permission));
      assert.match(card.policyNote ?? '', /ACP Host asks before Canceller may write/);
      await pullLever(controller);
      await turn;
      assert.strictEqual(lastAgentText(controller), 'withdrawn: -32800');
      const after = find(controller, 'tool').find((t) => t.toolCallId === card.toolCallId);
      assert.strictEqual(after?.permission, undefined);
      assert.deepStrictEqual(after?.permissionAnswer, { outcome: 'withdrawn' });
      assert.match(after?.policyNote ?? '', /the agent withdrew the request/);
      assert.strictEqual(fs.existsSync(target), false, 'not written');
      await assertClean(controller, 'Canceller');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('closing the history picker while the agent lists its sessions cancels session/list', async () => {
    const controller = await useAgent('Canceller', 'cancel-agent.js');
    const { host } = await api();
    const opening = host.handleIntent({ type: 'sessionHistory' });
    await until('session/list on the wire', () => (host.logs.traceText('Canceller').includes('"method":"session/list"') ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await opening;
    const got = await received(controller);
    const list = got.find((m) => m.method === 'session/list');
    assert.deepStrictEqual(got.filter((m) => m.method === '$/cancel_request').map((m) => m.params?.requestId), [list?.id]);
    await assertClean(controller, 'Canceller');
  });

  test('Cancel on a sign-in in progress cancels authenticate; the choices come back and the next sign-in works', async () => {
    const controller = await useAgent('Slow sign-in', 'cancel-agent.js', { FAKE_REQUIRE_AUTH: '1' });
    const { host } = await api();
    assert.strictEqual(controller.currentStatus.phase, 'auth', controller.currentStatus.detail);
    const signingIn = host.handleIntent({ type: 'authenticate', methodId: 'slow-login' });
    await until('the sign-in in progress', () => controller.currentStatus.signingIn);
    await host.handleIntent({ type: 'cancelSignIn' });
    await signingIn;
    assert.strictEqual(controller.currentStatus.phase, 'auth');
    assert.match(controller.currentStatus.detail ?? '', /was cancelled/);
    await host.handleIntent({ type: 'authenticate', methodId: 'slow-login' });
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    const got = await received(controller);
    const authenticate = got.find((m) => m.method === 'authenticate');
    assert.deepStrictEqual(got.filter((m) => m.method === '$/cancel_request').map((m) => m.params?.requestId), [authenticate?.id]);
    await assertClean(controller, 'Slow sign-in');
  });
});
