// A real turn inside the real extension host: the installed extension, its bundled demo agent,
// and scripted fake agents from test/fixtures/agents configured through the user's settings.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';

suite('agent turns in the real extension host', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
  });

  test('the bundled demo agent runs a whole turn: plan, streamed text, a file read, a permission', async () => {
    const controller = await useAgent('Demo agent');
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    const turn = controller.prompt('hello from the integration test');
    const tool = await until('a permission request', () => find(controller, 'tool').find((t) => t.permission));
    const allow = tool.permission!.find((o) => o.kind === 'allow_once');
    assert.ok(allow, 'the demo offers allow_once');
    controller.choosePermission(tool.toolCallId, allow.optionId);
    await turn;

    const ends = find(controller, 'turnEnd');
    assert.deepStrictEqual(ends.map((e) => e.stopReason), ['end_turn']);
    assert.ok(find(controller, 'plan').length === 1, 'one plan entry, replaced in place');
    const text = find(controller, 'agent').map((e) => e.text).join('\n');
    assert.match(text, /hello from the integration test/);
    const read = find(controller, 'tool').find((t) => t.toolKind === 'read');
    assert.ok(read, 'a read tool call');
    assert.strictEqual(read.status, 'completed');
    const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.ok(read.locations.some((l) => l.path.startsWith(workspace)), JSON.stringify(read.locations));
    // The demo read that file through our fs/read_text_file and quotes its first line.
    assert.match(text, /# /);
  });

  test('an agent that crashes during initialize shows its exit code and the end of its stderr', async () => {
    const controller = await useAgent('Crasher', 'crash-on-initialize.js');
    assert.strictEqual(controller.currentStatus.phase, 'crashed');
    assert.match(controller.currentStatus.detail ?? '', /exited with code 3/);
    assert.match(controller.currentStatus.detail ?? '', /fatal/);
    const errors = find(controller, 'error');
    assert.ok(errors.some((e) => /code 3/.test(e.message)), 'the crash is in the transcript too');
  });

  test('cancel sends session/cancel and the turn ends cancelled', async () => {
    const controller = await useAgent('Slow', 'well-behaved.js', { FAKE_CHUNKS: '400', FAKE_CHUNK_DELAY_MS: '25' });
    const turn = controller.prompt('a long answer please');
    await until('the first chunk', () => (find(controller, 'agent').length > 0 ? true : undefined));
    await controller.cancel();
    await turn;
    assert.deepStrictEqual(find(controller, 'turnEnd').map((e) => e.stopReason), ['cancelled']);
    assert.strictEqual(controller.currentStatus.phase, 'ready');
  });
});
