// What the panel asks of VS Code, in the real extension host: the intents the webview posts
// (open a diff, a location, a link; switch a mode or a config option; queue prompts; a prompt
// that fails; dismiss a question asked between turns) reach the same handler the webview's
// messages reach, and VS Code's own editors show the result.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { api, find, until, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

suite('the panel, through VS Code', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Open diff shows the agent’s proposed edit in VS Code’s diff editor', async () => {
    const controller = await useAgent('Demo agent');
    const { host } = await api();
    const turn = controller.prompt('show me the diff');
    const tool = await until('a permission request', () => find(controller, 'tool').find((t) => t.permission));
    const index = controller.transcript.entries.indexOf(tool);
    const contentIndex = tool.content.findIndex((c) => c.type === 'diff');
    assert.ok(contentIndex >= 0, 'the demo edit carries a diff');

    await host.handleIntent({ type: 'openDiff', index, contentIndex });
    const input = await until('a diff tab', () => {
      const tabInput = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return tabInput instanceof vscode.TabInputTextDiff ? tabInput : undefined;
    });
    assert.strictEqual(input.modified.scheme, 'acp-diff');
    const after = await vscode.workspace.openTextDocument(input.modified);
    assert.match(after.getText(), /show me the diff/);

    controller.choosePermission(tool.toolCallId, tool.permission!.find((o) => o.kind === 'reject_once')!.optionId);
    await turn;
  });

  test('a location opens its file at the line; paths outside the workspace and unsafe links open nothing', async () => {
    const { host } = await api();
    const file = path.join(workspace(), 'src', 'hello.ts');
    await host.handleIntent({ type: 'openLocation', path: file, line: 3 });
    let editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.fsPath, file);
    assert.strictEqual(editor.selection.active.line, 2, 'line 3 (1-based) is VS Code line 2');

    await host.handleIntent({ type: 'openLink', href: `${vscode.Uri.file(file).toString()}#L2` });
    assert.strictEqual(vscode.window.activeTextEditor?.selection.active.line, 1);

    for (const intent of [
      { type: 'openLocation' as const, path: '/etc/hostname', line: 1 },
      { type: 'openLocation' as const, path: path.join(workspace(), '..', '..', 'etc', 'hostname'), line: null },
      { type: 'openLink' as const, href: 'javascript:alert(1)' },
      { type: 'openLink' as const, href: 'command:workbench.action.closeWindow' },
      { type: 'openLink' as const, href: 'file:///etc/hostname' },
    ]) {
      await host.handleIntent(intent);
      editor = vscode.window.activeTextEditor;
      assert.strictEqual(editor?.document.uri.fsPath, file, `${JSON.stringify(intent)} opened ${editor?.document.uri.toString()}`);
    }
  });

  test('commands sent before the session/new answer are kept, and a mode switch goes through session/set_mode', async () => {
    const controller = await useAgent('Rich', 'rich-session.js');
    const { host } = await api();
    const view = await until('title and usage', () => (controller.session.view.usage && controller.session.view.title ? controller.session.view : undefined));
    assert.deepStrictEqual(view.commands.map((c) => c.name).sort(), ['echo', 'mode', 'xss']);
    assert.strictEqual(view.title, 'Rich session');
    assert.strictEqual(view.modes?.currentModeId, 'ask');
    assert.deepStrictEqual(view.configOptions, []);

    await host.handleIntent({ type: 'setMode', modeId: 'code' });
    assert.strictEqual(controller.session.view.modes?.currentModeId, 'code');
    await controller.prompt('/mode');
    assert.strictEqual(find(controller, 'agent').at(-1)?.text, 'mode: code', 'the agent itself is in the new mode');
  });

  test('a config option change goes through session/set_config_option and the answer replaces the set', async () => {
    const controller = await useAgent('Demo agent');
    const { host } = await api();
    const model = controller.session.view.configOptions.find((o) => o.category === 'model');
    assert.ok(model && model.type === 'select', 'the demo agent offers a model picker');
    assert.strictEqual(controller.session.view.modes, null, 'config options win over legacy modes');
    const other = model.groups.flatMap((g) => g.choices).find((c) => c.value !== model.currentValue)!;
    await host.handleIntent({ type: 'setConfigOption', configId: model.id, value: other.value });
    const after = controller.session.view.configOptions.find((o) => o.id === model.id);
    assert.strictEqual(after?.currentValue, other.value);

    await host.handleIntent({ type: 'setConfigOption', configId: model.id, value: 'no-such-model' });
    assert.strictEqual(controller.session.view.configOptions.find((o) => o.id === model.id)?.currentValue, other.value, 'a refused value changes nothing');
    assert.match(find(controller, 'error').at(-1)?.message ?? '', /did not change/);
  });

  test('prompts typed during a turn wait in a visible queue, can be dropped, and are sent in order', async () => {
    const controller: AgentSession = await useAgent('Slow', 'well-behaved.js', { FAKE_CHUNKS: '40', FAKE_CHUNK_DELAY_MS: '10' });
    const first = controller.prompt('first');
    const second = controller.prompt('second');
    const third = controller.prompt('third');
    assert.deepStrictEqual(controller.session.view.queue.map((q) => q.text), ['second', 'third']);
    controller.unqueue(controller.session.view.queue[1].id);
    assert.deepStrictEqual(controller.session.view.queue.map((q) => q.text), ['second']);
    await Promise.all([first, second, third]);
    assert.deepStrictEqual(find(controller, 'user').map((u) => u.text), ['first', 'second']);
    assert.deepStrictEqual(controller.session.view.queue, []);
  });

  test('a prompt answered with an error ends like a turn in the panel, the queue carries on; questions asked between turns wait until dismissed', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-turns-'));
    const controller = await useAgent('Turns', 'turns-agent.js', { FAKE_STATE_DIR: stateDir });
    const { host } = await api();
    const answers = () =>
      fs.readFileSync(path.join(stateDir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { answer?: string; wrong?: unknown; result?: unknown }).filter((r) => r.answer || r.wrong);

    await Promise.all([host.handleIntent({ type: 'prompt', text: 'fail' }), host.handleIntent({ type: 'prompt', text: 'after' })]);
    assert.deepStrictEqual(find(controller, 'turnEnd').map((e) => [e.stopReason, e.error ?? null]), [
      ['failed', { message: 'Internal error: the model is overloaded', code: -32603 }],
      ['end_turn', null],
    ]);
    assert.strictEqual(find(controller, 'tool').find((t) => t.toolCallId === 'fail-1')?.status, 'unfinished');
    assert.deepStrictEqual(find(controller, 'agent').at(-1)?.text, 'after', 'the queued prompt was sent after the failure');
    assert.strictEqual(controller.currentStatus.phase, 'ready');

    await host.handleIntent({ type: 'prompt', text: 'ask later' });
    await until('the questions asked after the turn', () => (find(controller, 'tool').some((t) => t.toolCallId === 'later-1' && t.permission) && find(controller, 'elicitation').some((f) => f.state === 'pending') ? true : undefined));
    await host.handleIntent({ type: 'prompt', text: 'in between' });
    assert.ok(find(controller, 'tool').find((t) => t.toolCallId === 'later-1')?.permission, 'the next turn did not cancel it');
    await host.handleIntent({ type: 'dismissPermission', toolCallId: 'later-1' });
    await host.handleIntent({ type: 'cancel' }); // Stop, between turns: the form is dismissed too
    await until('both answers', () => (answers().length === 2 ? true : undefined));
    assert.deepStrictEqual(answers().map((a) => [a.answer, a.result]), [
      ['session/request_permission', { outcome: { outcome: 'cancelled' } }],
      ['elicitation/create', { action: 'cancel' }],
    ]);
    assert.deepStrictEqual(find(controller, 'tool').find((t) => t.toolCallId === 'later-1')?.permissionAnswer, { outcome: 'cancelled' });
    // What the panel is sent: every entry is one its schema accepts.
    for (const entry of controller.transcript.entries) EntryViewSchema.parse(entry);
  });
});
