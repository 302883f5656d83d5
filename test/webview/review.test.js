// The review list above the composer (files the agent changed: open the diff, keep, undo, or all
// at once) and the follow toggle in the header: what they show and what they post. Every post is
// checked against ViewToHostSchema (h.withPanel does that after each test).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');

const FILES = [
  { path: '/work/project/src/deep/app.ts', change: 'modified', added: 12, removed: 3 },
  { path: '/work/project/src/new.ts', change: 'created', added: 40, removed: 0 },
  { path: '/work/project/old.txt', change: 'deleted', added: 0, removed: 7 },
];

test('the review list is hidden when empty, and lists each file with its icon, name and folder, counts and actions', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }]));
    assert.equal(await page.locator('section.review').isVisible(), false, 'hidden without files');
    await h.render(page, { type: 'session', session: h.session({ review: FILES }) });
    assert.equal(await page.locator('section.review').isVisible(), true);
    assert.equal((await page.locator('.review-count').textContent()).trim(), '3 files changed');
    const rows = await page.locator('ul#review li[data-path]').evaluateAll((lis) =>
      lis.map((li) => ({
        path: li.dataset.path,
        icon: [...li.querySelector('.codicon').classList].find((c) => c.startsWith('codicon-')),
        label: li.querySelector('.codicon').getAttribute('aria-label'),
        tail: li.querySelector('.review-path').textContent,
        title: li.querySelector('.review-path').title,
        added: li.querySelector('.diff-added').textContent,
        removed: li.querySelector('.diff-removed').textContent,
        buttons: [...li.querySelectorAll('button')].map((b) => `${b.className.split(' ')[0]}:${b.getAttribute('aria-label')}:${[...b.querySelector('.codicon').classList].find((c) => c.startsWith('codicon-'))}`),
      })),
    );
    assert.deepEqual(rows, [
      { path: FILES[0].path, icon: 'codicon-diff-modified', label: 'modified', tail: 'app.ts src/deep', title: `${FILES[0].path} (modified)`, added: '+12', removed: '\u22123', buttons: ['review-open:Open diff:codicon-diff', 'review-keep:Keep:codicon-check', 'review-undo:Undo:codicon-discard'] },
      { path: FILES[1].path, icon: 'codicon-diff-added', label: 'created', tail: 'new.ts project/src', title: `${FILES[1].path} (created)`, added: '+40', removed: '\u22120', buttons: ['review-open:Open diff:codicon-diff', 'review-keep:Keep:codicon-check', 'review-undo:Undo:codicon-discard'] },
      { path: FILES[2].path, icon: 'codicon-diff-removed', label: 'deleted', tail: 'old.txt work/project', title: `${FILES[2].path} (deleted)`, added: '+0', removed: '\u22127', buttons: ['review-open:Open diff:codicon-diff', 'review-keep:Keep:codicon-check', 'review-undo:Undo:codicon-discard'] },
    ]);
    await h.render(page, { type: 'session', session: h.session({ review: FILES.slice(0, 1) }) });
    assert.equal((await page.locator('.review-count').textContent()).trim(), '1 file changed');
    await h.render(page, { type: 'session', session: h.session({ review: [] }) });
    assert.equal(await page.locator('section.review').isVisible(), false);
    assert.equal(await page.locator('ul#review li').count(), 0);
  });
});

test('a note says what the list cannot show; with only a note the section still shows, and Keep all clears it', async () => {
  await h.withPanel(env, {}, async (page) => {
    const note = '2 more changed files are not listed: the review keeps 32 million characters of earlier text, and that was used up. Keep all clears this.';
    await h.render(page, h.snapshot([], { session: h.session({ review: FILES.slice(0, 1), reviewNote: note }) }));
    assert.equal(await page.locator('.review-note').textContent(), note);
    assert.equal(await page.locator('.review-note').isVisible(), true);
    await h.render(page, { type: 'session', session: h.session({ review: [], reviewNote: note }) });
    assert.equal(await page.locator('section.review').isVisible(), true, 'shown for its note');
    await page.locator('button.review-keep-all').click();
    assert.deepEqual(await intents(page), [{ type: 'reviewKeep' }]);
    await h.render(page, { type: 'session', session: h.session({ review: FILES.slice(0, 1), reviewNote: null }) });
    assert.equal(await page.locator('.review-note').isVisible(), false);
  });
});

