// Following the agent in the real extension host: a running tool call's location opens in the
// editor at its line, paths outside the workspace are not followed, the toggle turns it off, and
// a diff the user opens from the panel (a card's or the review list's) meanwhile is not replaced.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PanelIntent } from '../../src/host/panel/actions';
import { api, find, until, useAgent } from './helpers';

const notes = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'demo-notes.md');
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

  // As the edit arrives (the follower heard it first and will read its file), the user opens a
  // diff: the edit's, from its card, to review it before allowing it; or a file's from the review
  // list. The follow is held after reading its file until that diff is open: the order in which
  // the race goes wrong, made certain (left to chance, the follow's file is usually shown first,
  // and the diff then takes its place anyway). Once the follows settle, the diff must still be
  // the active tab.
  const openers: [string, (index: number, contentIndex: number) => PanelIntent, (tab: vscode.Tab | undefined) => boolean][] = [
    ['the edit’s diff from its card', (index, contentIndex) => ({ type: 'openDiff', index, contentIndex }), (tab) => tab?.input instanceof vscode.TabInputTextDiff],
    ['a file’s diff from the review list', () => ({ type: 'reviewOpen', path: notes() }), (tab) => tab?.input instanceof vscode.TabInputTextDiff && tab.label === 'demo-notes.md (agent’s changes)'],
  ];
  for (const [what, intent, isIt] of openers) {
    test(`a follow on its way gives way to ${what}, opened meanwhile`, async () => {
      const controller = await useAgent('Demo agent');
      const { host } = await api();
      await host.handleIntent({ type: 'reviewKeep' }); // whatever earlier suites left
      // The edit's file must exist: a missing one is not followed at all, so no follow would be
      // on its way (the demo agent's other tests create it, which only a run of the whole suite sees).
      const created = !fs.existsSync(notes());
      if (created) fs.writeFileSync(notes(), '# Notes\n');
      const answer = async (kind: string) => {
        const tool = await until('a permission request', () => find(controller, 'tool').find((t) => t.permission));
        controller.choosePermission(tool.toolCallId, tool.permission!.find((o) => o.kind === kind)!.optionId);
      };
      let release = () => {};
      let listening: { dispose(): void } | undefined;
      // Whatever fails, from the first turn on, the notes and the review list are left as found.
      try {
        // A first turn's edit, allowed, gives the review list the file's changes to open.
        const first = controller.prompt('write the notes');
        await answer('allow_once');
        await first;
        await until('the notes in the review list', () => (controller.session.view.review.some((f) => f.path === notes()) ? true : undefined));
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');

        host.follower.holdUntil(new Promise<void>((resolve) => (release = resolve)));
        let opened: Promise<void> | undefined;
        listening = controller.transcript.onChange((event) => {
          if (opened || event.type === 'reset') return;
          const entry = controller.transcript.entries[event.index];
          const contentIndex = entry?.kind === 'tool' && entry.status === 'pending' ? entry.content.findIndex((c) => c.type === 'diff') : -1;
          if (contentIndex >= 0) opened = host.handleIntent(intent(event.index, contentIndex));
        });
        const turn = controller.prompt('show me the diff');
        await until('the edit', () => opened);
        await opened;
        assert.ok(isIt(vscode.window.tabGroups.activeTabGroup.activeTab), `${what} is open`);
        release();
        await host.follower.settled();
        assert.ok(isIt(vscode.window.tabGroups.activeTabGroup.activeTab), `${what} is still the active tab: the follow did not replace it`);
        await answer('reject_once');
        await turn;
      } finally {
        listening?.dispose();
        release();
        host.follower.holdUntil(undefined);
        await host.handleIntent({ type: 'reviewUndo' });
        if (created) fs.rmSync(notes(), { force: true });
      }
    });
  }
});
