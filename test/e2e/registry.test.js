// ACP: Browse Agents… as a user meets it in the real workbench: the registry (served from
// 127.0.0.1 by this test) lists an agent with its version and license in a QuickPick; a click
// installs its binary (a .tar.gz built here, checked against its sha256); the panel's agent picker
// then offers it, and choosing it starts it and it answers. Screenshots: test-results/screenshots/registry-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const tar = require('tar');
const { openWorkbench, findFrame, runCommand, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');
const PLATFORM = { 'linux-x64': 'linux-x86_64', 'linux-arm64': 'linux-aarch64', 'darwin-x64': 'darwin-x86_64', 'darwin-arm64': 'darwin-aarch64' }[`${process.platform}-${process.arch}`];

async function agentArchive() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-registry-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.writeFileSync(path.join(dir, 'bin', 'agent'), `#!/bin/sh\nexec '${process.execPath}' '${path.join(FIXTURES, 'registry-agent.js')}' --version 1.0.0 -- "$@"\n`);
  const file = path.join(dir, 'agent.tar.gz');
  await tar.c({ gzip: true, file, cwd: dir, portable: true }, ['bin']);
  return fs.readFileSync(file);
}

test('Browse Agents… lists the registry, installs a binary agent, and the panel runs it', async () => {
  assert.ok(PLATFORM, `a registry platform key for ${process.platform}-${process.arch}`);
  const data = await agentArchive();
  const routes = new Map([['/agent.tar.gz', data]]);
  const server = http.createServer((req, res) => {
    const body = routes.get(req.url);
    res.writeHead(body ? 200 : 404, { 'content-length': body ? body.length : 0 }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const args = ['--acp'];
  const index = {
    version: '1.0.0',
    agents: [{
      id: 'fake-registry', name: 'Fake Registry Agent', version: '1.0.0', description: 'A scripted agent', authors: ['Tests'], license: 'MIT',
      distribution: { binary: { [PLATFORM]: { archive: `${base}/agent.tar.gz`, cmd: './bin/agent', args, env: { REGISTRY_AGENT_ENV: 'from-the-index', REGISTRY_AGENT_EXPECT_ARGS: JSON.stringify(args) }, sha256: createHash('sha256').update(data).digest('hex') } } },
    }],
    extensions: [],
  };
  routes.set('/registry.json', Buffer.from(JSON.stringify(index)));
  const wb = await openWorkbench({
    label: 'e2e-registry',
    vsix: [VSIX],
    workspace: WORKSPACE,
    copyWorkspace: true,
    // Machine-scoped: in code-server (a remote window) it is read from the machine's settings.
    machineSettings: { 'acpHost.registryUrl': `${base}/registry.json` },
    userSettings: { 'workbench.colorTheme': 'Default Dark Modern' },
  });
  try {
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(wb.page, '#prompt', 60000);

    await runCommand(wb.page, 'ACP: Browse Agents…');
    const row = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Fake Registry Agent' });
    await row.waitFor({ timeout: 30000 });
    assert.match(await row.textContent(), /v1\.0\.0 · MIT/);
    assert.match(await row.textContent(), /A scripted agent — by Tests — downloads its binary/);
    assert.match(await wb.page.locator('.quick-input-widget .quick-input-title').textContent(), /^ACP Registry$/);
    await screenshot(wb.page, 'registry-list');
    await row.click();

    // Installed: the panel's agent picker offers it.
    const option = frame.locator('select#agent option', { hasText: 'Fake Registry Agent' });
    await option.waitFor({ state: 'attached', timeout: 60000 });
    await screenshot(wb.page, 'registry-installed');
    await frame.locator('select#agent').selectOption('Fake Registry Agent');
    // Ready: it was launched as the index says (registry-agent.js exits before initialize otherwise).
    await frame.locator('#status', { hasText: 'Fake Registry Agent: ready' }).waitFor({ timeout: 60000 });
    await frame.locator('#prompt').fill('version?');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-agent', { hasText: 'registry-agent 1.0.0' }).waitFor({ timeout: 60000 });
    await screenshot(wb.page, 'registry-running');
  } finally {
    await wb.close();
    server.close();
  }
});
