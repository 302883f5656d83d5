// Keyboard first and take it with you (issue 16, items 7 and 8) as a user meets them: the built
// VSIX in a real VS Code (code-server) in headless Chromium, real key presses going through VS
// Code's keybinding service (package.json's contributes.keybindings and their `when` clauses),
// and the panel's "…" menu. The agent is test/fixtures/agents/export-agent.js, which checks the
// permission answers it gets (its `__problems__` prompt lists what was wrong: the test expects []).
// Run: npm run package && node --test test/e2e/keyboard.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { openWorkbench, findFrame, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const AGENT = { name: 'Exporter', command: process.execPath, args: [path.join(REPO, 'test/fixtures/agents/export-agent.js')] };

test('keybindings focus the prompt, accept and reject a permission, stop a turn; the panel menu exports the conversation', async () => {
  const wb = await openWorkbench({ label: 'e2e-keys', vsix: [VSIX], workspace: WORKSPACE, copyWorkspace: true, userSettings: { 'acpHost.agents': [AGENT], 'acpHost.defaultAgent': 'Exporter' } });
  const page = wb.page;
  try {
    await page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    await findFrame(page, '#prompt', 60000);

    // The Explorer takes the side bar (the panel's page goes: it is not retained), then Ctrl+K A
    // shows the panel again with its prompt box holding the keyboard.
    await page.keyboard.press('Control+Shift+E');
    await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+K');
    await page.keyboard.press('A');
    const frame = await findFrame(page, '#prompt', 30000);
    const prompt = frame.locator('#prompt');
    // Each prompt starts a turn of its own: the agent's last words can be on screen before the
    // turn's end is, and a prompt sent then waits in the queue behind a turn that Escape would stop.
    const send = async (text) => {
      await frame.locator('#stop').waitFor({ state: 'hidden', timeout: 30000 });
      await prompt.fill(text);
      await prompt.press('Enter');
    };
    await frame.waitForFunction(() => document.hasFocus() && document.activeElement?.id === 'prompt', null, { timeout: 15000 });
    await page.keyboard.type('ask');
    await page.keyboard.press('Enter');

    // A permission waits: Ctrl+K Y allows once (not the "always" the agent lists first).
    await frame.locator('.entry-tool button[data-option-kind="allow_once"]').waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Y');
    await frame.locator('.entry-agent', { hasText: 'chose once' }).waitFor({ timeout: 30000 });

    // Ctrl+K N rejects once.
    await send('ask');
    await frame.locator('.entry-tool button[data-option-kind="reject_once"]').waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+K');
    await page.keyboard.press('N');
    await frame.locator('.entry-agent', { hasText: 'chose no' }).waitFor({ timeout: 30000 });

    // Escape in the panel stops a running turn.
    await send('slow');
    await frame.locator('#stop').waitFor({ state: 'visible', timeout: 30000 });
    await prompt.focus();
    await page.keyboard.press('Escape');
    await frame.locator('.entry-turnEnd[data-stop-reason="cancelled"]').waitFor({ timeout: 30000 });

    await send('__problems__');
    await frame.locator('.entry-agent', { hasText: '[]' }).waitFor({ timeout: 30000 });
    assert.equal((await frame.locator('.entry-agent').last().locator('.markdown').textContent()).trim(), '[]', 'the agent found nothing wrong in what it was sent');

    // Ctrl+L opens a new session; Ctrl+PageUp goes back to the first.
    await prompt.focus();
    await page.keyboard.press('Control+L');
    await frame.waitForFunction(() => document.querySelectorAll('#session option').length === 2 && document.querySelectorAll('.entry').length === 0, null, { timeout: 30000 });
    await prompt.focus();
    await page.keyboard.press('Control+PageUp');
    await frame.locator('.entry-agent', { hasText: '[]' }).waitFor({ timeout: 30000 });
    assert.equal(await frame.locator('#session').evaluate((s) => s.selectedIndex), 0);

    // The panel's "…" menu: Export Conversation as Markdown… opens an untitled Markdown editor.
    // The side bar shows the one view without its own header: its actions are in the bar's title.
    await page.locator('.part.sidebar .composite.title').hover();
    await page.locator('.part.sidebar .composite.title .action-label[aria-label*="More Actions"]').first().click({ timeout: 30000 });
    await page.locator('.monaco-menu .action-label', { hasText: 'Export Conversation as Markdown…' }).click({ timeout: 30000 });
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).waitFor({ timeout: 30000 });
    await page.locator('.monaco-editor .view-lines', { hasText: '## You' }).first().waitFor({ timeout: 30000 });
    await screenshot(page, 'export-markdown');
  } finally {
    await wb.close();
  }
});
