// The path policy end to end in the real extension host (issue 32, items 1–3): a hostile fake
// agent (fs-agent.js) writes through a symlink `src/notes.txt → ../.git/config` that a user rule
// allowing `src/**` would let through if it judged the link alone, and through a dangling link.
// The card names the real target, Deny writes nothing, the write that is allowed lands where the
// policy looked, a path that cannot be resolved is refused, and the audit log keeps both paths.
// (Folder order, `.git` listed first, is driven through the gate with roots passed directly in
// test/unit/pathForms.test.ts: the test host opens one folder.)
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, find, useAgent, writeAnswering } from './helpers';



suite('trust: paths', function () {
  this.timeout(90000);
  let dir: string;
  const rel = (p: string) => path.join(dir, p);

  suiteSetup(() => {
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'trust-paths');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(rel('.git'), { recursive: true });
    fs.mkdirSync(rel('src'), { recursive: true });
    fs.writeFileSync(rel('.git/config'), '[core]\n');
    fs.symlinkSync(path.join('..', '.git', 'config'), rel('src/notes.txt'));
    fs.symlinkSync(rel('nowhere'), rel('src/dangling.txt'));
  });
  suiteTeardown(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('acpHost').update('rules', undefined, vscode.ConfigurationTarget.Global);
  });

  test('an allow for src/** does not open a symlink into .git: the card names the target, Deny writes nothing, an ordinary edit goes through', async () => {
    await vscode.workspace.getConfiguration('acpHost').update('rules', [{ request: 'write', path: 'trust-paths/src/**', decision: 'allow' }], vscode.ConfigurationTarget.Global);
    const controller = await useAgent('Hostile writer', 'fs-agent.js');
    const { result, card } = await writeAnswering(controller, rel('src/notes.txt'), 'acp-host:deny');
    assert.match(card?.policyNote ?? '', /may write trust-paths\/src\/notes\.txt → trust-paths\/\.git\/config: it is a protected path \(\*\*\/\.git\/\*\*\)/);
    assert.strictEqual(result.ok, false);
    assert.strictEqual(fs.readFileSync(rel('.git/config'), 'utf8'), '[core]\n', 'the target is untouched');

    const ordinary = await writeAnswering(controller, rel('src/a.ts'), undefined);
    assert.deepStrictEqual(ordinary.result, { ok: true });
    assert.strictEqual(fs.readFileSync(rel('src/a.ts'), 'utf8'), 'agent was here\n');

    const allowed = await writeAnswering(controller, rel('src/notes.txt'), 'acp-host:allow-once');
    assert.deepStrictEqual(allowed.result, { ok: true });
    assert.strictEqual(fs.readFileSync(rel('.git/config'), 'utf8'), 'agent was here\n', 'written where the policy looked');
    assert.ok(fs.lstatSync(rel('src/notes.txt')).isSymbolicLink(), 'the link is still a link');

    const events = (await (await api()).host.audit.events()).filter((e) => e.kind === 'write' && e.target === rel('src/notes.txt'));
    assert.ok(events.length >= 3 && events.every((e) => e.resolved === fs.realpathSync(rel('.git/config'))), JSON.stringify(events));
  });

  test('a path that cannot be resolved (a dangling link) is refused with -32602, unasked and unwritten', async () => {
    const controller = await useAgent('Hostile writer', 'fs-agent.js');
    const { result } = await writeAnswering(controller, rel('src/dangling.txt'), undefined);
    assert.strictEqual(result.ok, false);
    assert.strictEqual(result.code, -32602);
    assert.match(result.message ?? '', /symlink whose target does not exist/);
    assert.strictEqual(fs.existsSync(rel('nowhere')), false);
    assert.strictEqual(find(controller, 'tool').filter((t) => t.permission).length, 0);
  });
});
