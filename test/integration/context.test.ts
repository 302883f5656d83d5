// Prompt context in the real extension host, with the Demo agent (promptCapabilities:
// embeddedContext true, image false): a file picked in the @-mention QuickPick, the selection of
// an open editor (ACP: Add Selection to Prompt), and a pasted image, which the demo cannot take
// and which is refused with the reason before anything is sent. The demo's reply says what it
// received, so the embedded resources are checked end to end.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import { api, find, until, useAgent } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

/** Runs a prompt to its end, rejecting any edit the demo asks permission for. */
async function run(controller: AgentSession, text: string): Promise<void> {
  const turn = controller.prompt(text);
  let done = false;
  void turn.finally(() => (done = true));
  while (!done) {
    for (const t of find(controller, 'tool')) if (t.permission) controller.choosePermission(t.toolCallId, t.permission.find((o) => o.kind.startsWith('reject'))!.optionId);
    await new Promise((r) => setTimeout(r, 25));
  }
  await turn;
}

suite('prompt context (attachments)', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a mentioned file and an editor selection reach the demo as embedded resources; an image is refused before sending', async () => {
    const controller = await useAgent('Demo agent');
    const { host } = await api();
    const file = path.join(workspace(), 'src', 'hello.ts');
    const uri = vscode.Uri.file(file).toString();

    // @-mention: the host's QuickPick lists the workspace (folders too); accept hello.ts.
    const picking = host.handleIntent({ type: 'mention' });
    const picker = await until('the mention picker with its items', () => {
      const active = host.mentions.active;
      return active && !active.busy && active.items.length > 0 ? active : undefined;
    });
    assert.ok(picker.canSelectMany && picker.matchOnDescription);
    const labels = picker.items.map((i) => `${i.label} ${i.description}`);
    assert.ok(labels.includes('hello.ts src'), labels.join(', '));
    assert.ok(labels.includes('src '), 'folders are offered');
    picker.selectedItems = picker.items.filter((i) => i.label === 'hello.ts');
    // The extension host batches QuickPick updates: let the check reach the workbench before Enter.
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    assert.deepStrictEqual(controller.session.view.attachments.map((a) => `${a.kind} ${a.label}`), ['file hello.ts']);

    // The selection of an open editor (lines 2–3), through the command.
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(1, 0, 2, 1);
    await vscode.commands.executeCommand('acpHost.addSelection');
    assert.deepStrictEqual(controller.session.view.attachments.map((a) => a.label), ['hello.ts', 'hello.ts:2-3']);

    // An image: the demo has image:false, so it is refused now, with the reason by the chips.
    await host.handleIntent({ type: 'attachImage', mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png' });
    assert.strictEqual(controller.session.view.attachments.length, 2, 'the image was not added');
    assert.match(controller.session.view.attachmentNotice ?? '', /shot\.png was not attached: Demo agent does not accept images/);

    await run(controller, 'what did I attach?');
    assert.deepStrictEqual(controller.session.view.attachments, [], 'sent with the prompt');
    const user = find(controller, 'user').at(-1);
    assert.deepStrictEqual(user?.attachments, [{ kind: 'file', label: 'hello.ts' }, { kind: 'selection', label: 'hello.ts:2-3' }]);
    const reply = find(controller, 'agent').map((e) => e.text).join('\n');
    const text = (await vscode.workspace.openTextDocument(file)).getText();
    assert.ok(reply.includes(`You embedded \`${uri}\` (${text.length} characters)`), reply);
    assert.ok(reply.includes(`You embedded \`${uri}#L2-L3\``), reply);
    assert.doesNotMatch(reply, /I ignored blocks/);
  });

  test('a detached attachment is not sent; an empty selection attaches the cursor’s line', async () => {
    const controller = await useAgent('Demo agent');
    const { host } = await api();
    const file = path.join(workspace(), 'notes.txt');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(0, 2, 0, 2);
    await host.handleIntent({ type: 'attachSelection' });
    const [line] = controller.session.view.attachments;
    assert.strictEqual(line.label, 'notes.txt:1');
    await host.handleIntent({ type: 'detach', id: line.id });
    assert.deepStrictEqual(controller.session.view.attachments, []);
    await run(controller, 'nothing attached');
    const entries = controller.transcript.entries;
    const last = entries.findLastIndex((e) => e.kind === 'user');
    // No attachment labels (its checkpoint is the checkpoints' business).
    const { checkpoint: _checkpoint, ...message } = entries[last] as { checkpoint?: number };
    assert.deepStrictEqual(message, { kind: 'user', text: 'nothing attached' });
    const reply = entries.slice(last).map((e) => (e.kind === 'agent' ? e.text : '')).join('\n');
    assert.match(reply, /You wrote/);
    assert.doesNotMatch(reply, /You embedded|You attached/);
  });
});
