// Several sessions at once in the real extension host: tabs across agents through the panel's
// intents (one process per agent), a crash mid-turn then Restart with session/load, closing a
// session and opening it again from the history QuickPick (session/list of the agent), with
// test/fixtures/agents/history-agent.js, which keeps its sessions in a file.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const config = () => vscode.workspace.getConfiguration('acpHost');
const conversation = (c: Parameters<typeof find>[0]) =>
  c.transcript.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [`${e.kind}:${e.text}`] : []));

suite('sessions', function () {
  this.timeout(60000);
  const sessionFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sessions-')), 'sessions.json');

  setup(async () => {
    const keeper = { name: 'Keeper', command: process.execPath, args: [path.join(FIXTURES, 'history-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1', FAKE_SESSION_FILE: sessionFile } };
    const other = { name: 'Other', command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
    await config().update('agents', [keeper, other], vscode.ConfigurationTarget.Global);
  });

  teardown(async () => {
    const { host } = await api();
    // Every test starts from one fresh, unstarted session (closing the last one opens it).
    for (const tab of [...host.tabs.all]) await host.closeSession(tab.key);
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('defaultAgent', undefined, vscode.ConfigurationTarget.Global);
  });

  test('sessions across agents in the switcher: one process per agent, each transcript its own', async () => {
    const { host } = await api();
    const first = await useAgent('Keeper');
    await first.prompt('first session');
    await host.handleIntent({ type: 'newSession' });
    const second = host.controller;
    assert.notStrictEqual(second, first);
    assert.strictEqual(second.currentStatus.phase, 'ready', second.currentStatus.detail);
    assert.strictEqual(second.runtime.current?.process.pid, first.runtime.current?.process.pid, 'one Keeper process');
    await second.prompt('second session');
    await host.handleIntent({ type: 'chooseAgent', name: 'Other' });
    const third = host.controller;
    await third.prompt('on the other agent');

    const sessions = host.tabs.views();
    assert.deepStrictEqual(sessions.slice(-3).map((s) => [s.agentName, s.label]), [
      ['Keeper', 'first session'],
      ['Keeper', 'second session'],
      ['Other', 'on the other agent'],
    ]);
    const firstKey = host.tabs.all.find((t) => t.controller === first)!.key;
    await host.handleIntent({ type: 'switchSession', key: firstKey });
    assert.strictEqual(host.controller, first);
    assert.deepStrictEqual(conversation(first), ['user:first session', 'agent:first session']);
    assert.deepStrictEqual(conversation(second), ['user:second session', 'agent:second session']);
  });

  test('a crash mid-turn, then Restart: the conversation comes back with session/load', async () => {
    const { host } = await api();
    const controller = await useAgent('Keeper');
    await controller.prompt('keep this');
    await controller.prompt('/crash');
    assert.strictEqual(controller.currentStatus.phase, 'crashed');
    assert.match(controller.currentStatus.detail ?? '', /exited with code 3[\s\S]*crashing on purpose/);
    await host.handleIntent({ type: 'restart' });
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    assert.deepStrictEqual(conversation(controller), ['user:keep this', 'agent:keep this', 'user:/crash']);
  });

  test('a closed session opens again from the history (the agent\'s session/list), replayed', async () => {
    const { host } = await api();
    const controller = await useAgent('Keeper');
    const key = host.tabs.all.find((t) => t.controller === controller)!.key;
    // A second Keeper session stays shown when the first closes, so the history is Keeper's.
    await host.handleIntent({ type: 'newSession' });
    await host.handleIntent({ type: 'switchSession', key });
    await controller.prompt('remember me');
    const sessionId = controller.agentSessionId;
    await host.handleIntent({ type: 'closeSession', key });
    assert.ok(!host.tabs.all.some((t) => t.controller === controller), 'closed');
    assert.strictEqual(host.controller.agentName, 'Keeper');

    // The QuickPick lists the newest session first; accept it as a user would.
    const opening = host.handleIntent({ type: 'sessionHistory' });
    await until('the history page', () => (host.controller.runtime.current ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await opening;
    const reopened = host.controller;
    await until('the session open', () => (reopened.currentStatus.phase === 'ready' ? true : undefined));
    assert.strictEqual(reopened.agentSessionId, sessionId);
    assert.deepStrictEqual(conversation(reopened), ['user:remember me', 'agent:remember me']);
    assert.strictEqual(reopened.label, 'remember me');
  });
});
