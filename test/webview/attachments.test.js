// Prompt context in the panel: chips rendered from SessionView.attachments (with the notice when
// one was refused), remove posts detach, "@" and the buttons post mention / attachSelection, a
// pasted or dropped image posts attachImage (anything else attachRefused), a sent prompt lists
// its attachments, and hostile labels stay text.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');

const CHIPS = [
  { id: 'a1', kind: 'file', label: 'hello.ts', detail: 'src', problem: null },
  { id: 'a2', kind: 'folder', label: 'src/', detail: null, problem: null },
  { id: 'a3', kind: 'selection', label: 'hello.ts:3-5', detail: 'src/hello.ts', problem: null },
  { id: 'a4', kind: 'image', label: 'shot.png', detail: 'image/png, 8 B', problem: null },
];

// A 1×1 PNG.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('chips render from the session: icon per kind, label, detail on hover; remove posts detach; hidden when empty', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await page.locator('#attachments').isVisible(), false, 'hidden when empty');
    assert.equal(await page.locator('#attachment-notice').isVisible(), false);
    await h.render(page, { type: 'session', session: h.session({ attachments: CHIPS }) });
    const chips = page.locator('#attachments li[data-attachment-id]');
    assert.equal(await chips.count(), 4);
    const icons = await chips.evaluateAll((lis) => lis.map((li) => li.querySelector('.codicon').className));
    assert.deepEqual(icons.map((c) => c.match(/codicon-([a-z-]+)/)[1]), ['file', 'folder', 'selection', 'file-media']);
    assert.deepEqual(await chips.locator('.attachment-label').allTextContents(), ['hello.ts', 'src/', 'hello.ts:3-5', 'shot.png']);
    assert.equal(await chips.nth(0).getAttribute('title'), 'hello.ts\nsrc');
    const remove = chips.nth(2).locator('button.attachment-remove');
    assert.equal(await remove.getAttribute('aria-label'), 'Remove hello.ts:3-5');
    await remove.click();
    assert.deepEqual(await intents(page), [{ type: 'detach', id: 'a3' }]);
    await h.render(page, { type: 'session', session: h.session({ attachments: [] }) });
    assert.equal(await page.locator('#attachments').isVisible(), false);
  });
});

test('a refusal is said next to the chips; a chip the agent cannot take is flagged and holds the prompt back', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ attachmentNotice: 'shot.png was not attached: Demo agent does not accept images.' }) }));
    const notice = page.locator('#attachment-notice');
    assert.equal(await notice.isVisible(), true);
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.equal(await notice.textContent(), 'shot.png was not attached: Demo agent does not accept images.');

    const problem = 'Other agent does not accept images (its promptCapabilities have no image).';
    await h.render(page, { type: 'session', session: h.session({ attachments: [{ ...CHIPS[3], problem }] }) });
    assert.equal(await notice.textContent(), problem, 'the reason shows before sending');
    assert.equal(await page.locator('#attachments li.attachment-problem .codicon-warning').count(), 1);
    await page.locator('textarea#prompt').fill('look at this');
    await page.keyboard.press('Enter');
    await page.locator('#send').click();
    assert.deepEqual(await intents(page), [], 'not sent while the agent cannot take an attachment');
    assert.equal(await page.locator('textarea#prompt').inputValue(), 'look at this', 'the text stays');
    await h.render(page, { type: 'session', session: h.session({ attachments: [] }) });
    await page.locator('#send').click();
    assert.deepEqual(await intents(page), [{ type: 'prompt', text: 'look at this' }]);
  });
});

test('"@" at the start or after a space posts mention and is removed; inside a word it is text', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    const box = page.locator('textarea#prompt');
    await box.click();
    await page.keyboard.type('@');
    assert.deepEqual(await intents(page), [{ type: 'mention' }]);
    assert.equal(await box.inputValue(), '');
    await page.keyboard.type('explain @');
    assert.equal(await box.inputValue(), 'explain ');
    await page.keyboard.type('me@example.com');
    assert.equal(await box.inputValue(), 'explain me@example.com');
    assert.deepEqual(await intents(page), [{ type: 'mention' }, { type: 'mention' }]);
    await h.clearPosted(page);
    await page.locator('#mention').click();
    await page.locator('#attach-selection').click();
    assert.deepEqual(await intents(page), [{ type: 'mention' }, { type: 'attachSelection' }]);
    assert.equal(await page.locator('#mention').getAttribute('aria-label'), 'Attach files or folders (@)');
    assert.equal(await page.locator('#mention .codicon-mention').count(), 1);
  });
});

/** Dispatches a synthetic paste (or drop) on the prompt box with the given files. */
async function transfer(page, event, files) {
  return page.evaluate(({ event, files }) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = f.base64 ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new Uint8Array(f.size ?? 1);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    if (files.some((f) => f.text)) dt.setData('text/plain', files.find((f) => f.text).text);
    const box = document.getElementById('prompt');
    const e = event === 'paste'
      ? new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
      : new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    box.dispatchEvent(e);
    return e.defaultPrevented;
  }, { event, files });
}

