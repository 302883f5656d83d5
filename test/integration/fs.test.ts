// fs/read_text_file and fs/write_text_file in the real extension host, driven by a fake agent
// (test/fixtures/agents/fs-agent.js) whose prompt is a JSON command and whose answer is the JSON
// result. Reads see unsaved buffers; writes go through the buffer (one undo), are saved, create
// missing folders, keep the file's line endings; every hostile path is refused with -32602 and
// nothing outside the workspace changes.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import { api, ask as askAgent, find, until, useAgent } from './helpers';
import { testLog } from './index';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

interface CallResult {
  ok: boolean;
  code?: number;
  message?: string;
  content?: string;
}

/** Sends one JSON command to fs-agent.js and returns its JSON answer. */
const ask = <T = CallResult>(controller: AgentSession, command: unknown): Promise<T> => askAgent<T>(controller, command);

/** Every file under `dir` with its bytes and mtime, to show nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(entry.parentPath, entry.name);
    const st = fs.lstatSync(p);
    out[path.relative(dir, p)] = entry.isFile() ? `${fs.readFileSync(p, 'base64')} ${st.mtimeMs}` : `${st.mode}`;
  }
  return out;
}

async function revertAndClose(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

suite('fs callbacks', function () {
  this.timeout(60000);
  let dir: string; // our own folder inside the workspace, so other suites' files stay as they are
  let sentinel: string; // outside the workspace: nothing may ever change here

  suiteSetup(() => {
    dir = path.join(workspace(), 'fs-callbacks');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    sentinel = path.join(path.dirname(workspace()), 'fs-sentinel');
    fs.rmSync(sentinel, { recursive: true, force: true });
    fs.mkdirSync(path.join(sentinel, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(sentinel, 'secret.txt'), 'sentinel secret\n');
    fs.writeFileSync(path.join(sentinel, 'sub', 'deep.txt'), 'deep secret\n');
    fs.symlinkSync(sentinel, path.join(dir, 'out-link'), 'dir');
    fs.symlinkSync(path.join(sentinel, 'secret.txt'), path.join(dir, 'out-file-link'), 'file');
    fs.symlinkSync(path.join(sentinel, 'dangling-target.txt'), path.join(dir, 'dangling'), 'file');
  });

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the client advertises fs.readTextFile and fs.writeTextFile', async () => {
    const controller = await useAgent('FS', 'fs-agent.js');
    const init = await ask<{ clientCapabilities: { fs: Record<string, boolean> } }>(controller, { initialize: true });
    assert.deepStrictEqual(init.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
  });

  test('a read sees the unsaved buffer, not the disk', async () => {
    const file = path.join(dir, 'dirty-read.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'UNSAVED ')));
    assert.ok(document.isDirty);

    const controller = await useAgent('FS', 'fs-agent.js');
    assert.deepStrictEqual(await ask(controller, { read: file }), { ok: true, content: 'one\nUNSAVED two\nthree\n' });
    assert.deepStrictEqual(await ask(controller, { read: file, line: 2, limit: 1 }), { ok: true, content: 'UNSAVED two\n' });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n', 'reading does not save');
    await revertAndClose(document);
  });

  test('a write into an open buffer with unsaved edits the agent never read: asked first, then shown, saved, and one undo restores the user’s text', async () => {
    const file = path.join(dir, 'open-write.txt');
    fs.writeFileSync(file, 'original\n');
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'user typed this, unsaved\n')));
    const userText = document.getText();

    const controller = await useAgent('FS', 'fs-agent.js');
    const answered = ask(controller, { write: file, content: 'from the agent\nline 2\n' });
    const card = await until('the question about the unsaved edits', () => find(controller, 'tool').find((t) => t.permission));
    assert.match(card.policyNote ?? '', /unsaved changes that the agent has not read/);
    assert.deepStrictEqual(card.permission?.map((o) => o.name), ['Allow once', 'Deny']);
    assert.strictEqual(document.getText(), userText, 'nothing is written before the answer');
    controller.choosePermission(card.toolCallId, 'acp-host:allow-once');
    assert.deepStrictEqual(await answered, { ok: true });
    assert.strictEqual(document.getText(), 'from the agent\nline 2\n', 'the buffer shows the write');
    assert.strictEqual(document.isDirty, false, 'and it is saved');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'from the agent\nline 2\n');

    await vscode.window.showTextDocument(document); // Undo acts on the focused editor
    await vscode.commands.executeCommand('undo');
    await until('the undo', () => (document.getText() === userText ? true : undefined), 5000).catch(() => undefined);
    assert.strictEqual(document.getText(), userText, 'one undo brings back the user’s unsaved text');
    assert.strictEqual(document.isDirty, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'from the agent\nline 2\n', 'undo does not touch the disk');
    await revertAndClose(document);
  });

  test('an agent killed while sending a write leaves the file and the user’s unsaved edits as they were', async () => {
    const file = path.join(dir, 'half-write.txt');
    fs.writeFileSync(file, 'on disk\n');
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'unsaved\n')));

    const controller = await useAgent('Half writer', 'hostile-half-line.js', { FAKE_HALF_WRITE_PATH: file, FAKE_HALF_BYTES: String(1 << 20) });
    await controller.prompt('write it');
    await until('the crash', () => (controller.currentStatus.phase === 'crashed' ? true : undefined));
    assert.match(controller.currentStatus.detail ?? '', /killed by SIGKILL/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'on disk\n', 'the disk is untouched');
    assert.strictEqual(document.getText(), 'unsaved\non disk\n', 'the buffer keeps the user’s edit');
    assert.strictEqual(document.isDirty, true);
    await revertAndClose(document);
  });

  test('the save runs the user’s save participants (trim trailing whitespace); its edit is one more undo step', async () => {
    const config = vscode.workspace.getConfiguration('files');
    await config.update('trimTrailingWhitespace', true, vscode.ConfigurationTarget.Global);
    try {
      const file = path.join(dir, 'participants.txt');
      fs.writeFileSync(file, 'before\n');
      const document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document);
      const controller = await useAgent('FS', 'fs-agent.js');
      assert.deepStrictEqual(await ask(controller, { write: file, content: 'trailing   \nspaces\t\n' }), { ok: true });
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'trailing\nspaces\n', 'the participant ran before the bytes hit the disk');
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('undo');
      const afterOne = document.getText();
      await vscode.commands.executeCommand('undo');
      const afterTwo = document.getText();
      testLog(`    [info] with a save participant: one undo → ${JSON.stringify(afterOne)}, two → ${JSON.stringify(afterTwo)}`);
      assert.strictEqual(afterOne, 'trailing   \nspaces\t\n', 'the first undo takes back only the participant’s edit');
      assert.strictEqual(afterTwo, 'before\n', 'the second one the agent’s write');
      await revertAndClose(document);
    } finally {
      await config.update('trimTrailingWhitespace', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a write to a closed file goes through its document and is saved', async () => {
    const file = path.join(dir, 'closed.txt');
    fs.writeFileSync(file, 'before\n');
    const controller = await useAgent('FS', 'fs-agent.js');
    assert.deepStrictEqual(await ask(controller, { write: file, content: 'after\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'after\n');
    assert.deepStrictEqual(await ask(controller, { read: file }), { ok: true, content: 'after\n' });
  });

  test('writing a new file in new folders creates them all', async () => {
    const file = path.join(dir, 'new', 'deeper', 'created.ts');
    assert.ok(!fs.existsSync(path.dirname(path.dirname(file))));
    const controller = await useAgent('FS', 'fs-agent.js');
    assert.deepStrictEqual(await ask(controller, { write: file, content: 'export const x = 1;\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'export const x = 1;\n');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(!open || !open.isDirty, 'nothing is left unsaved');
    // An empty file can be written too.
    const empty = path.join(dir, 'new', 'empty.txt');
    assert.deepStrictEqual(await ask(controller, { write: empty, content: '' }), { ok: true });
    assert.strictEqual(fs.readFileSync(empty, 'utf8'), '');
  });

  test('line endings follow the file: \\n content into a CRLF file is saved as CRLF, and back', async () => {
    const crlf = path.join(dir, 'crlf.txt');
    const lf = path.join(dir, 'lf.txt');
    fs.writeFileSync(crlf, 'a\r\nb\r\n');
    fs.writeFileSync(lf, 'a\nb\n');
    const controller = await useAgent('FS', 'fs-agent.js');
    assert.deepStrictEqual(await ask(controller, { write: crlf, content: 'x\ny\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(crlf, 'utf8'), 'x\r\ny\r\n');
    assert.deepStrictEqual(await ask(controller, { write: lf, content: 'x\r\ny\r\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(lf, 'utf8'), 'x\ny\n');
    // A new file: what VS Code does with CRLF content (reported, and it must be consistent).
    const fresh = path.join(dir, 'fresh-crlf.txt');
    assert.deepStrictEqual(await ask(controller, { write: fresh, content: 'p\r\nq\r\n' }), { ok: true });
    const written = fs.readFileSync(fresh, 'utf8');
    testLog(`    [info] CRLF content written to a new file is saved as ${JSON.stringify(written)}`);
    assert.ok(written === 'p\r\nq\r\n' || written === 'p\nq\n', JSON.stringify(written));
  });

  test('a read of a FIFO (or a symlink to one) is refused at once, a file over the size limit by its size; an open buffer is read whatever its size', async () => {
    const pipe = path.join(dir, 'agent.fifo');
    execFileSync('mkfifo', [pipe]);
    fs.symlinkSync(pipe, path.join(dir, 'fifo-link'));
    const big = path.join(dir, 'big.log');
    fs.writeFileSync(big, 'line\n'.repeat(300_000)); // 1.4 MiB
    const config = vscode.workspace.getConfiguration('acpHost');
    await config.update('readTextFileLimitMegabytes', 1, vscode.ConfigurationTarget.Global);
    try {
      const controller = await useAgent('FS', 'fs-agent.js');
      // Each read of a FIFO with a blocking open would hold a thread of the extension host's pool for good.
      const fifos = [...Array(6).fill(pipe), path.join(dir, 'fifo-link')];
      const results = await ask<CallResult[]>(controller, { batch: [...fifos.map((p) => ({ read: p })), { read: big }, { read: path.join(dir, 'ok-after.txt') }] });
      for (const r of results.slice(0, fifos.length)) {
        assert.strictEqual(r.code, -32602, JSON.stringify(r));
        assert.match(r.message ?? '', /is a FIFO \(named pipe\), not a regular file/);
      }
      const tooBig = results[fifos.length];
      assert.strictEqual(tooBig.code, -32602);
      assert.match(tooBig.message ?? '', /big\.log": it is 1\.4 MiB, over the limit of 1 MiB \(acpHost\.readTextFileLimitMegabytes\)/);
      assert.strictEqual(results[fifos.length + 1].code, -32002, 'a missing file is still not found');
      // Open in an editor, the same file is served from memory.
      await vscode.workspace.openTextDocument(big);
      const fromBuffer = await ask(controller, { read: big, line: 2, limit: 1 });
      assert.deepStrictEqual(fromBuffer, { ok: true, content: 'line\n' });
    } finally {
      await config.update('readTextFileLimitMegabytes', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(pipe);
      fs.rmSync(path.join(dir, 'fifo-link'));
    }
  });

  test('every hostile path is refused with -32602, for reads and writes, and nothing outside changes', async () => {
    const ws = workspace();
    const before = snapshot(sentinel);
    const workspaceBefore = snapshot(dir);
    const hostile = [
      'notes.txt',
      './notes.txt',
      '../fs-sentinel/secret.txt',
      path.join(ws, '..', 'fs-sentinel', 'secret.txt'),
      `${ws}/fs-callbacks/../../fs-sentinel/secret.txt`,
      `${ws}/../${path.basename(ws)}/../fs-sentinel/secret.txt`,
      path.join(sentinel, 'secret.txt'),
      path.join(sentinel, 'brand-new.txt'),
      path.join(dir, 'out-link', 'secret.txt'),
      path.join(dir, 'out-link', 'sub', 'deep.txt'),
      path.join(dir, 'out-link', 'created.txt'),
      path.join(dir, 'out-link', 'new-dir', 'created.txt'),
      path.join(dir, 'out-file-link'),
      path.join(dir, 'dangling'),
      `${path.join(dir, 'ok.txt')}\0`,
      `${dir}/a\0/../../../fs-sentinel/secret.txt`,
      '~/.bashrc',
      '~',
      '~root/.bashrc',
      '\\\\server\\share\\secret.txt',
      '//server/share/secret.txt',
      `//${ws}/notes.txt`,
      `file://${path.join(sentinel, 'secret.txt')}`,
      `file://${path.join(ws, 'notes.txt')}`,
      vscode.Uri.file(path.join(ws, 'notes.txt')).toString(),
      '',
      `/${'a/'.repeat(3000)}x.txt`,
      path.join(dir, 'x'.repeat(300)),
    ];
    const controller = await useAgent('FS', 'fs-agent.js');
    const batch = hostile.flatMap((p): Array<{ read: string } | { write: string; content: string }> => [{ read: p }, { write: p, content: 'PWNED\n' }]);
    const results = await ask<CallResult[]>(controller, { batch });
    const wrong = results
      .map((r, i) => ({ call: batch[i], r }))
      .filter(({ r }) => r.ok || r.code !== -32602)
      .map(({ call, r }) => `${'read' in call ? `read ${call.read.slice(0, 120)}` : `write ${call.write.slice(0, 120)}`} → ${JSON.stringify(r)}`);
    assert.deepStrictEqual(wrong, [], 'every one is refused with -32602');
    assert.deepStrictEqual(snapshot(sentinel), before, 'nothing outside the workspace was created or changed');
    assert.deepStrictEqual(snapshot(dir), workspaceBefore, 'nor inside our folder');
    assert.ok(!fs.existsSync(path.join(sentinel, 'dangling-target.txt')), 'a dangling symlink did not create its target');
    assert.ok(
      vscode.workspace.textDocuments.every((d) => !d.uri.fsPath.startsWith(sentinel)),
      'no document outside the workspace was even opened',
    );
    // The refusals reach the log; a path inside still works after all that.
    assert.deepStrictEqual(await ask(controller, { write: path.join(dir, 'ok.txt'), content: 'fine\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(path.join(dir, 'ok.txt'), 'utf8'), 'fine\n');
  });
});
