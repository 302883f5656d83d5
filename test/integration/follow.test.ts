// Following the agent in the real extension host: a running tool call's location opens in the
// editor at its line, paths outside the workspace are not followed, the toggle turns it off, and
// a diff the user opens from the panel meanwhile is not replaced.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';

const shown = (name: string) => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath.endsWith(name));

suite('following the agent', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.workspace.getConfiguration('acpHost').update('followAgent', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a running tool call shows its file at the line; outside paths and a disabled toggle open nothing', async () => {
    const controller = await useAgent('Rich', 'rich-session.js');
    const { host } = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.strictEqual(controller.session.view.follow, true, 'on by default');

    const turn = controller.prompt('/follow src/hello.ts 3');
    const editor = await until('hello.ts shown', () => shown('hello.ts'));
    assert.ok(editor.visibleRanges.some((r) => r.contains(new vscode.Position(2, 0))), 'line 3 (1-based) is in view');
    await turn;

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await controller.prompt('/follow /etc/hostname 1');
    await controller.prompt('/follow ../../../../etc/hostname 1');
    assert.deepStrictEqual(vscode.window.visibleTextEditors.map((e) => e.document.uri.fsPath), [], 'nothing outside the workspace is followed');

    await host.handleIntent({ type: 'setFollow', enabled: false });
    await until('the toggle reaches the session view', () => (controller.session.view.follow === false ? true : undefined));
    await controller.prompt('/follow src/hello.ts 2');
    assert.strictEqual(shown('hello.ts'), undefined, 'not followed while the toggle is off');
  });

  test('a follow on its way gives way to a diff the user opens from the panel meanwhile', async () => {
    const controller = await useAgent('Demo agent');
    const { host } = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // As the edit arrives (the follower heard it first and will read its file), the user opens its
    // diff from the panel, to review it before allowing it: the diff is asked for first.
    let opened: Promise<void> | undefined;
    const listening = controller.transcript.onChange((event) => {
      if (opened || event.type === 'reset') return;
      const entry = controller.transcript.entries[event.index];
      const contentIndex = entry?.kind === 'tool' ? entry.content.findIndex((c) => c.type === 'diff') : -1;
      if (contentIndex >= 0) opened = host.handleIntent({ type: 'openDiff', index: event.index, contentIndex });
    });
    const turn = controller.prompt('show me the diff');
    try {
      const tool = await until('a permission request', () => find(controller, 'tool').find((t) => t.permission));
      assert.ok(opened, 'the diff was opened as the edit arrived');
      await opened;
      await host.follower.settled();
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'the diff is still the active tab: the follow did not replace it');
      controller.choosePermission(tool.toolCallId, tool.permission!.find((o) => o.kind === 'reject_once')!.optionId);
      await turn;
    } finally {
      listening.dispose();
    }
  });
});
