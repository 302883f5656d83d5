// Attention when the user is elsewhere, in the real extension host: with the Agent view hidden
// (the explorer shown in its place), a session that asks a permission sets the view's badge
// (the WebviewView's own, read through the host), marks the session for the switcher and shows
// one notification; answering clears the mark. A turn end sets only the badge while
// acpHost.notify.turnEnds is off; on, its notification's Show switches to that session and reveals
// the view. The current plan reaches the panel's session view, "n/m done", and a new session has none.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Attention } from '../../src/session/attention';
import type { AgentSession } from '../../src/session/agentSession';
import { sessionView } from '../../src/view/projection';
import { SessionViewSchema } from '../../src/webview-protocol/session';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const lastAgentText = (c: AgentSession) => find(c, 'agent').at(-1)?.text;

/** The Agent view resolved, then hidden behind the explorer: its WebviewView exists and is not visible. */
async function hideAgentView(): Promise<void> {
  const { host } = await api();
  await vscode.commands.executeCommand('acpHost.agentView.focus');
  await until('the Agent view on screen', () => (host.view.visible ? true : undefined));
  await vscode.commands.executeCommand('workbench.view.explorer');
  await until('the Agent view hidden', () => (host.view.visible ? undefined : true));
}

suite('attention when the user is elsewhere', function () {
  this.timeout(90000);
  let told: string[];
  let answer: string | undefined;

  setup(async () => {
    // Sessions earlier suites left open ended their turns unseen: they would count in the badge too.
    await closeSessionsAndAgents();
    const { host } = await api();
    told = [];
    answer = undefined;
    host.attention.notify = (message) => {
      told.push(message);
      return Promise.resolve(answer);
    };
  });

  teardown(async () => {
    await vscode.workspace.getConfiguration('acpHost').update('notify.turnEnds', undefined, vscode.ConfigurationTarget.Global);
    await closeSessionsAndAgents();
  });

  test('a permission asked while the view is hidden: the badge, the switcher mark, one notification; answering clears the mark', async () => {
    const controller = await useAgent('Attention', 'attention-agent.js');
    const { host } = await api();
    await hideAgentView();
    const key = host.tabs.shown!.key;
    const marks: Attention[] = [];
    const watching = host.attention.onDidChange(() => marks.push(host.attention.marks.attention(key)));

    const turn = controller.prompt('ask');
    await until('the permission', () => find(controller, 'tool').find((t) => t.permission));
    const badge = await until('the badge', () => host.view.badge);
    assert.strictEqual(badge.value, 1);
    assert.strictEqual(badge.tooltip, '1 session needs you');
    assert.strictEqual(host.attention.sessions().find((s) => s.key === key)?.attention, 'waiting', 'the switcher marks it');
    assert.strictEqual(told.length, 1);
    assert.match(told[0], /^Attention \(ask\) is waiting for your answer\.$/);

    await host.handleIntent({ type: 'permission', toolCallId: 't-ask', optionId: 'allow' });
    await turn;
    watching.dispose();
    assert.strictEqual(lastAgentText(controller), 'chose: allow');
    // Answered: the wait's mark went; the turn then ended unseen, which the badge still counts (turn ends notify nobody by default).
    assert.deepStrictEqual(marks, ['waiting', null, 'done']);
    assert.strictEqual(host.view.badge?.value, 1);
    assert.strictEqual(told.length, 1, 'one notification, for the wait only');
  });

  test('a turn end sets only the badge while notify.turnEnds is off; on, its notification’s Show switches to that session and reveals the view', async () => {
    const first = await useAgent('Attention', 'attention-agent.js');
    const { host } = await api();
    await hideAgentView();
    const firstKey = host.tabs.shown!.key;
    await first.prompt('hello');
    assert.strictEqual(await until('the badge', () => host.view.badge?.value), 1);
    assert.strictEqual(host.attention.marks.attention(firstKey), 'done');
    assert.deepStrictEqual(told, [], 'no notification for a turn end by default');

    await host.newSession();
    const second = host.controller;
    const secondKey = host.tabs.shown!.key;
    await host.handleIntent({ type: 'switchSession', key: firstKey });
    await vscode.workspace.getConfiguration('acpHost').update('notify.turnEnds', true, vscode.ConfigurationTarget.Global);
    answer = 'Show';
    await first.prompt('again');
    assert.deepStrictEqual(told, [], 'marked already from its last turn, unseen since: no second notification');

    // The second session ends a turn in the background: a notification, whose Show brings it into view.
    await second.prompt('hello');
    await until('the notification', () => (told.length === 1 ? true : undefined));
    assert.match(told[0], /^Attention \(hello\) finished its turn\.$/);
    await until('Show switches to that session', () => (host.tabs.shown?.key === secondKey ? true : undefined));
    assert.strictEqual(host.controller, second);
    await until('Show reveals the view', () => (host.view.visible ? true : undefined));
    await host.closeSession(firstKey);
    assert.strictEqual(host.attention.marks.attention(firstKey), null, 'a closed session is forgotten');
  });

  test('the current plan is in the panel’s session view with its steps done, replaced in place; a new session has none', async () => {
    const controller = await useAgent('Attention', 'attention-agent.js');
    const { host } = await api();
    const progress = () => {
      const plan = SessionViewSchema.parse(sessionView(controller.session.view)).plan;
      return plan?.type === 'items' ? `${plan.entries.filter((e) => e.status === 'completed').length}/${plan.entries.length} done` : undefined;
    };
    assert.strictEqual(controller.session.view.plan, null, 'no plan before the agent sends one');
    await controller.prompt('plan');
    assert.strictEqual(await until('the pinned plan', progress), '1/3 done');
    await controller.prompt('plan done');
    assert.strictEqual(await until('the plan updated', () => (progress() === '3/3 done' ? progress() : undefined)), '3/3 done');
    assert.strictEqual(find(controller, 'plan').length, 1, 'the transcript keeps its one plan entry, replaced in place');
    await host.newSession();
    assert.strictEqual(host.controller.session.view.plan, null, 'a new session pins nothing');
  });
});
