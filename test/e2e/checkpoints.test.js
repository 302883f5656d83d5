// Checkpoints survive a window reload, in the real workbench (the built VSIX in code-server,
// headless Chromium): an agent (test/fixtures/agents/checkpoint-agent.js) creates a file through
// fs/write_text_file and changes another straight on disk; after the page reloads, the user's
// message still offers Restore checkpoint, VS Code's modal asks, and both files go back as they
// were before that message.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, findFrame, panelAfterReload, screenshot, until } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');

test('a checkpoint survives a window reload: Restore checkpoint puts back what the agent wrote through ACP and on disk', async () => {
  const agent = { name: 'Checkpoints', command: process.execPath, args: [path.join(FIXTURES, 'checkpoint-agent.js')] };
  const wb = await openWorkbench({ label: 'e2e-checkpoints', vsix: [VSIX], workspace: WORKSPACE, copyWorkspace: true, userSettings: { 'acpHost.agents': [agent], 'acpHost.defaultAgent': 'Checkpoints' } });
  const file = (rel) => path.join(wb.workspace, rel);
  const read = (rel) => (fs.existsSync(file(rel)) ? fs.readFileSync(file(rel), 'utf8') : null);
  try {
    const { page } = wb;
    fs.writeFileSync(file('kept.txt'), 'as the user left it\n');
    await page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(page, '#prompt', 60000);
    // The file watcher reports kept.txt before the turn: it is not the agent's change.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const ops = JSON.stringify([{ acp: 'created.txt', content: 'made by the agent\n' }, { disk: 'kept.txt', content: 'changed on disk\n' }]);
    await frame.locator('#prompt').fill(`ops:${ops}`);
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-agent', { hasText: 'heard:' }).waitFor({ timeout: 30000 });
    await until(() => read('created.txt') === 'made by the agent\n' && read('kept.txt') === 'changed on disk\n', 'the agent’s writes');
    // The review's late watcher events (2 s grace), and the workbench's deferred write of workspace state.
    await new Promise((resolve) => setTimeout(resolve, 3500));

    await page.reload();
    const reloaded = await panelAfterReload(page);
    const restore = reloaded.locator('.entry-user button.restore-checkpoint').first();
    await restore.waitFor({ timeout: 60000 });
    await until(() => restore.isEnabled(), 'Restore checkpoint enabled after the reload (its checkpoint read back)');
    await restore.click();

    // VS Code's modal names the files; Restore applies them.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30000 });
    const text = await dialog.innerText();
    assert.match(text, /created\.txt/);
    assert.match(text, /kept\.txt/);
    await screenshot(page, 'checkpoint-restore-after-reload');
    await dialog.locator('.dialog-buttons a.monaco-button', { hasText: 'Restore' }).click();

    await until(() => read('created.txt') === null && read('kept.txt') === 'as the user left it\n', 'the files as they were before the message');
  } finally {
    await wb.close();
  }
});
