// Several sessions at once in the real extension host: tabs across agents through the panel's
// intents (one process per agent), a crash mid-turn then Restart with session/load, closing a
// session and opening it again from the history QuickPick (session/list of the agent), with
// test/fixtures/agents/history-agent.js, which keeps its sessions in a file; and a session of an
// agent without session/load or resume brought back from the store, as a window reload does, with
// test/fixtures/agents/reattach-agent.js (its memory and request log are a state folder).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const config = () => vscode.workspace.getConfiguration('acpHost');
const conversation = (c: Parameters<typeof find>[0]) =>
  c.transcript.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [`${e.kind}:${e.text}`] : []));

suite('sessions', function () {
  this.timeout(60000);
  const sessionFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sessions-')), 'sessions.json');
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reattach-'));

  setup(async () => {
    const keeper = { name: 'Keeper', command: process.execPath, args: [path.join(FIXTURES, 'history-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1', FAKE_SESSION_FILE: sessionFile } };
    const other = { name: 'Other', command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
    const reattach = { name: 'Reattach', command: process.execPath, args: [path.join(FIXTURES, 'reattach-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1', FAKE_STATE_DIR: stateDir } };
    await config().update('agents', [keeper, other, reattach], vscode.ConfigurationTarget.Global);
  });

  // Every test starts from one fresh, unstarted session.
  teardown(closeSessionsAndAgents);

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

  test('an agent without session/load or resume: its session comes back from the store (as after a window reload) and the next prompt re-attaches to it', async () => {
    const { host } = await api();
    const controller = await useAgent('Reattach');
    await controller.prompt('before the reload');
    const sessionId = controller.agentSessionId!;
    const firstPid = controller.runtime.current?.process.pid;
    // What a reload does to the session: its transcript and tab kept in the store, its process gone.
    await host.closeSession(host.tabs.all.find((t) => t.controller === controller)!.key);
    assert.strictEqual(controller.runtime.current, undefined, 'its process stopped with its last session');
    await host.openSession({ agentName: 'Reattach', sessionId, title: 'before the reload' });
    const back = host.controller;
    assert.notStrictEqual(back, controller);
    assert.deepStrictEqual(conversation(back), ['user:before the reload', 'agent:before the reload'], 'the store\'s transcript, with no request to the agent');

    await host.handleIntent({ type: 'prompt', text: 'after the reload' });
    assert.strictEqual(back.agentSessionId, sessionId);
    assert.deepStrictEqual(conversation(back).slice(-2), ['user:after the reload', 'agent:after the reload']);
    const requests = fs.readFileSync(path.join(stateDir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { pid: number; method?: string; wrong?: string; params?: { sessionId?: string } });
    assert.notStrictEqual(requests.at(-1)!.pid, firstPid, 'a new process');
    const second = requests.filter((r) => r.pid === requests.at(-1)!.pid).map((r) => `${r.method ?? `WRONG ${r.wrong}`} ${r.params?.sessionId ?? ''}`.trim());
    assert.deepStrictEqual(second, ['initialize', `session/prompt ${sessionId}`], 'no session/new, no load: the prompt names the saved id');
    assert.ok(!find(back, 'error').length, 'nothing to say: the agent knew it');
  });
});