test('Open diff, Keep and Undo post with the file’s path; Keep all and Undo all post without one', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ review: FILES }) }));
    const row = (p) => page.locator(`ul#review li[data-path="${p}"]`);
    await row(FILES[1].path).locator('button.review-open').click();
    await row(FILES[0].path).locator('button.review-keep').click();
    await row(FILES[2].path).locator('button.review-undo').click();
    await page.locator('button.review-keep-all').click();
    await page.locator('button.review-undo-all').click();
    assert.equal((await page.locator('button.review-keep-all').textContent()).trim(), 'Keep all');
    assert.equal((await page.locator('button.review-undo-all').textContent()).trim(), 'Undo all');
    assert.deepEqual(await intents(page), [
      { type: 'reviewOpen', path: FILES[1].path },
      { type: 'reviewKeep', path: FILES[0].path },
      { type: 'reviewUndo', path: FILES[2].path },
      { type: 'reviewKeep' },
      { type: 'reviewUndo' },
    ]);
  });
});

test('the review sits above the prompt box, file names are text (never markup), and an unrelated update keeps focus', async () => {
  await h.withPanel(env, {}, async (page) => {
    const hostile = { path: '/w/<img src=x onerror="window.__xss=1">.ts', change: 'created', added: 1, removed: 0 };
    await h.render(page, h.snapshot([], { session: h.session({ review: [hostile, FILES[0]] }) }));
    assert.equal(await page.locator('ul#review img').count(), 0);
    assert.equal(await page.locator(`ul#review li >> nth=0`).getAttribute('data-path'), hostile.path);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    const above = await page.evaluate(() => document.querySelector('section.review').getBoundingClientRect().bottom <= document.querySelector('#prompt').getBoundingClientRect().top);
    assert.ok(above, 'the list is above the prompt box');

    await page.locator(`ul#review li[data-path="${FILES[0].path}"] button.review-undo`).focus();
    await h.render(page, { type: 'session', session: h.session({ review: [hostile, FILES[0]], usage: { used: 10, size: 100, cost: null } }) });
    assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.path + ' ' + document.activeElement?.className.split(' ')[0]), `${FILES[0].path} review-undo`);
    // The list changes (another file is kept): focus stays on the same button of the same file.
    await h.render(page, { type: 'session', session: h.session({ review: [FILES[0]] }) });
    assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.path + ' ' + document.activeElement?.className.split(' ')[0]), `${FILES[0].path} review-undo`);
  });
});

test('the follow toggle shows the session’s state (eye / eye-closed, aria-pressed) and posts the opposite', async () => {
  await h.withPanel(env, {}, async (page) => {
    const toggle = page.locator('header.bar button#follow');
    const state = async () => ({
      pressed: await toggle.getAttribute('aria-pressed'),
      icon: await toggle.locator('.codicon').evaluate((el) => [...el.classList].filter((c) => c.startsWith('codicon-')).join(' ')),
    });
    await h.render(page, h.snapshot([], { session: h.session({ follow: true }) }));
    assert.equal(await toggle.getAttribute('title'), 'Follow the agent in the editor');
    assert.equal(await toggle.getAttribute('aria-label'), 'Follow the agent in the editor');
    assert.deepEqual(await state(), { pressed: 'true', icon: 'codicon-eye' });
    await toggle.click();
    await h.render(page, { type: 'session', session: h.session({ follow: false }) });
    assert.deepEqual(await state(), { pressed: 'false', icon: 'codicon-eye-closed' });
    await toggle.click();
    await h.render(page, { type: 'session', session: h.session({ follow: true }) });
    assert.deepEqual(await state(), { pressed: 'true', icon: 'codicon-eye' });
    assert.deepEqual(await intents(page), [{ type: 'setFollow', enabled: false }, { type: 'setFollow', enabled: true }]);
  });
});
