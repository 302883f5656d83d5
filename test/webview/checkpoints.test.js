// "Restore checkpoint" and "Edit" in the panel: both on the user's messages that have a checkpoint
// (none on a message replayed from the agent's history), disabled and saying why once the session
// view's `oldestCheckpoint` has passed it; Restore posts {type: 'restoreCheckpoint', index}; Edit
// puts the message's text in the prompt box, and Send then posts {type: 'editPrompt', index, text}
// instead of a prompt (Escape stops editing). Every post is checked against ViewToHostSchema by h.withPanel.
// Run: npm run build && npm run compile && node --test test/webview/checkpoints.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const CONVERSATION = [
  { kind: 'user', text: 'replayed, no checkpoint' },
  { kind: 'agent', text: 'old answer' },
  { kind: 'user', text: 'one', checkpoint: 3 },
  { kind: 'agent', text: 'first answer' },
  { kind: 'user', text: 'two <b>bold</b>', checkpoint: 4 },
];
const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready' && m.type !== 'rendered');

test('checkpoints: Restore and Edit on messages with a checkpoint; Restore posts the index; a dropped checkpoint disables both', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(CONVERSATION, { session: h.session({ oldestCheckpoint: 3 }) }));
    const restore = page.locator(`${h.ENTRIES} button.restore-checkpoint`);
    assert.deepEqual(await restore.evaluateAll((buttons) => buttons.map((b) => b.closest('.entry').dataset.index)), ['2', '4']);
    assert.equal(await page.locator(`${h.entry(0)} button:is(.restore-checkpoint, .edit-prompt)`).count(), 0, 'a replayed message has no checkpoint');
    assert.equal((await restore.nth(0).textContent()).trim(), 'Restore checkpoint');

    await restore.nth(1).click();
    assert.deepEqual(await intents(page), [{ type: 'restoreCheckpoint', index: 4 }]);

    await h.render(page, { type: 'session', session: h.session({ oldestCheckpoint: 4 }) });
    assert.equal(await page.locator(`${h.entry(2)} button.restore-checkpoint`).isDisabled(), true);
    assert.equal(await page.locator(`${h.entry(2)} button.edit-prompt`).isDisabled(), true);
    assert.match(await page.locator(`${h.entry(2)} button.restore-checkpoint`).getAttribute('title'), /no longer available/);
    assert.equal(await page.locator(`${h.entry(4)} button.restore-checkpoint`).isDisabled(), false);
    await h.assertClean(page, assert);
  });
});

test('checkpoints: Edit puts the message in the prompt box, and Send posts editPrompt with the edited text; Escape stops editing', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(CONVERSATION, { session: h.session({ oldestCheckpoint: 3 }) }));
    await page.locator(`${h.entry(4)} button.edit-prompt`).click();
    const box = page.locator('#prompt');
    assert.equal(await box.inputValue(), 'two <b>bold</b>', 'the text as typed, never markup');
    await box.fill('two, edited');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'editPrompt', index: 4, text: 'two, edited' }]);

    await h.clearPosted(page);
    await page.locator(`${h.entry(2)} button.edit-prompt`).click();
    await box.focus();
    await page.keyboard.press('Escape');
    await box.fill('a new prompt');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'prompt', text: 'a new prompt' }]);
    await h.assertClean(page, assert);
  });
});

/**
 * An eviction (the oldest checkpoint kept moves on, at every prompt once the workspace's
 * checkpoints are at their budget) re-renders the messages of the checkpoints it drops, not every
 * message: each message's Restore button is marked, and a re-rendered message has a new one.
 */
test('checkpoints: moving the oldest kept re-renders only the messages whose checkpoint changed state', async () => {
  await h.withPanel(env, {}, async (page) => {
    const conversation = Array.from({ length: 40 }, (_, i) => [{ kind: 'user', text: `prompt ${i}`, checkpoint: i + 1 }, { kind: 'agent', text: `answer ${i}` }]).flat();
    await h.render(page, h.snapshot(conversation, { session: h.session({ oldestCheckpoint: 1 }) }));
    const restore = page.locator(`${h.ENTRIES} button.restore-checkpoint`);
    const mark = () => restore.evaluateAll((buttons) => buttons.forEach((b) => { b.dataset.mark = ''; }));
    /** The checkpoints of the messages re-rendered since `mark`, and of those disabled now. */
    const seen = async () => restore.evaluateAll((buttons) => {
      const checkpoint = (b) => Number(b.closest('.entry').querySelector('.text, .markdown')?.textContent.match(/prompt (\d+)/)[1]) + 1;
      return { rendered: buttons.filter((b) => b.dataset.mark === undefined).map(checkpoint), disabled: buttons.filter((b) => b.disabled).map(checkpoint) };
    });
    const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);

    await mark();
    await h.render(page, { type: 'session', session: h.session({ oldestCheckpoint: 3 }) });
    assert.deepEqual(await seen(), { rendered: [1, 2], disabled: [1, 2] });

    await mark();
    await h.render(page, { type: 'session', session: h.session({ oldestCheckpoint: null }) });
    assert.deepEqual(await seen(), { rendered: range(3, 41), disabled: range(1, 41) }, 'no checkpoint kept: every message that had one changes');

    await mark();
    await h.render(page, { type: 'session', session: h.session({ oldestCheckpoint: 10 }) });
    assert.deepEqual(await seen(), { rendered: range(10, 41), disabled: range(1, 10) });

    // The message of checkpoint 12 is replaced by one with checkpoint 11 (its text says 10): dropping 10 and 11 finds it.
    await h.render(page, { type: 'entry', index: 22, entry: { kind: 'user', text: 'prompt 10 again', checkpoint: 11 } });
    await mark();
    await h.render(page, { type: 'session', session: h.session({ oldestCheckpoint: 12 }) });
    assert.deepEqual(await seen(), { rendered: [10, 11, 11], disabled: [...range(1, 12), 11] });
    await h.assertClean(page, assert);
  });
});
