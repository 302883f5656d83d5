// Nothing left running, in the real extension host: the extension's own `deactivate` (the one
// VS Code calls when the window closes or reloads) ends an agent that ignores stdin EOF and
// SIGTERM, its child, and a client terminal's command tree that ignores SIGTERM, within 3 s.
// (test/e2e/panel.test.js reloads and closes a real window; this is the same at the level of
// the extension.)
import * as assert from 'assert';
import * as path from 'path';
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';
import { alive } from '../unit/helpers/processes';

interface Pids {
  host: number;
  agent: number;
  child: number;
  terminal: number;
  terminalChild: number;
}

suite('nothing left running', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.workspace.getConfiguration('acpHost').update('agents', undefined, vscode.ConfigurationTarget.Global);
  });

  test('deactivate ends an agent that ignores EOF and SIGTERM, its child, and its terminal, within 3 s', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-shutdown-'));
    const controller = await useAgent('Stubborn', 'outlives-window.js', { FAKE_PID_FILE: path.join(dir, 'pids.json') });
    let pids: number[] = [];
    try {
      await controller.prompt('leak');
      const reported = JSON.parse(find(controller, 'agent').at(-1)?.text ?? '{}') as Pids;
      assert.strictEqual(reported.host, process.pid, 'the agent is a child of this extension host');
      pids = [reported.agent, reported.child, reported.terminal, reported.terminalChild];
      assert.ok(pids.every((p) => Number.isSafeInteger(p) && p > 1 && alive(p)), JSON.stringify(reported));

      // The module VS Code loaded: its deactivate is the one a closing window runs.
      const extension = vscode.extensions.getExtension('acp-host.acp-host')!;
      const main = require(path.join(extension.extensionPath, extension.packageJSON.main as string)) as { deactivate(): Promise<{ ended: number; killed: number }> };
      const started = Date.now();
      const report = await main.deactivate();
      const took = Date.now() - started;
      assert.ok(took < 3000, `deactivate took ${took} ms`);
      assert.ok(report.killed >= 1, `the agent ignores EOF and SIGTERM: it was SIGKILLed (${JSON.stringify(report)})`);
      await until('every process of the agent and its terminal to be gone', () => (pids.every((p) => !alive(p)) ? true : undefined), 3000);
    } finally {
      for (const pid of pids) if (Number.isSafeInteger(pid) && pid > 1 && alive(pid)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
