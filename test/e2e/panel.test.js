// The product as a user meets it: the built VSIX installed in a real VS Code (code-server) in
// headless Chromium, the Agent panel opened from the activity bar, a prompt typed into the real
// webview, and assertions on its DOM. Screenshots land in test-results/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { openWorkbench, findFrame, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');

async function openPanel(userSettings) {
  const wb = await openWorkbench({ label: 'e2e', vsix: [VSIX], workspace: WORKSPACE, copyWorkspace: true, userSettings });
  try {
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(wb.page, '#prompt', 60000);
    return { wb, frame };
  } catch (error) {
    await wb.close({ keep: true });
    throw error;
  }
}

test('a turn with the demo agent streams into the panel, asks permission inline, and ends with its stop reason', async () => {
  const { wb, frame } = await openPanel({});
  try {
    await frame.locator('#prompt').fill('hello from playwright');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-user').first().waitFor({ timeout: 30000 });
    const allow = frame.locator('.entry-tool button[data-option-kind="allow_once"]');
    await allow.waitFor({ timeout: 30000 });
    await screenshot(wb.page, 'panel-permission');
    await allow.click();
    await frame.locator('.entry-turnEnd[data-stop-reason="end_turn"]').waitFor({ timeout: 30000 });
    assert.equal(await frame.locator('.entry-user .text').first().textContent(), 'hello from playwright');
    assert.match(await frame.locator('.entry-agent').allTextContents().then((t) => t.join('\n')), /hello from playwright/);
    assert.equal(await frame.locator('.entry-plan').count(), 1);
    assert.equal(await frame.locator('.entry-turnEnd').textContent(), 'Turn ended.');
    assert.equal(await frame.locator('.entry-tool button[data-option-id]').count(), 0, 'the chooser is gone once answered');
    assert.match(await frame.locator('#status').textContent(), /Demo agent: ready/);
    await screenshot(wb.page, 'panel-turn');
  } finally {
    await wb.close();
  }
});

test('Stop cancels a running turn and the panel shows it cancelled', async () => {
  const slow = {
    name: 'Slow agent',
    command: process.execPath,
    args: [path.join(FIXTURES, 'well-behaved.js')],
    env: { FAKE_CHUNKS: '1000', FAKE_CHUNK_DELAY_MS: '20' },
  };
  const { wb, frame } = await openPanel({ 'acpHost.agents': [slow], 'acpHost.defaultAgent': 'Slow agent' });
  try {
    await frame.locator('#prompt').fill('please talk for a while');
    await frame.locator('#send').click();
    await frame.locator('.entry-agent').first().waitFor({ timeout: 30000 });
    await frame.locator('#stop').click();
    await frame.locator('.entry-turnEnd[data-stop-reason="cancelled"]').waitFor({ timeout: 15000 });
    assert.equal(await frame.locator('.entry-turnEnd').textContent(), 'Turn cancelled.');
    assert.equal(await frame.locator('#stop').isHidden(), true);
    await screenshot(wb.page, 'panel-cancelled');
  } finally {
    await wb.close();
  }
});
