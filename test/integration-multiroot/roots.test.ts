// A multi-root workspace in the real extension host (test/fixtures/multi-root/roots.code-workspace:
// folders app and lib). test/fixtures/agents/roots-agent.js refuses (-32602) a session/new whose
// roots are said wrongly, and answers a JSON command per prompt (writes through fs/write_text_file,
// and what it received). An agent that advertises additionalDirectories gets the second folder and
// may write there, never beside both; one that does not advertise it gets no list and stays in its cwd.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ask, closeSessionsAndAgents, useAgent } from '../integration/helpers';

interface CallResult {
  ok: boolean;
  code?: number;
  message?: string;
}

const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

suite('multi-root workspace', function () {
  this.timeout(60000);

  teardown(closeSessionsAndAgents);

  test('the workspace has two folders', () => {
    assert.deepStrictEqual(folders().map((f) => path.basename(f)), ['app', 'lib']);
  });

  test('additionalDirectories: the second folder is sent, a write into it succeeds, one outside both is refused', async () => {
    const [app, lib] = folders();
    const controller = await useAgent('Roots', 'roots-agent.js', { FAKE_EXPECT_DIRS: JSON.stringify([lib]) });
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    const [created] = await ask<Record<string, unknown>[]>(controller, { received: 'session/new' });
    assert.strictEqual(created.cwd, app);
    assert.deepStrictEqual(created.additionalDirectories, [lib]);

    const inLib = path.join(lib, 'written-by-the-agent.txt');
    assert.deepStrictEqual(await ask<CallResult>(controller, { write: inLib, content: 'hello from the agent\n' }), { ok: true });
    assert.strictEqual(fs.readFileSync(inLib, 'utf8'), 'hello from the agent\n');

    const outside = path.join(path.dirname(app), 'outside-both.txt');
    const refused = await ask<CallResult>(controller, { write: outside, content: 'nope\n' });
    assert.strictEqual(refused.ok, false);
    assert.strictEqual(refused.code, -32602);
    assert.match(refused.message ?? '', /outside the workspace folders/);
    assert.ok(!fs.existsSync(outside), 'nothing was written beside the folders');
  });

  test('an agent that does not advertise additionalDirectories gets no list, and is confined to its cwd (the first folder)', async () => {
    const [app, lib] = folders();
    const controller = await useAgent('Single', 'roots-agent.js', { FAKE_ROOTS: '0' });
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    const [created] = await ask<Record<string, unknown>[]>(controller, { received: 'session/new' });
    assert.ok(!('additionalDirectories' in created));
    assert.deepStrictEqual(await ask<CallResult>(controller, { write: path.join(app, 'in-the-cwd.txt'), content: 'ok\n' }), { ok: true });
    const inLib = path.join(lib, 'not-for-this-agent.txt');
    const refused = await ask<CallResult>(controller, { write: inLib, content: 'nope\n' });
    assert.strictEqual(refused.code, -32602);
    assert.ok(!fs.existsSync(inLib));
  });
});
