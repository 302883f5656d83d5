// Review comments back to the agent, in the real extension host: a comment on lines of a review
// diff (the real file on its right side) and of a tool call's diff becomes a chip of the shown
// session, goes with the next prompt (test/fixtures/agents/comment-agent.js checks the blocks and
// echoes them), and its thread is then marked sent; removing a chip deletes its thread, and a
// thread's remove button its chip. The Comments UI's "+" is VS Code's: the test makes the thread
// on our controller as it does, and runs the command the reply box's button runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { COMMENT_COMMANDS } from '../../src/host/comments/commentCommands';
import type { ReviewComment } from '../../src/session/commentAttachment';
import { api, find, until, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const CAPS = { FAKE_AGENT_CAPABILITIES: JSON.stringify({ promptCapabilities: { embeddedContext: true } }) };

/** What the host reported as failed during this suite (an action that opens a diff swallows its error). */
const failures: string[] = [];

async function activeDiff(): Promise<vscode.TabInputTextDiff> {
  return until('a diff tab', () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff ? input : undefined;
  }).catch((e) => {
    const groups = vscode.window.tabGroups.all.map((g) => ({ active: g.isActive, col: g.viewColumn, tabs: g.tabs.map((t) => [t.label, t.isActive, t.input?.constructor?.name]) }));
    throw new Error(`${e.message}; groups: ${JSON.stringify(groups)}; failures: ${JSON.stringify(failures)}`);
  });
}

/** What the gutter's "+" and the reply box's button do: a thread on `uri`'s lines, then our command with the text. */
async function comment(uri: vscode.Uri, range: vscode.Range, text: string): Promise<{ thread: vscode.CommentThread; added: Omit<ReviewComment, 'id'> | undefined }> {
  const { host } = await api();
  const made = await until('the comment controller (made when a diff opens)', () => host.comments.controller);
  const thread = made.createCommentThread(uri, range, []);
  const added = await vscode.commands.executeCommand<Omit<ReviewComment, 'id'> | undefined>(COMMENT_COMMANDS.add, { thread, text });
  return { thread, added };
}

