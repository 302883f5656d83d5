// Take it with you, keyboard first, polish (issue 16, items 7–9) in the real webview bundle:
// Copy on messages and code blocks and Open in editor on tool output post the right intents; a
// streamed answer keeps one Copy per code block; the host's focusPrompt puts the keyboard in the
// prompt box; Restart stands out only after a crash; tool titles are prose, commands monospace;
// the review list fits a 240 px side bar. Every post is checked against ViewToHostSchema by h.withPanel.
// Run: npm run build && npm run compile && node --test test/webview/export.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready' && m.type !== 'rendered');

const ANSWER = 'Run this:\n\n```sh\nnpm test -- --grep "<b>x</b>"\n```\n\nThen `this`.\n\n````md\n```\nnested\n```\n````';

test('Copy on a user and an agent message posts copyMessage with its index; Copy on a code block posts its raw code', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'hello <i>you</i>' }, { kind: 'agent', text: ANSWER }]));
    assert.equal(await page.locator(`${h.entry(0)} > button.copy-message`).count(), 1);
    assert.equal(await page.locator(`${h.entry(1)} > button.copy-message`).getAttribute('aria-label'), 'Copy message');
    await page.locator(`${h.entry(1)}`).hover();
    await page.locator(`${h.entry(1)} > button.copy-message`).click();
    await page.locator(`${h.entry(0)}`).hover();
    await page.locator(`${h.entry(0)} > button.copy-message`).click();
    const blocks = page.locator(`${h.entry(1)} .code-block`);
    assert.equal(await blocks.count(), 2, 'one Copy per code block, none on inline code');
    await blocks.nth(0).hover();
    await blocks.nth(0).locator('button.copy-code').click();
    await blocks.nth(1).hover();
    await blocks.nth(1).locator('button.copy-code').click();
    assert.deepEqual(await intents(page), [
      { type: 'copyMessage', index: 1 },
      { type: 'copyMessage', index: 0 },
      { type: 'copyText', text: 'npm test -- --grep "<b>x</b>"\n' },
      { type: 'copyText', text: '```\nnested\n```\n' },
    ]);
    // The button is ours, added after the sanitizer: agent text cannot make one, nor a script.
    assert.equal(await page.locator(`${h.entry(1)} b, ${h.entry(1)} script`).count(), 0);
  });
});

test('a streamed answer keeps exactly one Copy per code block as it grows, and the message its one Copy', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'agent', text: 'Start\n\n```js\nconst a' }]));
    for (const chunk of [' = 1;\n', '```\n\nmore text\n\n```py\n', 'print(1)\n```\n']) await h.render(page, { type: 'append', index: 0, text: chunk });
    assert.equal(await page.locator(`${h.entry(0)} .code-block`).count(), 2);
    assert.equal(await page.locator(`${h.entry(0)} button.copy-code`).count(), 2);
    assert.equal(await page.locator(`${h.entry(0)} button.copy-message`).count(), 1);
    await page.locator(`${h.entry(0)} .code-block`).nth(0).hover();
    await page.locator(`${h.entry(0)} .code-block`).nth(0).locator('button.copy-code').click();
    assert.deepEqual(await intents(page), [{ type: 'copyText', text: 'const a = 1;\n' }]);
  });
});

test('Open in editor on a tool’s text and terminal output posts openToolOutput with the entry and content index', async () => {
  const tool = {
    kind: 'tool', toolCallId: 't1', title: 'Read the log', toolKind: 'read', status: 'completed', locations: [],
    content: [
      { type: 'diff', path: '/w/a.ts', isNewFile: false, added: 1, removed: 0, preview: ['+a'], previewTruncated: false },
      { type: 'text', text: 'line\n'.repeat(100) },
      { type: 'terminal', terminalId: 'term-1', output: 'done\n', truncated: false, exitStatus: { exitCode: 0, signal: null } },
    ],
  };
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }, tool]));
    assert.equal(await page.locator(`${h.entry(1)} [data-content-index="0"] button.open-output`).count(), 0, 'a diff has Open diff instead');
    await page.locator(`${h.entry(1)} .tool-text`).hover();
    await page.locator(`${h.entry(1)} [data-content-index="1"] button.open-output`).click();
    await page.locator(`${h.entry(1)} [data-content-index="2"] button.open-output`).click();
    assert.deepEqual(await intents(page), [
      { type: 'openToolOutput', index: 1, contentIndex: 1 },
      { type: 'openToolOutput', index: 1, contentIndex: 2 },
    ]);
  });
});

test('focusPrompt from the host puts the keyboard in the prompt box; a message that is not one moves nothing', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'agent', text: 'hi' }]));
    await page.locator(`${h.entry(0)} button.copy-message`).focus();
    await h.sendRaw(page, { type: 'focusprompt' }, { type: ['focusPrompt'] });
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'copy-message icon-button');
    await h.sendRaw(page, { type: 'focusPrompt' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'prompt');
  });
});

