// "Fork from here" in the panel: the button is on the user's messages only while the session view
// says the agent forks (`canFork`, from its UNSTABLE sessionCapabilities.fork), appears and goes
// with that flag, and posts {type: 'fork', index} by mouse and keyboard; a fork's header (p#fork)
// says what it is a fork of, and what its transcript does not show. Every post is checked
// against ViewToHostSchema by h.withPanel.
// Run: npm run build && npm run compile && node --test test/webview/fork.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const CONVERSATION = [
  { kind: 'user', text: 'one' },
  { kind: 'agent', text: 'first answer' },
  { kind: 'turnEnd', stopReason: 'end_turn' },
  { kind: 'user', text: 'two', attachments: [{ kind: 'file', label: 'a.ts' }] },
  { kind: 'agent', text: 'second answer' },
];
const FORK = `${h.ENTRIES} button.fork-from-here`;
/** The buttons shown: every user message has one, hidden while the agent does not fork. */
const SHOWN = `${FORK}:visible`;
const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready' && m.type !== 'rendered');

test('fork: the button is on the user\'s messages only while the agent forks, and posts the message\'s index', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(CONVERSATION, { session: h.session({ canFork: false }) }));
    assert.equal(await page.locator(SHOWN).count(), 0, 'not advertised: no button shown');
    await page.locator(`${h.entry(0)} button.fork-from-here`).focus();
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('fork-from-here')), false, 'a hidden button takes no focus');
    // The flag changing (as a session opens) renders no message again: it shows or hides the buttons.
    await page.locator(`${h.ENTRIES}.entry-user`).evaluateAll((messages) => messages.forEach((m) => { m.dataset.mark = 'before'; }));

    await h.render(page, { type: 'session', session: h.session({ canFork: true }) });
    assert.equal(await page.locator(SHOWN).count(), 2);
    assert.deepEqual(await page.locator(`${h.ENTRIES}.entry-user`).evaluateAll((messages) => messages.map((m) => m.dataset.mark)), ['before', 'before'], 'the same elements');
    assert.deepEqual(await page.locator(SHOWN).evaluateAll((buttons) => buttons.map((b) => b.closest('.entry').dataset.index)), ['0', '3']);
    const second = page.locator(`${h.entry(3)} button.fork-from-here`);
    assert.equal(await second.isVisible(), true);
    assert.equal((await second.textContent()).trim(), 'Fork from here');
    assert.equal(await page.locator(`${h.entry(1)} button.fork-from-here`).count(), 0, 'not on the agent\'s messages');
    assert.equal(await page.locator(FORK).count(), 2, 'on the user\'s messages only');

    await second.click();
    assert.deepEqual(await intents(page), [{ type: 'fork', index: 3 }]);
    await h.clearPosted(page);
    await page.locator(`${h.entry(0)} button.fork-from-here`).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'fork', index: 0 }]);

    // A message sent later has it too; the flag going (another agent, a restart) takes them all away.
    await h.render(page, { type: 'entry', index: 5, entry: { kind: 'user', text: 'three' } });
    assert.equal(await page.locator(`${h.entry(5)} button.fork-from-here:visible`).count(), 1);
    await h.render(page, { type: 'session', session: h.session({ canFork: false }) });
    assert.equal(await page.locator(SHOWN).count(), 0);
    assert.deepEqual(await page.locator(`${h.ENTRIES}.entry-user`).evaluateAll((messages) => messages.map((m) => m.dataset.mark)), ['before', 'before', undefined], 'the same elements (the later message has no mark)');
    await h.assertClean(page, assert);
  });
});

test('fork: the header says what the session is a fork of, and what its transcript does not show; agent text stays text', async () => {
  await h.withPanel(env, {}, async (page) => {
    const note = "The agent's copy of the conversation still includes the 1 later turn (ACP's session/fork copies the whole session): it may refer to them.";
    await h.render(page, h.snapshot(CONVERSATION.slice(0, 3), { session: h.session({ forkOf: { title: 'Fix <img src=x onerror=alert(1)> the parser', note } }) }));
    const header = page.locator('p#fork');
    assert.equal(await header.isVisible(), true);
    assert.equal(await header.textContent(), `Fork of “Fix <img src=x onerror=alert(1)> the parser”. ${note}`);
    assert.equal(await page.locator('p#fork img').count(), 0);

    await h.render(page, { type: 'session', session: h.session({ forkOf: { title: 'Exact fork', note: null } }) });
    assert.equal(await header.textContent(), 'Fork of “Exact fork”.');
    await h.render(page, { type: 'session', session: h.session() });
    assert.equal(await header.isVisible(), false, 'not a fork: nothing said');
    await h.assertClean(page, assert);
  });
});