suite('review comments back to the agent', function () {
  this.timeout(60000);
  const notes = () => path.join(workspace(), 'notes.txt');
  let original = '';

  let restoreFailed = () => {};

  suiteSetup(async () => {
    original = fs.readFileSync(notes(), 'utf8');
    const { host } = await api();
    const failed = host.workbench.failed;
    host.workbench.failed = (what, error, tellUser) => (failures.push(`${what}: ${error.message}`), failed.call(host.workbench, what, error, tellUser));
    restoreFailed = () => (host.workbench.failed = failed);
  });

  suiteTeardown(() => restoreFailed());

  teardown(async () => {
    const { host } = await api();
    await host.handleIntent({ type: 'reviewKeep' });
    await host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.writeFileSync(notes(), original);
  });

  test('a comment on a review diff is a chip, goes with the next prompt (file, lines, text), and its thread is marked sent', async () => {
    const { host } = await api();
    const controller = await useAgent('Comment agent', 'comment-agent.js', CAPS);
    await host.handleIntent({ type: 'reviewKeep' });
    await controller.prompt('edit');
    await until('notes.txt in the review list', () => (controller.session.view.review.some((f) => f.path === notes()) ? true : undefined));

    await host.handleIntent({ type: 'reviewOpen', path: notes() });
    const input = await activeDiff();
    assert.strictEqual(input.modified.fsPath, notes(), 'the right side is the real file');
    const secondLine = fs.readFileSync(notes(), 'utf8').split('\n')[1];

    const { thread, added } = await comment(input.modified, new vscode.Range(1, 0, 1, 0), '  Say why, not what: <img src=x onerror=alert(1)>  ');
    assert.ok(added, 'the comment was added');
    assert.deepStrictEqual(
      { path: added.path, startLine: added.startLine, endLine: added.endLine, comment: added.comment, text: added.text, side: added.side },
      { path: 'notes.txt', startLine: 2, endLine: 2, comment: 'Say why, not what: <img src=x onerror=alert(1)>', text: secondLine, side: 'current' },
    );
    const chips = controller.session.view.attachments;
    assert.deepStrictEqual(chips.map((c) => [c.kind, c.label]), [['comment', 'notes.txt:2 “Say why, not what: <img src=x onerror=alert(1)>”']]);
    assert.strictEqual(thread.contextValue, 'pending');
    assert.strictEqual(thread.comments.length, 1);
    assert.strictEqual(thread.canReply, false, 'one comment per thread: the chip holds it');

    await controller.prompt('please address my review');
    const answer = await until('the agent’s echo of the prompt', () => find(controller, 'agent').at(-1)?.text, 20000).catch(() => {
      throw new Error(`no echo; the transcript: ${JSON.stringify(controller.transcript.entries.slice(-3))}`);
    });
    const blocks = JSON.parse(answer) as { type: string; text?: string; uri?: string; resource?: { uri: string; text: string } }[];
    assert.deepStrictEqual(blocks, [
      { type: 'text', text: 'please address my review' },
      { type: 'text', text: 'Review comment on notes.txt:2: Say why, not what: <img src=x onerror=alert(1)>' },
      { type: 'resource', resource: { uri: `${vscode.Uri.file(notes()).toString()}#L2-L2`, text: secondLine } },
    ]);
    assert.deepStrictEqual(controller.session.view.attachments, [], 'sent: the composer is empty again');
    assert.strictEqual(thread.contextValue, 'sent');
    assert.strictEqual(thread.state, vscode.CommentThreadState.Resolved);
    assert.strictEqual(thread.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
    assert.deepStrictEqual(host.comments.counts, { pending: 0, sent: 1 });
    // The sent thread can be dismissed.
    await vscode.commands.executeCommand(COMMENT_COMMANDS.remove, thread);
    assert.deepStrictEqual(host.comments.counts, { pending: 0, sent: 0 });
  });

  test('a comment on a tool call’s diff names the workspace file; removing its chip deletes the thread, and the thread’s remove button its chip', async () => {
    const { host } = await api();
    const controller = await useAgent('Comment agent', 'comment-agent.js', CAPS);
    await controller.prompt('edit');
    const tool = await until('the edit’s tool card', () => find(controller, 'tool').at(-1));
    await host.handleIntent({ type: 'openDiff', index: controller.transcript.entries.indexOf(tool), contentIndex: 0 });
    const input = await activeDiff();
    assert.strictEqual(input.modified.scheme, 'acp-diff');

    const proposed = await comment(input.modified, new vscode.Range(1, 0, 3, 0), 'Keep the old wording');
    assert.deepStrictEqual(
      proposed.added && { uri: proposed.added.uri, path: proposed.added.path, startLine: proposed.added.startLine, endLine: proposed.added.endLine, side: proposed.added.side },
      { uri: vscode.Uri.file(notes()).toString(), path: 'notes.txt', startLine: 2, endLine: 3, side: 'proposed' },
      'the agent’s file, by its real URI, and the lines of its proposed text (a range ending at a line’s start leaves that line out)',
    );
    const replaced = await comment(input.original, new vscode.Range(0, 0, 0, 0), 'This line was fine');
    assert.strictEqual(replaced.added?.side, 'replaced');
    assert.strictEqual(controller.session.view.attachments.length, 2);
    assert.deepStrictEqual(host.comments.counts, { pending: 2, sent: 0 });

    // Removing the chip (the panel's ×) deletes its thread.
    const chip = controller.session.view.attachments.find((c) => c.label.includes('Keep the old wording'))!;
    await host.handleIntent({ type: 'detach', id: chip.id });
    assert.deepStrictEqual(host.comments.counts, { pending: 1, sent: 0 });
    // The thread's remove button removes its chip.
    await vscode.commands.executeCommand(COMMENT_COMMANDS.remove, replaced.thread);
    assert.deepStrictEqual(controller.session.view.attachments, []);
    assert.deepStrictEqual(host.comments.counts, { pending: 0, sent: 0 });
  });

  test('a path outside the workspace, or a document that is not a diff of ours, cannot be commented', async () => {
    const { host } = await api();
    // A side of a tool call's diff as DiffDocuments names it, as if the agent had named these files.
    const diffSide = (file: string) => vscode.Uri.from({ scheme: 'acp-diff', path: '/1/after/x.txt', query: new URLSearchParams({ side: 'proposed', file }).toString() });
    const outside = diffSide(path.resolve(workspace(), '..', 'outside.txt'));
    await vscode.workspace.openTextDocument(outside); // as a diff editor would (the controller is made then)
    assert.strictEqual((await comment(outside, new vscode.Range(0, 0, 0, 0), 'no')).added, undefined);
    assert.strictEqual((await comment(diffSide('notes.txt'), new vscode.Range(0, 0, 0, 0), 'no')).added, undefined, 'a relative path');
    const untitled = await vscode.workspace.openTextDocument({ content: 'scratch' });
    assert.strictEqual((await comment(untitled.uri, new vscode.Range(0, 0, 0, 0), 'no')).added, undefined);
    assert.deepStrictEqual(host.controller.session.view.attachments, []);
    // The same kind of document naming a workspace file is commented: the refusals above were for the path.
    const inside = await comment(diffSide(notes()), new vscode.Range(0, 0, 0, 0), 'yes');
    assert.strictEqual(inside.added?.path, 'notes.txt');
    await vscode.commands.executeCommand(COMMENT_COMMANDS.remove, inside.thread);
    assert.deepStrictEqual(host.controller.session.view.attachments, []);
  });
});
