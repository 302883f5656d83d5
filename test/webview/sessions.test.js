// The session switcher in the panel header: select#session lists the open sessions (across
// agents), shows the one the host says is shown, and the buttons beside it post newSession,
// closeSession and sessionHistory. Every post is checked against ViewToHostSchema by h.withPanel.
// Run: npm run build && npm run compile && node --test test/webview/sessions.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');
const options = (select) => select.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));

const SESSIONS = [
  { key: 's1', label: 'Fix tests', agentName: 'Demo agent', phase: 'ready' },
  { key: 's2', label: 'Refactor parser', agentName: 'Codex', phase: 'prompting' },
  { key: 's3', label: 'Write docs', agentName: 'Demo agent', phase: 'crashed' },
];
const withSessions = (sessionKey, sessions = SESSIONS, phase = 'ready') => h.status(phase, { sessions, sessionKey });

test('sessions: options across agents, background phases marked, the shown one selected', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: withSessions('s1') }));
    const select = page.locator('header.bar select#session');
    assert.equal(await select.isVisible(), true);
    assert.equal(await select.getAttribute('aria-label'), 'Session');
    assert.deepEqual(await options(select), [
      ['s1', 'Fix tests — Demo agent'],
      ['s2', 'Refactor parser — Codex (working…)'],
      ['s3', 'Write docs — Demo agent (stopped)'],
    ]);
    assert.equal(await select.inputValue(), 's1');
    assert.equal(await select.getAttribute('title'), 'Fix tests — Demo agent', 'the tooltip has the whole label');

    // One agent only: its name would say nothing. The shown session's phase is in #status, not in its option.
    const oneAgent = SESSIONS.filter((s) => s.agentName === 'Demo agent');
    await h.render(page, { type: 'status', status: withSessions('s3', oneAgent, 'crashed') });
    assert.deepEqual(await options(select), [['s1', 'Fix tests'], ['s3', 'Write docs']]);
    assert.equal(await select.inputValue(), 's3');

    // A single session keeps the switcher (it names the session); an empty label gets a name.
    await h.render(page, { type: 'status', status: withSessions('s1', [{ ...SESSIONS[0], label: '' }]) });
    assert.equal(await select.isVisible(), true);
    assert.deepEqual(await options(select), [['s1', 'Untitled session']]);
  });
});

test('sessions: changing the select posts switchSession; an unconfirmed switch snaps back', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: withSessions('s1') }));
    const select = page.locator('select#session');
    await select.selectOption('s3');
    assert.deepEqual(await intents(page), [{ type: 'switchSession', key: 's3' }]);

    // The host did not switch: the next status still shows s1, and so does the select.
    await h.render(page, { type: 'status', status: withSessions('s1', SESSIONS, 'prompting') });
    assert.equal(await select.inputValue(), 's1');

    // The host switched (say from its own command): the select follows, and the marker moves from
    // the session now shown to the one now in the background.
    await h.render(page, { type: 'status', status: withSessions('s2', [{ ...SESSIONS[0], phase: 'prompting' }, ...SESSIONS.slice(1)]) });
    assert.equal(await select.inputValue(), 's2');
    assert.deepEqual((await options(select)).map(([, text]) => text),
      ['Fix tests — Demo agent (working…)', 'Refactor parser — Codex', 'Write docs — Demo agent (stopped)']);

    // From the keyboard: a native select in the header's tab order.
    await h.clearPosted(page);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await intents(page), [{ type: 'switchSession', key: 's3' }]);
  });
});

test('sessions: new, close and history buttons post their intents, by mouse and by keyboard', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: withSessions('s2') }));
    const buttons = [
      ['button#new-session', 'New session', 'add', { type: 'newSession' }],
      ['button#close-session', 'Close session', 'close', { type: 'closeSession', key: 's2' }],
      ['button#history', 'Session history', 'history', { type: 'sessionHistory' }],
    ];
    for (const [sel, label, codicon, intent] of buttons) {
      const button = page.locator(`header.bar ${sel}`);
      assert.equal(await button.getAttribute('title'), label);
      assert.equal(await button.getAttribute('aria-label'), label);
      assert.equal(await button.locator(`.codicon-${codicon}`).count(), 1, `${sel} shows codicon ${codicon}`);
      for (const press of [() => button.click(), () => button.focus().then(() => page.keyboard.press('Enter')),
        () => button.focus().then(() => page.keyboard.press('Space'))]) {
        await h.clearPosted(page);
        await press();
        assert.deepEqual(await intents(page), [intent], sel);
      }
    }
  });
});

test('sessions: without a list from the host the switcher and close are hidden, new and history stay', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: withSessions('s1') }));
    await h.render(page, { type: 'status', status: h.status('ready') });
    assert.equal(await page.locator('select#session').isVisible(), false);
    assert.equal(await page.locator('button#close-session').isVisible(), false);
    assert.equal(await page.locator('button#new-session').isVisible(), true);
    assert.equal(await page.locator('button#history').isVisible(), true);
    assert.equal(await page.locator('select#session option').count(), 0, 'no stale options left behind');
  });
});

