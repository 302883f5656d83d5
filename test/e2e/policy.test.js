// ACP Host's own say, as a user meets it in the real workbench: an agent (fs-agent.js) writes the
// workspace's .vscode/settings.json; the ask card stops it in the panel; Deny, chosen with the
// keyboard, answers the agent with an error and writes nothing; ACP: Show Audit Log shows the
// question and the answer. Screenshots: test-results/screenshots/policy-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, findFrame, runCommand, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');

test('a write to .vscode/settings.json asks on a card; Deny by keyboard writes nothing; the audit log shows it', async () => {
  const writer = { name: 'Writer', command: process.execPath, args: [path.join(FIXTURES, 'fs-agent.js')] };
  const wb = await openWorkbench({
    label: 'e2e-policy',
    vsix: [VSIX],
    workspace: WORKSPACE,
    copyWorkspace: true,
    userSettings: { 'acpHost.agents': [writer], 'acpHost.defaultAgent': 'Writer', 'workbench.colorTheme': 'Default Dark Modern' },
  });
  try {
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(wb.page, '#prompt', 60000);
    const target = path.join(wb.workspace, '.vscode', 'settings.json');
    await frame.locator('#prompt').fill(JSON.stringify({ write: target, content: '{ "terminal.integrated.shell.linux": "/tmp/evil" }\n' }));
    await frame.locator('#prompt').press('Enter');

    const note = frame.locator('.entry-tool .policy-note');
    await note.waitFor({ timeout: 60000 });
    assert.match(await note.textContent(), /ACP Host asks before Writer may write .*settings\.json: it is a protected path \(\*\*\/\.vscode\/\*\*\)/);
    const options = frame.locator('.entry-tool .permission button.option');
    assert.deepEqual((await options.allTextContents()).map((t) => t.trim()), ['Allow once', 'Allow for this session', 'Always in this workspace', 'Deny']);
    await screenshot(wb.page, 'policy-ask');

    // Keyboard: focus the first option, End moves to Deny, Enter chooses it.
    await options.first().focus();
    await options.first().press('End');
    await frame.locator('.entry-tool button.option[data-option-id="acp-host:deny"]:focus').waitFor({ timeout: 10000 });
    await frame.locator('.entry-tool button.option[data-option-id="acp-host:deny"]').press('Enter');
    const answer = frame.locator('.entry-agent', { hasText: 'refused' });
    await answer.waitFor({ timeout: 30000 });
    assert.match(await answer.textContent(), /ACP Host's policy refused to write .*settings\.json: the user denied it\. Nothing was done\./);
    assert.equal(fs.existsSync(target), false, 'nothing was written');
    assert.match(await frame.locator('.entry-tool .policy-note').textContent(), /"Deny"/);

    await runCommand(wb.page, 'ACP: Show Audit Log');
    const editor = wb.page.locator('.editor-instance .view-lines');
    await editor.filter({ hasText: /by\s+user/ }).waitFor({ timeout: 30000 });
    const text = await editor.textContent();
    assert.match(text, /asked\s+write\s+\S*settings\.json/);
    assert.match(text, /denied\s+write\s+\S*settings\.json\s+by\s+user/);
    await screenshot(wb.page, 'policy-audit-log');
  } finally {
    await wb.close();
  }
});
