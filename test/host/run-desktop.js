#!/usr/bin/env node
// The same integration suite on desktop VS Code (Electron), for machines with internet:
// @vscode/test-electron downloads VS Code, the built VSIX is installed into a throwaway
// extensions dir, and the empty harness is the development extension (as in run-integration.js).
// Offline machines use run-integration.js (code-server) instead; this file is `npm run test:desktop`.
'use strict';
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { downloadAndUnzipVSCode, resolveCliArgsFromVSCodeExecutablePath, runTests } = require('@vscode/test-electron');

const REPO = path.resolve(__dirname, '../..');

async function main() {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-host-desktop-'));
  const extensionsDir = path.join(state, 'extensions');
  const userDataDir = path.join(state, 'user-data');
  const workspace = path.join(state, 'workspace');
  fs.cpSync(path.join(REPO, 'test/fixtures/workspace'), workspace, { recursive: true });
  const resultsFile = path.join(state, 'results.json');

  const vscodeExecutablePath = await downloadAndUnzipVSCode('stable');
  const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(vscodeExecutablePath);
  cp.execFileSync(cli, [...cliArgs, '--extensions-dir', extensionsDir, '--install-extension', path.join(REPO, 'acp-host.vsix'), '--force'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });

  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: path.join(REPO, 'test/host/harness'),
    extensionTestsPath: path.join(REPO, 'out/test/integration/index.js'),
    launchArgs: [workspace, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--disable-workspace-trust'],
    extensionTestsEnv: {
      ACP_TEST_RESULTS_FILE: resultsFile,
      ACP_TEST_FROM_VSIX: '1',
      ACP_TEST_EXTENSIONS_DIR: extensionsDir,
      ACP_TEST_WORKSPACE: workspace,
    },
  });
  // As with code-server, a crashed extension host can look like success: the results file decides.
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  if (!(results.stats.tests > 0 && results.failures === 0)) throw new Error(`suite did not pass: ${JSON.stringify(results.stats)}`);
  console.log(`${results.stats.passes} passed, ${results.failures} failed`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
