// A URL-mode elicitation (elicitation/create, mode "url") in the panel: the card says which agent
// asks, shows the host prominently and the full address as text, warns about punycode hosts,
// plain http and credentials, and posts only which card and which answer (the host holds the
// URL). Nothing opens, navigates or loads by itself; a javascript: URL never reaches the DOM.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');

const card = (over = {}) => ({
  kind: 'urlElicitation', requestKey: 'elicitation-1', agentName: 'Fake', message: 'Sign in to continue', toolCallId: null,
  url: 'https://github.com/login/device?code=ABCD', host: 'github.com', warnings: [], state: 'pending', ...over,
});
const CARD = '#transcript .entry-urlElicitation';

test('the card: who asks, why, the host prominently, the full address as text; Open, Decline and Cancel', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'deploy' }, card()], { status: h.status('prompting') }));
    const entry = page.locator(CARD);
    assert.equal(await entry.getAttribute('data-state'), 'pending');
    assert.equal(await entry.getAttribute('role'), 'group');
    assert.match(await entry.getAttribute('aria-label'), /Fake asks you to open a page on github\.com/);
    assert.match(await entry.locator('.elicitation-head').innerText(), /Fake asks you to open a web page/);
    assert.match(await entry.innerText(), /Sign in to continue/);
    assert.equal(await entry.locator('.url-host').innerText(), 'github.com');
    assert.equal(await entry.locator('.url-full').innerText(), 'https://github.com/login/device?code=ABCD');
    assert.equal(await entry.locator('a, [href]').count(), 0, 'the address is not a link');
    assert.equal(await entry.locator('.url-warnings').count(), 0);
    assert.deepEqual((await entry.locator('.form-actions button').allInnerTexts()).map((t) => t.trim()), ['Open github.com', 'Decline', 'Cancel']);
    await h.assertClean(page, assert);
  });
});

test('nothing is opened or posted until a click; Open, Decline and Cancel post only the card and the answer', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([card(), card({ requestKey: 'elicitation-2' }), card({ requestKey: 'elicitation-3' })], { status: h.status('prompting') }));
    await h.waitForFrame(page, 5);
    assert.deepEqual(await intents(page), [], 'no answer, no openLink before the user clicks');
    const cards = page.locator(CARD);
    await cards.nth(0).getByRole('button', { name: 'Open github.com' }).click();
    await cards.nth(1).getByRole('button', { name: 'Decline' }).click();
    await cards.nth(2).getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await intents(page), [
      { type: 'elicitation', requestKey: 'elicitation-1', action: 'accept' },
      { type: 'elicitation', requestKey: 'elicitation-2', action: 'decline' },
      { type: 'elicitation', requestKey: 'elicitation-3', action: 'cancel' },
    ]);
    const log = page.__log;
    assert.deepEqual([log.popups, log.navigations, log.externalRequests], [[], [], []], 'the panel itself opened and loaded nothing');
    await h.assertClean(page, assert);
  });
});

test('waiting for the host after Open (Open again at hand), then Completed; declined, cancelled and ended cards offer nothing', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([card({ state: 'waiting' })], { status: h.status('prompting') }));
    const entry = page.locator(CARD);
    assert.match(await entry.locator('.badge').innerText(), /Waiting for github\.com…/);
    await entry.getByRole('button', { name: 'Open again' }).click();
    assert.deepEqual(await intents(page), [{ type: 'elicitation', requestKey: 'elicitation-1', action: 'accept' }]);
    for (const [state, words] of [['completed', 'Completed'], ['declined', 'Declined'], ['cancelled', 'Cancelled'], ['ended', 'Ended']]) {
      await h.render(page, { type: 'entry', index: 0, entry: card({ state }) });
      assert.equal(await entry.getAttribute('data-state'), state);
      assert.equal((await entry.locator('.badge').innerText()).trim(), words);
      assert.equal(await entry.locator('button').count(), 0, state);
    }
    await h.assertClean(page, assert);
  });
});

test('warnings: a punycode host, plain http, credentials in the address', async () => {
  await h.withPanel(env, {}, async (page) => {
    const risky = card({ url: 'http://user:pw@xn--80ak6aa92e.com/login', host: 'xn--80ak6aa92e.com', warnings: ['punycode', 'notHttps', 'credentials'] });
    await h.render(page, h.snapshot([risky, card({ requestKey: 'elicitation-2' })], { status: h.status('prompting') }));
    const [first, second] = [page.locator(CARD).nth(0), page.locator(CARD).nth(1)];
    assert.equal(await first.locator('.url-host').innerText(), 'xn--80ak6aa92e.com');
    const warnings = await first.locator('.url-warnings li').allInnerTexts();
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /punycode, xn--.*look-alike letters/);
    assert.match(warnings[1], /Not https/);
    assert.match(warnings[2], /user name or password/);
    assert.equal(await second.locator('.url-warnings').count(), 0, 'a plain https URL has none');
    await h.assertClean(page, assert);
  });
});

test('hostile text stays text; a javascript: URL is refused by the panel’s schema and never rendered', async () => {
  const evil = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([card({ agentName: evil, message: evil, host: evil, url: `https://example.com/${encodeURIComponent(evil)}`, requestKey: '"><img src=x onerror=window.__xss=1>' })], { status: h.status('prompting') }));
    const entry = page.locator(CARD);
    assert.equal(await entry.locator('img, script').count(), 0);
    assert.ok((await entry.innerText()).includes('<img src=x'));

    // A host that (wrongly) posted one: the message fails validation as a whole and nothing changes.
    for (const url of ['javascript:alert(1)', 'JavaScript:window.__xss=1//https://x', 'data:text/html,<script>window.__xss=1</script>', ' https://x.example/ leading space']) {
      const message = h.snapshot([card({ url })], { status: h.status('prompting') });
      assert.equal(h.protocol().HostToViewSchema.safeParse(message).success, false, url);
      await h.sendRaw(page, message);
      await h.waitForFrame(page);
      assert.equal(await entry.count(), 1, 'the earlier card is still shown');
      assert.equal(await page.locator(`${CARD} .url-full`).innerText(), `https://example.com/${encodeURIComponent(evil)}`);
    }
    await entry.getByRole('button', { name: /^Open / }).click();
    const [sent] = await intents(page);
    assert.deepEqual(sent, { type: 'elicitation', requestKey: '"><img src=x onerror=window.__xss=1>', action: 'accept' });
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await h.assertClean(page, assert, { allowConsoleErrors: true });
  });
});

test('a note (signed out) is quiet text, not an error', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'note', message: 'Signed out of Fake. New sessions ask you to sign in again.' }]));
    const note = page.locator('#transcript .entry-note');
    assert.equal(await note.innerText(), 'Signed out of Fake. New sessions ask you to sign in again.');
    assert.equal(await note.getAttribute('role'), null, 'not an alert');
    await h.assertClean(page, assert);
  });
});
