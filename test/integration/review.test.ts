// Review of the agent's edits in the real extension host: an agent that writes to disk behind our
// back (test/fixtures/agents/disk-writer.js) still shows in the review list with a correct diff,
// and Undo / Keep do what they say, on disk.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ReviewFileView } from '../../src/webview-protocol/session';
import { api, until, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

suite('review of the agent’s edits', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('an agent that writes to disk behind our back still shows in the review list with a correct diff; undo and keep', async () => {
    const notes = path.join(workspace(), 'notes.txt');
    const created = path.join(workspace(), 'src', 'created.ts');
    const original = fs.readFileSync(notes, 'utf8');
    const { host } = await api();
    const controller = await useAgent('Disk writer', 'disk-writer.js');
    await host.handleIntent({ type: 'reviewKeep' }); // whatever earlier suites left
    assert.deepStrictEqual(controller.session.view.review, []);

    const listed = (files: readonly ReviewFileView[]) => files.map((f) => `${f.change} ${path.relative(workspace(), f.path)} +${f.added} -${f.removed}`).sort();
    const expected = ['created src/created.ts +3 -0', 'modified notes.txt +2 -1'];
    const reviewShows = (what: string[]) => () => (JSON.stringify(listed(controller.session.view.review)) === JSON.stringify(what) ? true : undefined);

    await controller.prompt('edit files');
    await until(`the review list ${JSON.stringify(expected)} (it shows ${JSON.stringify(listed(controller.session.view.review))})`, reviewShows(expected));
    const edited = fs.readFileSync(notes, 'utf8');
    assert.notStrictEqual(edited, original);

    // Open: VS Code's diff editor, the baseline on the left, the real file on the right.
    await host.handleIntent({ type: 'reviewOpen', path: notes });
    const input = await until('a diff tab', () => {
      const tabInput = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return tabInput instanceof vscode.TabInputTextDiff ? tabInput : undefined;
    });
    assert.strictEqual(input.original.scheme, 'acp-review');
    assert.strictEqual((await vscode.workspace.openTextDocument(input.original)).getText(), original);
    assert.strictEqual(input.modified.fsPath, notes);
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'notes.txt (agent’s changes)');

    // Undo everything: the modified file gets its text back, the created one is gone.
    await host.handleIntent({ type: 'reviewUndo' });
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), original);
    assert.strictEqual(fs.existsSync(created), false, 'the created file is deleted');
    assert.deepStrictEqual(controller.session.view.review, []);

    // A second turn, kept: the changes stay on disk and the list empties.
    await controller.prompt('edit files again');
    await until('the review list after the second turn', reviewShows(expected));
    await host.handleIntent({ type: 'reviewKeep', path: created });
    assert.deepStrictEqual(listed(controller.session.view.review), ['modified notes.txt +2 -1']);
    await host.handleIntent({ type: 'reviewKeep' });
    assert.deepStrictEqual(controller.session.view.review, []);
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), edited);
    assert.ok(fs.existsSync(created));
    // Late watcher events of that turn must not bring the kept files back.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.deepStrictEqual(controller.session.view.review, []);

    // Leave the workspace as the other suites expect it.
    fs.writeFileSync(notes, original);
    fs.rmSync(created);
  });

  test('an undone file can be taken back with VS Code’s own undo', async () => {
    const notes = path.join(workspace(), 'notes.txt');
    const original = fs.readFileSync(notes, 'utf8');
    const { host } = await api();
    const controller = await useAgent('Disk writer', 'disk-writer.js');
    await host.handleIntent({ type: 'reviewKeep' });
    await controller.prompt('edit files');
    await until('notes.txt listed', () => controller.session.view.review.find((f) => f.path === notes));
    const edited = fs.readFileSync(notes, 'utf8');

    await host.handleIntent({ type: 'reviewUndo', path: notes });
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), original);
    const doc = await vscode.workspace.openTextDocument(notes);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), edited, 'the undo is one step in the document’s own history');

    await doc.save();
    await host.handleIntent({ type: 'reviewKeep' });
    fs.writeFileSync(notes, original);
    fs.rmSync(path.join(workspace(), 'src', 'created.ts'), { force: true });
  });
});
