// elicitation/create in the real extension host: the agent's form becomes a transcript entry,
// answers come back through the same intent handler the webview's messages reach (checked against
// the form before the agent gets them), and cancelling the turn answers an open form `cancel`.
// URL mode: a card; its Open (the panel's `accept`) answers accept and opens the URL through
// VS Code's openExternal (replaced here by a recorder through the host's workbench), and the
// agent's elicitation/complete closes it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import type { EntryView } from '../../src/webview-protocol/entries';
import { api, find, until, useAgent } from './helpers';

type Form = Extract<EntryView, { kind: 'elicitation' }>;
const pendingForm = (c: AgentSession) => find(c, 'elicitation').find((e: Form) => e.state === 'pending');
const lastAgentText = (c: AgentSession) => find(c, 'agent').at(-1)?.text;

suite('elicitation forms', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('form mode is advertised; a form answered through the panel intent reaches the agent, typed; an invalid answer is refused', async () => {
    const controller = await useAgent('Elicit', 'elicit-agent.js');
    const { host } = await api();
    const turn = controller.prompt('form');
    const form = await until('the form', () => pendingForm(controller));
    assert.strictEqual(form.agentName, 'Elicit');
    assert.strictEqual(form.title, 'Database setup');
    assert.deepStrictEqual(form.fields.map((f) => f.type), ['string', 'string', 'choice', 'integer', 'number', 'boolean', 'multiselect']);

    await host.handleIntent({ type: 'elicitation', requestKey: form.requestKey, action: 'accept', content: { name: 'db', engine: 'mysql', port: 5432, extensions: ['gis'] } });
    const refused = pendingForm(controller);
    assert.ok(refused, 'still pending');
    assert.match(refused.error ?? '', /Engine: Choose one of the options/);

    const content = { name: 'shop', engine: 'pg', port: 6543, ratio: 0.5, ssl: true, extensions: ['gis', 'vec'] };
    await host.handleIntent({ type: 'elicitation', requestKey: form.requestKey, action: 'accept', content });
    await turn;
    assert.strictEqual(lastAgentText(controller), `answer: ${JSON.stringify({ action: 'accept', content })}`);
    const done = find(controller, 'elicitation')[0];
    assert.strictEqual(done.state, 'accepted');
    assert.deepStrictEqual(done.content, content);
  });

  test('decline answers decline; cancelling the turn answers an open form cancel', async () => {
    const controller = await useAgent('Elicit', 'elicit-agent.js');
    const { host } = await api();
    let turn = controller.prompt('form');
    let form = await until('the form', () => pendingForm(controller));
    await host.handleIntent({ type: 'elicitation', requestKey: form.requestKey, action: 'decline' });
    await turn;
    assert.strictEqual(lastAgentText(controller), 'answer: {"action":"decline"}');

    turn = controller.prompt('tool form');
    form = await until('the second form', () => pendingForm(controller));
    assert.strictEqual(form.toolCallId, 'setup-1');
    await host.handleIntent({ type: 'cancel' });
    await turn;
    assert.strictEqual(find(controller, 'elicitation').at(-1)?.state, 'cancelled');
    assert.strictEqual(find(controller, 'turnEnd').at(-1)?.stopReason, 'cancelled');
    await controller.prompt('__report__');
    const received = JSON.parse(lastAgentText(controller) ?? '[]') as { method?: string; result?: unknown }[];
    const cancelAt = received.findIndex((m) => m.method === 'session/cancel');
    assert.ok(cancelAt >= 0);
    assert.ok(received.slice(cancelAt).some((m) => JSON.stringify(m.result) === '{"action":"cancel"}'), 'the open form was answered cancel after session/cancel');
  });

  test('URL mode: nothing opens until Open; Open answers accept and opens the URL through openExternal; elicitation/complete closes the card', async () => {
    const controller = await useAgent('Elicit', 'elicit-agent.js');
    const { host } = await api();
    const opened: string[] = [];
    const original = host.workbench.openExternal;
    host.workbench.openExternal = async (uri) => (opened.push(uri.toString(true)), true);
    try {
      const urlCards = () => find(controller, 'urlElicitation');
      let turn = controller.prompt('url');
      const card = await until('the URL card', () => urlCards().find((c) => c.state === 'pending'));
      assert.strictEqual(card.agentName, 'Elicit');
      assert.strictEqual(card.host, 'example.com');
      assert.strictEqual(card.url, 'https://example.com/login');
      assert.deepStrictEqual(opened, [], 'nothing opens before the click');
      assert.match(host.logs.traceText('Elicit'), /"elicitation":\{"form":\{\},"url":\{\}\}/, 'URL mode is advertised');

      await host.handleIntent({ type: 'elicitation', requestKey: card.requestKey, action: 'accept' });
      await turn;
      assert.deepStrictEqual(opened, ['https://example.com/login']);
      assert.strictEqual(lastAgentText(controller), 'answer: {"action":"accept"} for e-1', 'the agent checked our answer');
      assert.strictEqual(urlCards()[0].state, 'waiting', 'waiting for example.com (an unknown id’s complete changed nothing)');
      await controller.prompt('complete e-1');
      assert.strictEqual(urlCards()[0].state, 'completed');

      turn = controller.prompt('url https://example.org/pay');
      const second = await until('the second card', () => urlCards().find((c) => c.state === 'pending'));
      await host.handleIntent({ type: 'elicitation', requestKey: second.requestKey, action: 'decline' });
      await turn;
      assert.strictEqual(lastAgentText(controller), 'answer: {"action":"decline"} for e-2');
      await host.handleIntent({ type: 'elicitation', requestKey: second.requestKey, action: 'accept' });
      assert.deepStrictEqual(opened, ['https://example.com/login'], 'a declined card opens nothing, even when asked again');

      await controller.prompt('url javascript:alert(1)');
      assert.match(lastAgentText(controller) ?? '', /^refused: -32602 /);
      assert.strictEqual(urlCards().length, 2, 'a refused URL shows nothing');
    } finally {
      host.workbench.openExternal = original;
    }
  });

  test('a question relayed as a permission request shows the agent’s option names and answers the chosen optionId', async () => {
    const controller = await useAgent('Elicit', 'elicit-agent.js');
    const { host } = await api();
    const turn = controller.prompt('question');
    const tool = await until('the question', () => find(controller, 'tool').find((t) => t.permission));
    assert.deepStrictEqual(tool.permission?.map((o) => o.name), ['Use PostgreSQL', 'Use SQLite']);
    await host.handleIntent({ type: 'permission', toolCallId: tool.toolCallId, optionId: 'use-pg' });
    await turn;
    assert.strictEqual(lastAgentText(controller), 'chose: {"outcome":"selected","optionId":"use-pg"}');
  });
});
