// Checkpoints in the real extension host, with test/fixtures/agents/checkpoint-agent.js, which over
// two turns creates, modifies and deletes files, some through fs/write_text_file and some straight
// to disk. Restore checkpoint of the first turn puts everything back (created → gone, modified →
// original, deleted → back) after the modal, which tests answer through host.checkpoints.confirm;
// VS Code's undo brings the agent's versions back. Edit a past prompt: with session/fork, a fork
// before that message gets the edited prompt; without, the same session does, after a note.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
/** Each test's own folder: a document a test left open (and saved) must not stand for another test's file. */
let dir = 'cp';
let tests = 0;
const file = (rel: string) => path.join(workspace(), dir, rel);
const read = (rel: string) => (fs.existsSync(file(rel)) ? fs.readFileSync(file(rel), 'utf8') : null);
const ops = (...list: object[]) => `ops:${JSON.stringify(list)}`;
const userIndex = (c: Parameters<typeof find>[0], n: number) => c.transcript.entries.map((e, i) => (e.kind === 'user' ? i : -1)).filter((i) => i >= 0)[n];
/** Late watcher events of a turn are still its own for 2 s (EditReviewer's grace). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

suite('checkpoints', function () {
  this.timeout(60000);
  const asked: string[] = [];
  let restoreConfirm: () => void;

  setup(async () => {
    dir = `cp-${++tests}`;
    fs.mkdirSync(path.join(workspace(), dir));
    // The watcher reports files of a folder that exists already (a new folder is reported alone).
    await settle();
    fs.writeFileSync(file('modified.txt'), 'original\n');
    fs.writeFileSync(file('deleted.txt'), 'keep me\n');
    asked.length = 0;
    const { host } = await api();
    const original = host.checkpoints.confirm;
    host.checkpoints.confirm = async (message, detail, choices) => (asked.push(`${message}\n${detail}`), choices[0]);
    restoreConfirm = () => (host.checkpoints.confirm = original);
    // The watcher reports the files written here before any turn: they are not the agent's changes.
    await settle();
  });

  teardown(async () => {
    restoreConfirm();
    await closeSessionsAndAgents();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(workspace(), dir), { recursive: true, force: true });
  });

  test('Restore checkpoint puts back what the agent created, modified and deleted, through ACP or on disk; one undo takes it back', async () => {
    const { host } = await api();
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ acp: `${dir}/created-acp.txt`, content: 'by acp\n' }, { disk: `${dir}/modified.txt`, content: 'agent v1\n' }));
    await controller.prompt(ops({ rm: `${dir}/deleted.txt` }, { disk: `${dir}/created-disk.txt`, content: 'on disk\n' }, { acp: `${dir}/modified.txt`, content: 'agent v2\n' }));
    await settle();
    assert.deepStrictEqual([read('created-acp.txt'), read('created-disk.txt'), read('modified.txt'), read('deleted.txt')], ['by acp\n', 'on disk\n', 'agent v2\n', null]);
    const first = userIndex(controller, 0);
    assert.strictEqual(typeof (controller.transcript.entries[first] as { checkpoint?: number }).checkpoint, 'number', 'the message keeps its checkpoint');

    await host.handleIntent({ type: 'restoreCheckpoint', index: first });
    assert.strictEqual(asked.length, 1, 'asked once, in the modal');
    assert.match(asked[0], /^Restore 4 files to how they were before/);
    assert.match(asked[0], /created-acp\.txt: removed/);
    assert.match(asked[0], /deleted\.txt: re-created/);
    assert.match(asked[0], /modified\.txt: restored/);
    assert.deepStrictEqual([read('created-acp.txt'), read('created-disk.txt'), read('modified.txt'), read('deleted.txt')], [null, null, 'original\n', 'keep me\n']);

    const doc = await vscode.workspace.openTextDocument(file('modified.txt'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await until('the agent’s versions back', () => (doc.getText() === 'agent v2\n' && read('created-acp.txt') === 'by acp\n' && read('deleted.txt') === null ? true : undefined));
    await doc.save();
  });

  test('Restore checkpoint of a later turn leaves the earlier turn’s changes; declined, nothing changes', async () => {
    const { host } = await api();
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ disk: `${dir}/modified.txt`, content: 'agent v1\n' }));
    // A write behind our back is known once the watcher reports it: the user's next prompt comes later than that.
    await settle();
    await controller.prompt(ops({ disk: `${dir}/modified.txt`, content: 'agent v2\n' }));
    await settle();
    host.checkpoints.confirm = async (message) => (asked.push(message), undefined);
    await host.handleIntent({ type: 'restoreCheckpoint', index: userIndex(controller, 1) });
    assert.strictEqual(read('modified.txt'), 'agent v2\n', 'declined: nothing restored');
    host.checkpoints.confirm = async (message, _detail, choices) => (asked.push(message), choices[0]);
    await host.handleIntent({ type: 'restoreCheckpoint', index: userIndex(controller, 1) });
    assert.strictEqual(read('modified.txt'), 'agent v1\n');
    assert.match(asked[1], /^Restore 1 file to/);
  });

  test('Edit without session/fork: the files go back, a note says the agent still remembers, and the edited prompt goes to the same session', async () => {
    const { host } = await api();
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ disk: `${dir}/modified.txt`, content: 'agent v1\n' }));
    await settle();
    await host.handleIntent({ type: 'editPrompt', index: userIndex(controller, 0), text: 'the edited prompt' });
    assert.strictEqual(read('modified.txt'), 'original\n');
    assert.strictEqual(host.controller, controller, 'the same session');
    assert.match(find(controller, 'note').at(-1)?.message ?? '', /still remembers the old message/);
    await until('the agent’s answer', () => (find(controller, 'agent').at(-1)?.text === 'heard: the edited prompt' ? true : undefined));
  });

  test('Edit with session/fork: the files go back, and a fork holding the conversation before that message gets the edited prompt', async () => {
    const { host } = await api();
    const original = await useAgent('Forking checkpointer', 'checkpoint-agent.js', { FAKE_FORK: '1' });
    await original.prompt('before');
    await original.prompt(ops({ disk: `${dir}/modified.txt`, content: 'agent v1\n' }));
    await settle();
    await host.handleIntent({ type: 'editPrompt', index: userIndex(original, 1), text: 'edited' });
    assert.strictEqual(read('modified.txt'), 'original\n');
    const fork = host.controller;
    assert.notStrictEqual(fork, original, 'the fork is shown');
    assert.match(fork.currentSessionId ?? '', /^fork-/);
    await until('the fork’s answer', () => (find(fork, 'agent').at(-1)?.text === 'heard: edited' ? true : undefined));
    assert.deepStrictEqual(find(fork, 'user').map((e) => e.text), ['before', 'edited'], 'the conversation before the edited message, then the edit');
    assert.strictEqual(find(fork, 'note').length, 0);
  });
});