const rgb = (hex) => {
  const n = parseInt(hex.slice(1, 7), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('Restart is a quiet secondary button while the agent runs, and the primary one after a crash', async () => {
  await h.withPanel(env, {}, async (page) => {
    const themeColour = async (name) => rgb(await page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name));
    const background = () => page.locator('#restart').evaluate((b) => getComputedStyle(b).backgroundColor);
    await h.render(page, h.snapshot([], { status: h.status('ready') }));
    assert.equal(await page.locator('#restart').isVisible(), true);
    assert.equal(await background(), await themeColour('--vscode-button-secondaryBackground'), 'ready: secondary');
    await h.render(page, { type: 'status', status: h.status('crashed', { detail: 'exit 1' }) });
    assert.equal(await background(), await themeColour('--vscode-button-background'), 'crashed: primary');
    await h.render(page, { type: 'status', status: h.status('auth') });
    assert.equal(await background(), await themeColour('--vscode-button-secondaryBackground'), 'sign-in: secondary again');
  });
});

test('tool titles are prose; an execute call’s title (its command) stays monospace', async () => {
  const tool = (id, toolKind, title) => ({ kind: 'tool', toolCallId: id, title, toolKind, status: 'completed', locations: [], content: [] });
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([tool('a', 'read', 'Read config.ts'), tool('b', 'execute', 'npm test')]));
    const fonts = await page.locator(`${h.ENTRIES} .tool-title`).evaluateAll((els) => els.map((el) => getComputedStyle(el).fontFamily));
    const mono = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mono').trim());
    const body = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    assert.equal(fonts[0], body, 'a read call’s title is in the panel’s font');
    assert.notEqual(fonts[0], fonts[1]);
    assert.ok(mono.includes(fonts[1].split(',')[0].replace(/"/g, '').trim()) || fonts[1].includes('monospace'), `the command is monospace (${fonts[1]})`);
  });
});

test('the review list fits a 240 px side bar: nothing overflows, long names ellipsize, the folder is secondary, every button stays on screen', async () => {
  const files = [
    { path: '/work/project/src/some/very/deeply/nested/folder/with-a-really-long-component-file-name.tsx', change: 'modified', added: 1234, removed: 567 },
    { path: '/work/project/README.md', change: 'created', added: 40, removed: 0 },
    { path: '/work/project/a-file-name-without-any-break-at-all-xxxxxxxxxxxxxxxxxxxxxxxx.txt', change: 'deleted', added: 0, removed: 7 },
  ];
  await h.withPanel(env, { viewport: { width: 240, height: 600 } }, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }], { session: h.session({ review: files }) }));
    const layout = await page.evaluate(() => {
      const review = document.querySelector('section.review');
      const rows = [...review.querySelectorAll('li[data-path]')].map((li) => ({
        fits: li.scrollWidth <= li.clientWidth,
        name: li.querySelector('.review-name').textContent,
        folder: li.querySelector('.review-folder').textContent,
        nameClipped: li.querySelector('.review-name').scrollWidth > li.querySelector('.review-name').clientWidth,
        buttonsInside: [...li.querySelectorAll('button')].every((b) => b.getBoundingClientRect().right <= li.getBoundingClientRect().right + 0.5),
      }));
      const head = review.querySelector('.review-head');
      return {
        review: review.scrollWidth <= review.clientWidth,
        head: [...head.querySelectorAll('button')].every((b) => b.getBoundingClientRect().right <= head.getBoundingClientRect().right + 0.5),
        page: document.documentElement.scrollWidth <= window.innerWidth,
        rows,
      };
    });
    assert.equal(layout.review, true, 'the review section does not scroll sideways');
    assert.equal(layout.page, true, 'the panel does not scroll sideways');
    assert.equal(layout.head, true, 'Keep all and Undo all wrap inside it');
    for (const row of layout.rows) {
      assert.equal(row.fits, true, `${row.name} fits its row`);
      assert.equal(row.buttonsInside, true, `${row.name}: Open diff, Keep and Undo stay in view`);
    }
    assert.deepEqual(layout.rows.map((r) => [r.name, r.folder]), [
      ['with-a-really-long-component-file-name.tsx', 'nested/folder'],
      ['README.md', 'work/project'],
      ['a-file-name-without-any-break-at-all-xxxxxxxxxxxxxxxxxxxxxxxx.txt', 'work/project'],
    ]);
    assert.equal(layout.rows[0].nameClipped, true, 'a long name is ellipsized, not wrapped or overflowing');
    await h.screenshot(page, 'review-240px');
  });
});

test('the page says when it gains and loses the keyboard (acpHost.panelFocused, for the keybindings that act in the panel)', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    await h.clearPosted(page);
    await page.evaluate(() => {
      window.dispatchEvent(new FocusEvent('focus'));
      window.dispatchEvent(new FocusEvent('blur'));
    });
    const focus = (await h.posted(page)).filter((m) => m.type === 'panelFocus');
    assert.deepEqual(focus, [{ type: 'panelFocus', focused: true }, { type: 'panelFocus', focused: false }]);
  });
});
