// What an agent reports beside the conversation, in the real extension host: the show-agent
// fixture sends a tool call's raw input and output, notices, compactions, id-addressed plans and
// a turn's usage only because the installed extension advertises them, and the panel is given
// each of them (the view model the feed posts, validated as the webview validates it).
import * as assert from 'assert';
import { entriesView, sessionView, statusView } from '../../src/view/projection';
import { HostToViewSchema } from '../../src/webview-protocol/messages';
import { api, find, useAgent } from './helpers';

suite('what an agent reports, in the panel', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
  });

  test('what an agent reports reaches the panel: raw input and output, tool name, notices, compactions, plans by id, turn usage', async () => {
    const controller = await useAgent('Show', 'show-agent.js');
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    await controller.prompt('show');
    assert.deepStrictEqual(find(controller, 'agent').map((e) => e.text), [], 'the agent found every capability it needed advertised');

    const tool = find(controller, 'tool')[0];
    assert.strictEqual(tool?.name, 'web_fetch');
    assert.match(tool.rawInput ?? '', /"apiKey": "••••"/);
    assert.doesNotMatch(tool.rawInput ?? '', /sk-show/);
    assert.match(tool.rawOutput ?? '', /clipped/);
    assert.deepStrictEqual(find(controller, 'notice').map((n) => [n.severity, n.title]), [['warning', 'Rate limit near'], ['info', 'Tip: compact often']]);
    assert.deepStrictEqual(find(controller, 'compaction').map((c) => [c.compactionId, c.status, c.error]), [['cmp-1', 'completed', null], ['cmp-2', 'failed', 'The summary model timed out.']]);
    assert.match(find(controller, 'compaction')[0].summary, /^Read the docs; kept the plan\./);
    const plans = find(controller, 'planById');
    assert.deepStrictEqual(plans.map((p) => [p.planId, p.content?.type ?? null]), [['p1', 'items'], ['p2', null], ['p3', 'file']]);
    const end = find(controller, 'turnEnd').at(-1);
    assert.strictEqual(end?.usage?.tokens?.total, 1234);
    assert.deepStrictEqual(end.usage.cost, { amount: 0.42, currency: 'USD' });
    assert.deepStrictEqual(controller.session.view.usage?.quota, [{ label: 'remaining', value: 42 }]);

    // What the panel is posted: the projection of all of it, valid as the webview checks it.
    const { host } = await api();
    const snapshot = {
      type: 'snapshot' as const,
      status: statusView(controller.currentStatus, { agents: host.agentChoices().map((a) => a.name), sessions: [], sessionKey: undefined }),
      session: sessionView(controller.session.view),
      entries: entriesView(controller.transcript.entries),
    };
    const parsed = HostToViewSchema.safeParse(snapshot);
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3)));
    assert.deepStrictEqual(parsed.data.type === 'snapshot' && parsed.data.entries, snapshot.entries);
  });
});