async function untilPosted(page, count) {
  await page.waitForFunction((n) => window.__posted.filter((m) => m.type !== 'ready').length >= n, count, { timeout: 5000 });
}

test('pasting an image posts attachImage with its base64; other files and images over 5 MB are reported, not read', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await transfer(page, 'paste', [{ name: 'image.png', type: 'image/png', base64: PNG_BASE64 }]), true, 'an image-only paste inserts no text');
    await untilPosted(page, 1);
    assert.deepEqual(await intents(page), [{ type: 'attachImage', mimeType: 'image/png', data: PNG_BASE64, name: 'image.png' }]);
    await h.clearPosted(page);

    await transfer(page, 'paste', [{ name: 'notes.pdf', type: 'application/pdf', size: 10 }]);
    await transfer(page, 'paste', [{ name: 'huge.png', type: 'image/png', size: 5 * 1024 * 1024 + 1 }]);
    await transfer(page, 'paste', [{ name: 'vector.svg', type: 'image/svg+xml', size: 10 }]);
    await untilPosted(page, 3);
    assert.deepEqual(await intents(page), [
      { type: 'attachRefused', name: 'notes.pdf', reason: 'unsupportedType' },
      { type: 'attachRefused', name: 'huge.png', reason: 'tooLarge' },
      { type: 'attachRefused', name: 'vector.svg', reason: 'unsupportedType' },
    ]);
    await h.clearPosted(page);
    // Text pasted along with an image still goes into the box.
    assert.equal(await transfer(page, 'paste', [{ name: 'b.gif', type: 'image/gif', base64: 'R0lGODlhAQABAAAAACw=', text: 'caption' }]), false);
    await untilPosted(page, 1);
    assert.deepEqual(await intents(page), [{ type: 'attachImage', mimeType: 'image/gif', data: 'R0lGODlhAQABAAAAACw=', name: 'b.gif' }]);
  });
});

test('dropping image files posts attachImage for each', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await transfer(page, 'drop', [{ name: 'a.png', type: 'image/png', base64: PNG_BASE64 }, { name: 'b.webp', type: 'image/webp', base64: 'UklGRg==' }]), true);
    await untilPosted(page, 2);
    const list = await intents(page);
    assert.deepEqual(list.map((m) => `${m.type} ${m.name} ${m.mimeType}`).sort(), ['attachImage a.png image/png', 'attachImage b.webp image/webp']);
  });
});

test('a sent prompt lists its attachments under its text; a queued one shows how many it carries', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'explain', attachments: [{ kind: 'file', label: 'hello.ts' }, { kind: 'selection', label: 'hello.ts:3-5' }] }, { kind: 'user', text: 'plain' }], {
      status: h.status('prompting'),
      session: h.session({ queue: [{ id: 1, text: 'next', attachments: [{ kind: 'folder', label: 'src/' }] }] }),
    }));
    const user = page.locator('#transcript .entry-user').first();
    assert.equal(await user.locator('.text').textContent(), 'explain');
    assert.deepEqual(await user.locator('.user-attachments li').allTextContents(), ['hello.ts', 'hello.ts:3-5']);
    assert.equal(await user.locator('.user-attachments li[data-kind="selection"] .codicon-selection').count(), 1);
    assert.equal(await page.locator('#transcript .entry-user').nth(1).locator('.user-attachments').count(), 0);
    const queued = page.locator('#queue li[data-queue-id="1"] .queue-attachments');
    assert.equal(await queued.textContent(), '1');
    assert.equal(await queued.getAttribute('title'), 'Attached: src/');
  });
});

test('hostile attachment labels stay text (chips, notice, transcript)', async () => {
  await h.withPanel(env, {}, async (page) => {
    const evil = '<img src=x onerror="window.__xss=1">';
    await h.render(page, h.snapshot([{ kind: 'user', text: 'x', attachments: [{ kind: 'file', label: evil }] }], {
      session: h.session({ attachments: [{ id: '"><svg onload=window.__xss=1>', kind: 'file', label: evil, detail: evil, problem: null }], attachmentNotice: evil }),
    }));
    assert.equal(await page.locator('#attachments .attachment-label').textContent(), evil);
    assert.equal(await page.locator('#attachment-notice').textContent(), evil);
    assert.equal(await page.locator('.user-attachments li').textContent(), evil);
    assert.equal(await page.locator('#app img, #app svg').count(), 0);
    await page.locator('#attachments button.attachment-remove').click();
    assert.deepEqual(await intents(page), [{ type: 'detach', id: '"><svg onload=window.__xss=1>' }]);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await h.assertClean(page, assert);
  });
});