test('sessions: options are not rebuilt for a phase or label change, only when sessions open or close', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: withSessions('s1') }));
    await page.evaluate(() => { window.__options = [...document.querySelectorAll('select#session option')]; });
    const sameNodes = () => page.evaluate(() => {
      const now = [...document.querySelectorAll('select#session option')];
      return now.length === window.__options.length && now.every((o, i) => o === window.__options[i]);
    });

    // The shown session starts a turn: nothing in the list changes.
    await h.render(page, { type: 'status', status: withSessions('s1', [{ ...SESSIONS[0], phase: 'prompting' }, ...SESSIONS.slice(1)], 'prompting') });
    assert.equal(await sameNodes(), true, 'the shown session’s phase');
    // A background session is renamed and changes phase: patched in place.
    await h.render(page, { type: 'status', status: withSessions('s1', [SESSIONS[0], { ...SESSIONS[1], label: 'Parser v2', phase: 'auth' }, SESSIONS[2]]) });
    assert.equal(await sameNodes(), true, 'a background session’s label and phase');
    assert.equal(await page.locator('select#session option[value="s2"]').textContent(), 'Parser v2 — Codex (sign-in required)');

    // A session opens: now the options are rebuilt.
    await h.render(page, { type: 'status', status: withSessions('s4', [...SESSIONS, { key: 's4', label: 'New', agentName: 'Codex', phase: 'starting' }]) });
    assert.equal(await sameNodes(), false);
    assert.equal(await page.locator('select#session').inputValue(), 's4');
  });
});

test('sessions: a label with markup is text, never elements', async () => {
  await h.withPanel(env, {}, async (page) => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b>';
    await h.render(page, h.snapshot([], { status: withSessions('x', [{ key: 'x', label: payload, agentName: '<i>Agent</i>', phase: 'ready' }, SESSIONS[1]]) }));
    const select = page.locator('select#session');
    assert.equal(await select.locator('option[value="x"]').textContent(), `${payload} — <i>Agent</i>`);
    assert.equal(await page.locator('header.bar img, header.bar script, header.bar b, header.bar i').count(), 0, 'no element injected');
    assert.equal(await select.getAttribute('title'), `${payload} — <i>Agent</i>`);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await h.assertClean(page, assert);
  });
});

test('sessions: a narrow sidebar ellipsizes a long label and keeps the buttons in the panel', async () => {
  await h.withPanel(env, { viewport: { width: 260, height: 500 } }, async (page) => {
    const long = [{ ...SESSIONS[0], label: 'Fix the flaky integration tests in the session manager and the ACP client '.repeat(3) }, SESSIONS[1]];
    await h.render(page, h.snapshot([], { status: h.status('ready', { sessions: long, sessionKey: 's1', agents: ['Demo agent', 'Codex'] }) }));
    const fits = await page.evaluate(() => {
      const width = window.innerWidth;
      return ['#agent', '#session', '#new-session', '#close-session', '#history', '#status', '#follow']
        .map((sel) => [sel, document.querySelector(sel).getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.right > width + 0.5)
        .map(([sel, r]) => `${sel} ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
    });
    assert.deepEqual(fits, [], 'every header control is inside the panel');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'no sideways scroll');
    await h.screenshot(page, 'webview-sessions-narrow', { clip: { x: 0, y: 0, width: 260, height: 120 } });
  });
});

test('sessions: a session that needs the user is marked in its option; the closed select carries the mark of the others', async () => {
  await h.withPanel(env, {}, async (page) => {
    const marked = [
      { ...SESSIONS[0], attention: null },
      { ...SESSIONS[1], phase: 'ready', attention: 'waiting' },
      { ...SESSIONS[2], phase: 'ready', attention: 'done' },
    ];
    await h.render(page, h.snapshot([], { status: withSessions('s1', marked) }));
    const select = page.locator('select#session');
    assert.deepEqual(await options(select), [
      ['s1', 'Fix tests — Demo agent'],
      ['s2', 'Refactor parser — Codex (● waiting for you)'],
      ['s3', 'Write docs — Demo agent (● turn ended)'],
    ]);
    assert.deepEqual(await select.locator('option').evaluateAll((os) => os.map((o) => o.dataset.attention ?? null)), [null, 'waiting', 'done']);
    assert.equal(await select.getAttribute('data-attention'), 'waiting', 'a question outranks a turn end');
    assert.match(await select.getAttribute('title'), /another session is waiting for you$/);
    const border = await select.evaluate((el) => getComputedStyle(el).borderTopColor);
    await h.render(page, { type: 'status', status: withSessions('s1', marked.map((s) => ({ ...s, attention: null }))) });
    assert.equal(await select.getAttribute('data-attention'), null, 'cleared: the user looked, or answered');
    assert.equal(await select.getAttribute('title'), 'Fix tests — Demo agent');
    assert.notEqual(await select.evaluate((el) => getComputedStyle(el).borderTopColor), border, 'the mark shows in the border');
    assert.deepEqual(await options(select), [['s1', 'Fix tests — Demo agent'], ['s2', 'Refactor parser — Codex'], ['s3', 'Write docs — Demo agent']]);

    // The shown session is marked too while the panel was hidden (and a label stays text).
    const hostile = '<img src=x onerror="window.__xss=1">';
    await h.render(page, { type: 'status', status: withSessions('s1', [{ ...SESSIONS[0], label: hostile, attention: 'done' }]) });
    assert.deepEqual(await options(select), [['s1', `${hostile} (● turn ended)`]]);
    assert.equal(await select.getAttribute('data-attention'), null, 'no other session: the select itself is not marked');
    assert.equal(await page.evaluate(() => window.__xss), undefined);
  });
});
