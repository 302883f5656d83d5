// Restore and Undo never write through a link out of the workspace, nor into a protected path
// without an explicit choice, and never delete a file whose earlier state they never saw. In the
// real extension host, with test/fixtures/agents/checkpoint-agent.js changing files behind our
// back; the modals are answered through host.checkpoints.confirm and host.reviewer.confirm.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, closeSessionsAndAgents, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
let dir = 'trust-restore';
let tests = 0;
const file = (rel: string) => path.join(workspace(), dir, rel);
const read = (rel: string) => (fs.existsSync(file(rel)) ? fs.readFileSync(file(rel), 'utf8') : null);
const ops = (...list: object[]) => `ops:${JSON.stringify(list)}`;
const firstUser = (c: { transcript: { entries: readonly { kind: string }[] } }) => c.transcript.entries.findIndex((e) => e.kind === 'user');
/** Late watcher events of a turn are still its own for 2 s (EditReviewer's grace). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

suite('trust: restore and undo', function () {
  this.timeout(60000);
  /** Each modal asked: its message, detail and buttons. */
  const asked: { message: string; detail: string; choices: readonly string[] }[] = [];
  /** Which button the stubbed modals press (undefined: the user declines). */
  let press: (choices: readonly string[]) => string | undefined;
  let outside: string;
  let restoreStubs: () => void;

  setup(async () => {
    dir = `trust-${++tests}`;
    fs.mkdirSync(path.join(workspace(), dir));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
    await settle();
    fs.writeFileSync(file('a.txt'), 'original\n');
    fs.writeFileSync(file('.env'), 'A=1\n');
    asked.length = 0;
    press = (choices) => choices[0];
    const { host } = await api();
    const originals = [host.checkpoints.confirm, host.reviewer.confirm] as const;
    const stub = async (message: string, detail: string, choices: readonly string[]) => (asked.push({ message, detail, choices }), press(choices));
    host.checkpoints.confirm = stub;
    host.reviewer.confirm = stub;
    restoreStubs = () => ([host.checkpoints.confirm, host.reviewer.confirm] = originals);
    await host.reviewer.keep();
    await settle();
  });

  teardown(async () => {
    restoreStubs();
    await (await api()).host.reviewer.keep();
    await closeSessionsAndAgents();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(workspace(), dir), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  test('a symlink planted after the checkpoint that points out of the workspace is not written through on Restore', async () => {
    const { host } = await api();
    const target = path.join(outside, '.bashrc');
    fs.writeFileSync(target, 'the user’s own\n');
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ disk: `${dir}/a.txt`, content: 'agent v1\n' }));
    await settle();
    fs.rmSync(file('a.txt'));
    fs.symlinkSync(target, file('a.txt'));
    await settle();

    await host.handleIntent({ type: 'restoreCheckpoint', index: firstUser(controller) });
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'the user’s own\n', 'the file outside keeps its content');
    assert.ok(fs.lstatSync(file('a.txt')).isSymbolicLink(), 'the link is left as it is');
  });

  test('a protected file in a restore is written only on the choice that names it', async () => {
    const { host } = await api();
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ disk: `${dir}/.env`, content: 'A=2\n' }, { disk: `${dir}/a.txt`, content: 'agent v1\n' }));
    await settle();

    press = (choices) => choices.find((c) => c.includes('all but protected'));
    await host.handleIntent({ type: 'restoreCheckpoint', index: firstUser(controller) });
    assert.deepStrictEqual(asked[0].choices, [`Restore, including ${dir}/.env`, 'Restore all but protected files']);
    assert.match(asked[0].detail, /Protected, changed only if you choose so:\n.*\.env: restored/);
    assert.deepStrictEqual([read('a.txt'), read('.env')], ['original\n', 'A=2\n'], 'the protected file is left as the agent wrote it');

    press = (choices) => choices[0];
    await host.handleIntent({ type: 'restoreCheckpoint', index: firstUser(controller) });
    assert.deepStrictEqual(asked[1].choices, [`Restore, including ${dir}/.env`]);
    assert.strictEqual(read('.env'), 'A=1\n', 'restored once the user chose it');
  });

  test('Undo of a single protected file asks in a modal naming it; declined, nothing changes', async () => {
    const { host } = await api();
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    await controller.prompt(ops({ disk: `${dir}/.env`, content: 'A=2\n' }));
    await settle();
    assert.ok(controller.session.view.review.some((f) => f.path === file('.env')), '.env is listed');

    press = () => undefined;
    await host.handleIntent({ type: 'reviewUndo', path: file('.env') });
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0].message, new RegExp(`${dir}/\\.env`));
    assert.strictEqual(read('.env'), 'A=2\n', 'declined: left as the agent wrote it');

    press = (choices) => choices[0];
    await host.handleIntent({ type: 'reviewUndo', path: file('.env') });
    assert.strictEqual(read('.env'), 'A=1\n');
  });

  test('a file the review never saw before the agent replaced it is not deleted by Undo nor by Restore', async () => {
    const { host } = await api();
    const unseen = path.join(workspace(), 'saved.code-search');
    const original = fs.readFileSync(unseen, 'utf8');
    const controller = await useAgent('Checkpointer', 'checkpoint-agent.js');
    try {
      await controller.prompt(ops({ replace: 'saved.code-search', content: 'replaced by the agent\n' }));
      await settle();
      assert.ok(!controller.session.view.review.some((f) => f.path === unseen), 'not listed as created: its earlier state is unknown');
      await host.handleIntent({ type: 'reviewUndo' });
      assert.strictEqual(fs.readFileSync(unseen, 'utf8'), 'replaced by the agent\n', 'Undo left it as it is');
      await host.handleIntent({ type: 'restoreCheckpoint', index: firstUser(controller) });
      assert.strictEqual(fs.readFileSync(unseen, 'utf8'), 'replaced by the agent\n', 'Restore left it as it is');
    } finally {
      fs.writeFileSync(unseen, original);
    }
  });
});
