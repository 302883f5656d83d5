// Review comments in the real workbench (the built VSIX in code-server, headless Chromium): after
// an agent edits a file, the review diff's right side offers commenting (VS Code draws the
// commenting range in the gutter), a comment written in VS Code's own comment widget and added
// with our button becomes a chip in the panel, the thread says it waits for the next prompt, and
// the next prompt takes it to the agent.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { openWorkbench, findFrame, screenshot, until } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');

test('the review diff offers commenting in its gutter; a comment added in VS Code’s widget is a chip in the panel and goes with the next prompt', async () => {
  const agent = {
    name: 'Comment agent',
    command: process.execPath,
    args: [path.join(FIXTURES, 'comment-agent.js')],
    env: { FAKE_AGENT_CAPABILITIES: JSON.stringify({ promptCapabilities: { embeddedContext: true } }) },
  };
  const wb = await openWorkbench({ label: 'e2e-comments', vsix: [VSIX], workspace: WORKSPACE, copyWorkspace: true, userSettings: { 'acpHost.agents': [agent], 'acpHost.defaultAgent': 'Comment agent' } });
  try {
    const { page } = wb;
    await page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(page, '#prompt', 60000);
    await frame.locator('#prompt').fill('edit');
    await frame.locator('#prompt').press('Enter');
    const row = frame.locator('ul#review li[data-path$="notes.txt"]');
    await row.waitFor({ timeout: 30000 });
    await row.locator('button.review-open').click();

    // The diff's right side (the real notes.txt): VS Code draws our commenting range in its gutter.
    const modified = page.locator('.monaco-diff-editor .editor.modified');
    await modified.waitFor({ timeout: 30000 });
    const glyphs = modified.locator('.comment-range-glyph');
    await glyphs.first().waitFor({ state: 'attached', timeout: 30000 });
    assert.ok((await glyphs.count()) >= 2, 'every line of the file can be commented');

    // The "+" on the second line opens VS Code's comment widget with our prompt and button.
    const line = modified.locator('.view-line').nth(1);
    await line.hover();
    const plus = modified.locator('.comment-range-glyph.line-hover, .comment-diff-added').first();
    await plus.click({ timeout: 15000 });
    const widget = page.locator('.review-widget').first();
    await widget.waitFor({ timeout: 15000 });
    // The widget's input is a Monaco editor: typed into, as a user does.
    await widget.locator('.comment-form .monaco-editor').first().click();
    await page.keyboard.type('Say why, not what');
    await widget.getByRole('button', { name: 'Add Comment for the Agent' }).click({ timeout: 15000 });

    const chip = frame.locator('#attachments li[data-kind="comment"] .attachment-label');
    await chip.waitFor({ timeout: 15000 });
    assert.match(await chip.textContent(), /^notes\.txt:\d+ “Say why, not what”$/);
    // The widget shows the added comment, labelled, once VS Code re-renders it (after the chip, at times).
    await widget.getByText(/Goes with your next prompt/).first().waitFor({ timeout: 15000 });
    await screenshot(page, 'review-comment');

    // The Comments panel (VS Code opens it with the first thread) lists it in the unresolved state's colour.
    const listed = page.locator('.comments-panel .monaco-list-row[aria-label^="You: Say why, not what"]');
    await listed.waitFor({ timeout: 15000 });
    const stateColour = () => listed.locator('.comment-metadata .icon').evaluate((icon) => getComputedStyle(icon).color);
    const pending = await stateColour();

    // Sent with the next prompt (the agent echoes the blocks it got): the chip goes, the thread says so.
    await frame.locator('#prompt').fill('please address my comment');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-agent', { hasText: 'Review comment on notes.txt:' }).waitFor({ timeout: 30000 });
    await frame.locator('#attachments').waitFor({ state: 'hidden', timeout: 15000 });
    // Collapsed in the editor; still listed in the Comments panel, in the resolved state's colour.
    await page.locator('.review-widget', { hasText: 'Goes with your next prompt' }).waitFor({ state: 'hidden', timeout: 15000 });
    await until(async () => (await stateColour()) !== pending, 'the thread’s state colour to change', 15000);
    assert.equal(await listed.count(), 1, 'the sent thread stays, to be dismissed');
    await screenshot(page, 'review-comment-sent');
  } catch (error) {
    await screenshot(wb.page, 'review-comment-failed').catch(() => {});
    throw error;
  } finally {
    await wb.close();
  }
});
