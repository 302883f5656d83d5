// Screenshots of the panel with a realistic transcript (the recorded demo session, stopped at its
// permission request, with a queued prompt) in the light, dark and high-contrast themes, saved to
// test-results/screenshots/webview-<theme>.png for a human to look at. The assertions check what a
// theme must get right without looking: text and buttons take the theme's colours.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const h = require('./harness');

const FIXTURE = require(path.join(h.REPO, 'test/fixtures/webview/demo-session.json'));

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

function stateAtPermission() {
  let state = null;
  for (const message of FIXTURE) {
    state = h.reduce(state, message);
    if (state.entries.some((e) => e.kind === 'tool' && e.permission)) return state;
  }
  throw new Error('the fixture has no permission request');
}

const rgb = (hex) => {
  const n = parseInt(hex.slice(1, 7), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('the panel in light, dark and high-contrast themes', async () => {
  const state = stateAtPermission();
  const final = FIXTURE.at(-1);
  const session = { ...final.session, queue: [{ id: 3, text: 'Now explain what the plan was for' }] };
  await h.withPanel(env, { viewport: { width: 400, height: 1000 } }, async (page) => {
    await h.render(page, h.snapshot(state.entries, { status: state.status, session }));
    await page.locator('#prompt').fill('/pl');
    await h.waitForFrame(page);
    await page.locator('#prompt').fill('Also add a test for ');
    await h.waitForFrame(page);
    for (const theme of ['light', 'dark', 'high-contrast']) {
      await h.setTheme(page, theme);
      const file = await h.screenshot(page, `webview-${theme}`);
      assert.ok(file);
      const vars = await page.evaluate(() => {
        const css = (el, p) => el && getComputedStyle(el)[p];
        const q = (s) => document.querySelector(s);
        return {
          text: css(q('#transcript .entry-agent .markdown p'), 'color'),
          fg: getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim(),
          editorFg: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-foreground').trim(),
          allow: css(q('#transcript button.option-allow_once'), 'backgroundColor'),
          button: getComputedStyle(document.documentElement).getPropertyValue('--vscode-button-background').trim(),
          overflowX: q('#app').scrollWidth > q('#app').clientWidth + 1 || document.documentElement.scrollWidth > window.innerWidth + 1,
        };
      });
      assert.ok([rgb(vars.fg), rgb(vars.editorFg)].includes(vars.text), `${theme}: text colour ${vars.text} comes from the theme (${vars.fg})`);
      assert.equal(vars.allow, rgb(vars.button), `${theme}: the Allow button takes --vscode-button-background`);
      assert.equal(vars.overflowX, false, `${theme}: nothing overflows the panel horizontally`);
    }
    // The finished turn with the command list open, for the dark theme.
    await h.render(page, final);
    await h.setTheme(page, 'dark');
    await page.locator('#prompt').fill('');
    await page.locator('#prompt').click();
    await page.keyboard.type('/');
    await page.keyboard.press('ArrowDown');
    await h.waitForFrame(page);
    await h.screenshot(page, 'webview-dark-commands');
    const narrow = { width: 260, height: 700 };
    await page.setViewportSize(narrow);
    await page.keyboard.press('Escape');
    await h.waitForFrame(page);
    await h.screenshot(page, 'webview-dark-narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'a narrow sidebar does not scroll sideways');
  });
});
