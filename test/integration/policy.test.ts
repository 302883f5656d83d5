// ACP Host's policy in the real extension host: a hostile fake agent (fs-agent.js) writes each
// protected file of the workspace. Every write asks first on the transcript; Deny answers the
// agent with a clear error and writes nothing; Allow once writes; "Always in this workspace" is
// remembered in the workspace's state and can be revoked; a user rule denies without asking.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, useAgent, writeAnswering } from './helpers';

const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

/** The hostile set: what configures VS Code, git, the shell's environment and npm. */
const PROTECTED = ['.vscode/settings.json', '.vscode/tasks.json', '.git/hooks/pre-commit', 'evil.code-workspace', '.env'];



suite('policy', function () {
  this.timeout(90000);
  let dir: string;
  const rel = (p: string) => path.join(dir, p);

  suiteSetup(() => {
    dir = path.join(workspace(), 'policy-target');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  });
  suiteTeardown(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('acpHost').update('rules', undefined, vscode.ConfigurationTarget.Global);
  });

  test('each protected write asks; Deny refuses with a clear error and writes nothing', async () => {
    const controller = await useAgent('Hostile writer', 'fs-agent.js');
    let asked = 0;
    for (const target of PROTECTED) {
      const { result, card, last } = await writeAnswering(controller, rel(target), 'acp-host:deny');
      asked += card ? 1 : 0;
      assert.match(card?.policyNote ?? '', /ACP Host asks before Hostile writer may write .*: it is a protected path/, target);
      assert.deepStrictEqual(card?.permission?.map((o) => o.name), ['Allow once', 'Allow for this session', 'Always in this workspace', 'Deny']);
      assert.strictEqual(result.ok, false, target);
      assert.strictEqual(result.code, -32603);
      assert.match(result.message ?? '', /ACP Host's policy refused to write .*: the user denied it\. Nothing was done\./);
      assert.strictEqual(fs.existsSync(rel(target)), false, `${target} was not written`);
      assert.strictEqual(last?.status, 'failed');
    }
    assert.strictEqual(asked, PROTECTED.length);
  });

  test('Allow once writes; Always in this workspace is remembered, listed and revocable', async () => {
    const controller = await useAgent('Hostile writer', 'fs-agent.js');
    const once = await writeAnswering(controller, rel('.env'), 'acp-host:allow-once');
    assert.deepStrictEqual(once.result, { ok: true });
    assert.strictEqual(fs.readFileSync(rel('.env'), 'utf8'), 'agent was here\n');

    const always = await writeAnswering(controller, rel('.vscode/settings.json'), 'acp-host:allow-workspace');
    assert.deepStrictEqual(always.result, { ok: true });
    const host = (await api()).host;
    assert.deepStrictEqual(host.policy.workspace.all.map((r) => [r.request, r.path, r.decision]), [['write', 'policy-target/.vscode/settings.json', 'allow']]);
    const again = await writeAnswering(controller, rel('.vscode/settings.json'), undefined);
    assert.deepStrictEqual(again.result, { ok: true }, 'remembered: no question');

    await host.policy.workspace.remove(host.policy.workspace.all[0]);
    const revoked = await writeAnswering(controller, rel('.vscode/settings.json'), 'acp-host:deny');
    assert.ok(revoked.card, 'revoked: asked again');
    assert.strictEqual(revoked.result.ok, false);
  });

  test('a user rule denies without asking; a workspace cannot allow', async () => {
    await vscode.workspace.getConfiguration('acpHost').update('rules', [{ request: 'write', path: 'policy-target/generated/**', decision: 'deny' }], vscode.ConfigurationTarget.Global);
    const controller = await useAgent('Hostile writer', 'fs-agent.js');
    const denied = await writeAnswering(controller, rel('generated/out.js'), undefined);
    assert.strictEqual(denied.result.ok, false);
    assert.match(denied.result.message ?? '', /acpHost\.rules: deny/);
    assert.strictEqual(fs.existsSync(rel('generated/out.js')), false);
  });
});
