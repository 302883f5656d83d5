// The agent picker in the panel header: select#agent lists the agents the host offers, shows the
// one running, and choosing another posts chooseAgent (checked against ViewToHostSchema by
// h.withPanel). Run: npm run build && npm run compile && node --test test/webview/agentPicker.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');
const AGENTS = ['Demo agent', 'Claude Agent', 'Codex', 'Gemini CLI', 'My agent'];

test('agent picker: hidden without a list, shows the current agent, change posts chooseAgent', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    const picker = page.locator('header.bar select#agent');
    assert.equal(await picker.isVisible(), false, 'no agents listed: no picker');

    await h.render(page, { type: 'status', status: h.status('ready', { agents: AGENTS }) });
    assert.equal(await picker.isVisible(), true);
    assert.equal(await picker.getAttribute('aria-label'), 'Agent');
    assert.deepEqual(await picker.locator('option').evaluateAll((os) => os.map((o) => o.value)), AGENTS);
    assert.equal(await picker.inputValue(), 'Demo agent', 'the running agent is selected');

    await picker.selectOption('Gemini CLI');
    assert.deepEqual(await intents(page), [{ type: 'chooseAgent', name: 'Gemini CLI' }]);

    // The host switched: the new agent's status (starting, then crashed) keeps it selected.
    await h.render(page, { type: 'status', status: { agentName: 'Gemini CLI', phase: 'starting', agents: AGENTS } });
    assert.equal(await picker.inputValue(), 'Gemini CLI');
    assert.match(await page.locator('#status').textContent(), /Gemini CLI/);
    const detail = 'Could not start Gemini CLI: the command "gemini" was not found on PATH.\nTo install it: npm install -g @google/gemini-cli';
    await h.render(page, { type: 'status', status: { agentName: 'Gemini CLI', phase: 'crashed', detail, agents: AGENTS } });
    assert.equal(await picker.inputValue(), 'Gemini CLI');
    assert.equal(await page.locator('#detail').textContent(), detail);
  });
});

test('agent picker: a switch the host did not make snaps back; an unlisted running agent is still shown', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: h.status('ready', { agents: AGENTS }) }));
    const picker = page.locator('select#agent');
    await picker.selectOption('Codex');
    // The next status still names the demo agent (the host refused): the picker follows it.
    await h.render(page, { type: 'status', status: h.status('ready', { agents: AGENTS }) });
    assert.equal(await picker.inputValue(), 'Demo agent');

    await h.render(page, { type: 'status', status: { agentName: 'Removed agent', phase: 'ready', agents: AGENTS } });
    assert.deepEqual(await picker.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['Removed agent', ...AGENTS]);
    assert.equal(await picker.inputValue(), 'Removed agent');

    // Reachable from the keyboard: it is a native select in the header's tab order.
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    const posted = await intents(page);
    assert.deepEqual(posted.at(-1), { type: 'chooseAgent', name: 'Demo agent' });
  });
});
