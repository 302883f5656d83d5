// A workspace can only make things stricter, in the real extension host: limits written to the
// test folder's .vscode/settings.json (ConfigurationTarget.Workspace, as a cloned repository ships
// them) lower the user's but never raise them; a workspace's acpHost.defaultAgent never picks an
// agent the workspace defines; and a session's terminals are capped by acpHost.maxTerminalsPerSession.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { defaultAgent, setting } from '../../src/host/config/settings';
import { TerminalPort } from '../../src/host/terminals/terminalPort';

const config = () => vscode.workspace.getConfiguration('acpHost');
const { Global, Workspace } = vscode.ConfigurationTarget;
const KEYS = ['maxMessageMegabytes', 'terminalOutputLimitMegabytes', 'readTextFileLimitMegabytes', 'checkpoints.maxMegabytes', 'maxTerminalsPerSession', 'defaultAgent'];

suite('trust: limits by origin', function () {
  this.timeout(60000);

  teardown(async () => {
    for (const key of KEYS) {
      await config().update(key, undefined, Global);
      await config().update(key, undefined, Workspace);
    }
  });

  test('a workspace value above the user’s (or the default) is ignored; below it, it holds', async () => {
    await config().update('terminalOutputLimitMegabytes', 1000, Workspace);
    await config().update('readTextFileLimitMegabytes', 1000, Workspace);
    await config().update('checkpoints.maxMegabytes', 1000, Workspace);
    await config().update('maxMessageMegabytes', 64, Workspace);
    await config().update('maxMessageMegabytes', 8, Global);
    assert.strictEqual(config().get('terminalOutputLimitMegabytes'), 1000, 'VS Code itself hands over the workspace’s value');
    assert.strictEqual(setting('terminalOutputLimitMegabytes'), 1);
    assert.strictEqual(setting('readTextFileLimitMegabytes'), 10);
    assert.strictEqual(setting('checkpoints.maxMegabytes'), 50);
    assert.strictEqual(setting('maxMessageMegabytes'), 8);
    await config().update('maxMessageMegabytes', 4, Workspace);
    assert.strictEqual(setting('maxMessageMegabytes'), 4, 'lowering holds');
  });

  test('a workspace’s defaultAgent picks a preset, never a name the user does not run', async () => {
    await config().update('defaultAgent', 'Claude Agent', Global);
    await config().update('defaultAgent', 'Repo agent', Workspace);
    assert.strictEqual(defaultAgent((name) => name !== 'Repo agent'), 'Claude Agent');
    assert.strictEqual(setting('defaultAgent'), 'Claude Agent', 'the user’s own value');
    await config().update('defaultAgent', 'Demo agent', Workspace);
    assert.strictEqual(defaultAgent((name) => name !== 'Repo agent'), 'Demo agent');
  });

  test('a session holds at most acpHost.maxTerminalsPerSession terminals; a workspace cannot raise it', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await config().update('maxTerminalsPerSession', 2, Global);
    await config().update('maxTerminalsPerSession', 100, Workspace);
    const port = new TerminalPort({ baseEnv: () => ({ PATH: process.env.PATH ?? '' }), roots: () => [folder], onUpdate: () => undefined });
    try {
      const create = () => port.create({ sessionId: 's', command: process.execPath, args: ['-e', ''] });
      const first = await create();
      await create();
      await assert.rejects(create(), (error: { code?: number; message?: string }) => error.code === -32603 && /acpHost\.maxTerminalsPerSession allows \(2\)/.test(error.message ?? ''));
      await port.release({ sessionId: 's', terminalId: first.terminalId });
      await create();
    } finally {
      port.dispose();
    }
  });
});
