// What the user does in the panel and what the webview posts for it: permission buttons (mouse
// and keyboard) and Dismiss, diff / location / link clicks, the prompt box, Stop, the queue, slash-command
// completion, the mode picker and config options. Every post is checked against ViewToHostSchema
// (h.withPanel does that after each test).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');

const OPTIONS = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
];
const tool = (over = {}) => ({ kind: 'tool', toolCallId: 'call-1', title: 'Write notes.md', toolKind: 'edit', status: 'pending', content: [], locations: [], ...over });

test('clicking a permission option posts permission with its tool call and option ids', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }, tool({ permission: OPTIONS }), tool({ toolCallId: 'call-2', title: 'Other', permission: OPTIONS })], { status: h.status('prompting') }));
    await page.locator('#transcript .entry-tool[data-tool-call-id="call-1"] button.option[data-option-id="always"]').click();
    await page.locator('#transcript .entry-tool[data-tool-call-id="call-2"] button.option-reject_once').click();
    assert.deepEqual(await intents(page), [
      { type: 'permission', toolCallId: 'call-1', optionId: 'always' },
      { type: 'permission', toolCallId: 'call-2', optionId: 'no' },
    ]);
  });
});

test('Dismiss on a permission card posts dismissPermission for its tool call, also between turns', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'turnEnd', stopReason: 'end_turn' }, tool({ toolCallId: 'later-1', permission: OPTIONS })], { status: h.status('ready') }));
    const dismiss = page.locator('#transcript .entry-tool[data-tool-call-id="later-1"] .permission button.permission-dismiss');
    assert.equal((await dismiss.textContent()).trim(), 'Dismiss');
    await dismiss.click();
    assert.deepEqual(await intents(page), [{ type: 'dismissPermission', toolCallId: 'later-1' }]);
  });
});

test('ACP Host asking: its note shows as text above its options (an agent\'s markup stays text), and the choice posts like any permission', async () => {
  await h.withPanel(env, {}, async (page) => {
    const HOST = [
      { optionId: 'acp-host:allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'acp-host:allow-session', name: 'Allow for this session', kind: 'allow_always' },
      { optionId: 'acp-host:allow-workspace', name: 'Always in this workspace', kind: 'allow_always' },
      { optionId: 'acp-host:deny', name: 'Deny', kind: 'reject_once' },
    ];
    const note = 'ACP Host asks before Evil may write /ws/.vscode/<img src=x onerror=alert(1)>: it is a protected path (**/.vscode/**)';
    await h.render(page, h.snapshot([tool({ toolCallId: 'acp-host-ask-1', title: 'Write /ws/.vscode/settings.json', permission: HOST, policyNote: note })], { status: h.status('prompting') }));
    const card = page.locator('#transcript .entry-tool[data-tool-call-id="acp-host-ask-1"]');
    assert.equal(await card.locator('.policy-note').innerText(), note);
    assert.equal(await card.locator('.policy-note img').count(), 0, 'the note is text, never markup');
    assert.deepEqual((await card.locator('.permission button.option').allInnerTexts()).map((t) => t.trim()), HOST.map((o) => o.name));
    await card.locator('button.option[data-option-id="acp-host:deny"]').click();
    assert.deepEqual(await intents(page), [{ type: 'permission', toolCallId: 'acp-host-ask-1', optionId: 'acp-host:deny' }]);
  });
});

test('keyboard: Tab reaches the first option, ArrowRight/ArrowLeft move focus, Enter chooses', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }, tool({ permission: OPTIONS })], { status: h.status('prompting') }));
    // Start from the header (before the transcript in tab order) and Tab into the transcript.
    await page.locator('header.bar').evaluate((el) => {
      const b = [...el.querySelectorAll('button')].filter((x) => x.offsetParent !== null).pop();
      if (b) b.focus(); else { el.tabIndex = -1; el.focus(); }
    });
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return a && a.matches('button.option') ? a.dataset.optionId : a && `${a.tagName}#${a.id}.${a.className}`;
    });
    let first;
    for (let i = 0; i < 4 && !(first = await focused())?.match?.(/^(yes|always|no|never)$/); i++) await page.keyboard.press('Tab');
    assert.equal(first, 'yes', 'Tab lands on the first option');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'always');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'no');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await focused(), 'always');
    assert.deepEqual(await intents(page), [], 'moving focus chooses nothing');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'permission', toolCallId: 'call-1', optionId: 'always' }]);
  });
});

test('Open diff posts openDiff with the entry index and the content index', async () => {
  await h.withPanel(env, {}, async (page) => {
    const diff = (p) => ({ type: 'diff', path: p, isNewFile: false, added: 2, removed: 1, preview: ['-a', '+b', '+c'], previewTruncated: false });
    await h.render(page, h.snapshot([
      { kind: 'user', text: 'go' },
      { kind: 'agent', text: 'ok' },
      tool({ status: 'completed', content: [{ type: 'text', text: 'first' }, diff('/w/a.ts'), diff('/w/b.ts')] }),
    ]));
    await page.locator('#transcript .entry[data-index="2"] .tool-diff[data-content-index="2"] button.open-diff').click();
    await page.locator('#transcript .entry[data-index="2"] .tool-diff[data-content-index="1"] button.open-diff').click();
    assert.deepEqual(await intents(page), [
      { type: 'openDiff', index: 2, contentIndex: 2 },
      { type: 'openDiff', index: 2, contentIndex: 1 },
    ]);
  });
});

test('a diff whose full texts the host no longer keeps says so instead of offering Open diff', async () => {
  await h.withPanel(env, {}, async (page) => {
    const diff = (p, over = {}) => ({ type: 'diff', path: p, isNewFile: false, added: 1, removed: 1, preview: ['-a', '+b'], previewTruncated: false, ...over });
    await h.render(page, h.snapshot([tool({ status: 'completed', content: [diff('/w/kept.ts'), diff('/w/dropped.ts', { textsDropped: true })] })]));
    const card = (i) => page.locator(`#transcript .entry[data-index="0"] .tool-diff[data-content-index="${i}"]`);
    assert.equal(await card(0).locator('button.open-diff').count(), 1);
    assert.equal(await card(1).locator('button.open-diff').count(), 0);
    assert.equal(await card(1).locator('.diff-dropped').textContent(), 'full texts not kept');
    assert.match(await card(1).locator('.diff-dropped').getAttribute('title'), /newest diffs only/);
    assert.equal(await card(1).locator('.diff-line').count(), 2, 'the preview stays');
  });
});

test('a location link posts openLocation (line null when absent) and does not navigate', async () => {
  await h.withPanel(env, {}, async (page) => {
    const url = page.url();
    await h.render(page, h.snapshot([tool({ status: 'completed', locations: [{ path: '/w/src/a.ts', line: 12 }, { path: '/w/b.md', line: null }] })]));
    const links = page.locator('#transcript a.tool-location');
    assert.equal(await links.count(), 2);
    assert.match(await links.nth(0).textContent(), /a\.ts:12$/);
    assert.equal(await links.nth(0).getAttribute('data-path'), '/w/src/a.ts');
    assert.equal(await links.nth(0).getAttribute('data-line'), '12');
    await links.nth(0).click();
    await links.nth(1).click();
    assert.deepEqual(await intents(page), [
      { type: 'openLocation', path: '/w/src/a.ts', line: 12 },
      { type: 'openLocation', path: '/w/b.md', line: null },
    ]);
    assert.equal(page.url(), url, 'no navigation (not even to #)');
  });
});

test('a markdown link posts openLink with the raw href and does not navigate', async () => {
  await h.withPanel(env, {}, async (page) => {
    const url = page.url();
    await h.render(page, h.snapshot([
      { kind: 'agent', text: 'See [the docs](https://example.com/a?b=1&c=%20) and <mailto:me@example.com> and https://linkified.example/x.\n\nAlso [a file](file:///w/readme.md).' },
      tool({ status: 'completed', content: [{ type: 'text', text: 'Output with [a link](https://example.com/tool)' }] }),
    ]));
    const links = page.locator('#transcript .markdown a, #transcript .tool-text a');
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://example.com/a?b=1&c=%20', 'mailto:me@example.com', 'https://linkified.example/x', 'file:///w/readme.md', 'https://example.com/tool']);
    for (let i = 0; i < hrefs.length; i++) await links.nth(i).click();
    assert.deepEqual((await intents(page)).map((m) => m.type), hrefs.map(() => 'openLink'));
    assert.deepEqual((await intents(page)).map((m) => m.href), hrefs);
    assert.equal(page.url(), url, 'no navigation');
    assert.deepEqual(page.__log.navigations, []);
    assert.deepEqual(page.__log.popups, []);
    assert.deepEqual(page.__log.externalRequests, []);
  });
});

test('one click on a link opens it exactly once: VS Code’s own link handler on the window never sees it, and the default is prevented', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      { kind: 'agent', text: 'See [a file](/w/src/a.ts#L3), [the docs](https://example.com/x) and [a drive path](C:/w/b.ts).' },
      tool({ status: 'completed', locations: [{ path: '/w/src/a.ts', line: 12 }] }),
    ]));
    // A stand-in for VS Code's webview frame (pre/index.html handleInnerClick): a click listener
    // on the window that, for any link, posts 'did-click-link' with the href resolved against the
    // page (an absolute path becomes a web URL there), whatever defaultPrevented says.
    await page.evaluate(() => {
      window.__vscodeOpened = [];
      window.__defaultPrevented = [];
      window.addEventListener('click', (event) => {
        const a = event.composedPath().find((n) => n.tagName === 'A' && n.href);
        if (a) window.__vscodeOpened.push(a.href);
      });
      // On the transcript itself, after the panel's own listener: what that listener did to the event.
      document.querySelector('#transcript').addEventListener('click', (event) => window.__defaultPrevented.push(event.defaultPrevented));
    });
    const links = page.locator('#transcript .markdown a');
    assert.equal(await links.count(), 3);
    for (let i = 0; i < 3; i++) await links.nth(i).click();
    await page.locator('#transcript a.tool-location').click();
    // Keyboard: Enter on a focused link is a click too.
    await links.nth(0).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [
      { type: 'openLink', href: '/w/src/a.ts#L3' },
      { type: 'openLink', href: 'https://example.com/x' },
      { type: 'openLink', href: 'C:/w/b.ts' },
      { type: 'openLocation', path: '/w/src/a.ts', line: 12 },
      { type: 'openLink', href: '/w/src/a.ts#L3' },
    ]);
    assert.deepEqual(await page.evaluate(() => window.__vscodeOpened), [], 'VS Code’s handler saw none of the clicks');
    assert.deepEqual(await page.evaluate(() => window.__defaultPrevented), [true, true, true, true, true]);
    assert.deepEqual(page.__log.navigations, []);
    assert.deepEqual(page.__log.popups, []);
  });
});

test('prompt box: Enter sends the trimmed text and clears it, Shift+Enter is a newline, empty sends nothing', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    const box = page.locator('textarea#prompt');
    assert.equal(await box.getAttribute('aria-label'), 'Prompt');
    await box.click();
    await page.keyboard.press('Enter');
    await page.keyboard.type('   ');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [], 'empty and blank prompts are not sent');
    await box.fill('');
    await page.keyboard.type('  first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line  ');
    assert.equal(await box.inputValue(), '  first line\nsecond line  ', 'Shift+Enter inserts a newline');
    assert.deepEqual(await intents(page), []);
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'prompt', text: 'first line\nsecond line' }]);
    assert.equal(await box.inputValue(), '', 'the box is cleared');
    // The Send button does the same.
    await box.fill('  by button ');
    await page.locator('#send').click();
    assert.deepEqual((await intents(page)).at(-1), { type: 'prompt', text: 'by button' });
    assert.equal(await box.inputValue(), '');
  });
});

test('prompt box: Enter while an IME composes does not send', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    const box = page.locator('textarea#prompt');
    await box.fill('日本');
    await box.evaluate((el) => {
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true, bubbles: true, cancelable: true }));
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Process', code: 'Enter', keyCode: 229, bubbles: true, cancelable: true }));
    });
    assert.deepEqual(await intents(page), []);
    assert.equal(await box.inputValue(), '日本');
  });
});

test('Stop shows only while prompting and posts cancel; prompts typed during a turn are still posted', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'go' }], { status: h.status('ready') }));
    assert.equal(await page.locator('#stop').isVisible(), false);
    assert.equal(await page.locator('#send').isVisible(), true);
    await h.render(page, { type: 'status', status: h.status('prompting') });
    assert.equal(await page.locator('#stop').isVisible(), true);
    assert.equal(await page.locator('#send').isVisible(), false);
    await page.locator('#stop').click();
    assert.deepEqual(await intents(page), [{ type: 'cancel' }]);
    await page.locator('#prompt').fill('next one');
    await page.locator('#prompt').press('Enter');
    assert.deepEqual((await intents(page)).at(-1), { type: 'prompt', text: 'next one' });
    for (const phase of ['idle', 'starting', 'crashed']) {
      await h.render(page, { type: 'status', status: h.status(phase, phase === 'crashed' ? { detail: 'boom' } : {}) });
      assert.equal(await page.locator('#stop').isVisible(), false, `no Stop when ${phase}`);
    }
  });
});

test('Start and Restart show per phase and post start / restart', async () => {
  await h.withPanel(env, {}, async (page) => {
    const visible = async () => ({ start: await page.locator('#start').isVisible(), restart: await page.locator('#restart').isVisible() });
    await h.render(page, h.snapshot([], { status: h.status('idle') }));
    assert.deepEqual(await visible(), { start: true, restart: false });
    await page.locator('#start').click();
    for (const [phase, expected] of [['starting', { start: false, restart: false }], ['ready', { start: false, restart: true }], ['prompting', { start: false, restart: false }], ['crashed', { start: false, restart: true }]]) {
      await h.render(page, { type: 'status', status: h.status(phase, phase === 'crashed' ? { detail: 'Demo agent exited with code 1.' } : {}) });
      assert.deepEqual(await visible(), expected, phase);
    }
    await page.locator('#restart').click();
    assert.deepEqual(await intents(page), [{ type: 'start' }, { type: 'restart' }]);
  });
});

test('queued prompts are listed, each with a remove button posting unqueue; the list hides when empty', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { status: h.status('prompting') }));
    assert.equal(await page.locator('#queue').isVisible(), false, 'hidden when empty');
    await h.render(page, { type: 'session', session: h.session({ queue: [{ id: 7, text: 'second prompt' }, { id: 9, text: 'third\nprompt' }] }) });
    assert.equal(await page.locator('#queue').isVisible(), true);
    const items = page.locator('#queue li[data-queue-id]');
    assert.equal(await items.count(), 2);
    assert.equal(await items.nth(0).getAttribute('data-queue-id'), '7');
    assert.match(await items.nth(0).textContent(), /second prompt/);
    assert.match(await items.nth(1).textContent(), /third\s*prompt/);
    const remove = items.nth(1).locator('button.unqueue');
    assert.equal(await remove.getAttribute('aria-label'), 'Remove from queue');
    await remove.click();
    assert.deepEqual(await intents(page), [{ type: 'unqueue', id: 9 }]);
    await h.render(page, { type: 'session', session: h.session({ queue: [] }) });
    assert.equal(await page.locator('#queue').isVisible(), false);
    assert.equal(await page.locator('#queue li').count(), 0);
  });
});

const COMMANDS = [
  { name: 'help', description: 'List the commands', hint: null },
  { name: 'plan', description: 'Show a plan', hint: 'task to plan' },
  { name: 'apply', description: 'Apply the patch', hint: null },
  { name: 'Explain', description: 'Explain the code', hint: 'what' },
  { name: 'replay', description: 'Replay the turn', hint: null },
];

async function commandNames(page) {
  return page.locator('#commands li[role="option"]').evaluateAll((lis) => lis.map((li) => li.dataset.command));
}

test('slash commands: "/" opens the list, typing filters (prefix first, then substring, any case)', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ commands: COMMANDS }) }));
    const list = page.locator('ul#commands');
    assert.equal(await list.getAttribute('role'), 'listbox');
    assert.equal(await list.getAttribute('aria-label'), 'Commands');
    assert.equal(await list.isVisible(), false, 'closed at first');
    await page.locator('#prompt').click();
    await page.keyboard.type('/');
    assert.equal(await list.isVisible(), true, '"/" opens it');
    assert.deepEqual(await commandNames(page), COMMANDS.map((c) => c.name));
    const plan = page.locator('#commands li[data-command="plan"]');
    const text = await plan.textContent();
    assert.ok(text.includes('/plan') && text.includes('Show a plan') && text.includes('task to plan'), text);
    await page.keyboard.type('pl');
    assert.deepEqual(await commandNames(page), ['plan', 'apply', 'Explain', 'replay'], 'prefix match first, then substring matches (any case), in the agent\'s order');
    await page.locator('#prompt').fill('/EX');
    assert.deepEqual(await commandNames(page), ['Explain'], 'case-insensitive');
    await page.locator('#prompt').fill('/a');
    assert.deepEqual(await commandNames(page), ['apply', 'plan', 'Explain', 'replay'], 'prefix first');
    await page.locator('#prompt').fill('/zzz');
    assert.equal(await list.isVisible(), false, 'no match: closed');
    await page.locator('#prompt').fill('/help me');
    assert.equal(await list.isVisible(), false, 'closed once the text has whitespace');
    await page.locator('#prompt').fill('x/he');
    assert.equal(await list.isVisible(), false, 'only at the start');
  });
});

test('slash commands: arrows move the selection, Enter or Tab completes "/name ", Escape closes, clicking accepts', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ commands: COMMANDS }) }));
    const box = page.locator('#prompt');
    const list = page.locator('ul#commands');
    const selected = () => page.evaluate(() => {
      const sel = [...document.querySelectorAll('#commands li[role="option"]')].filter((li) => li.getAttribute('aria-selected') === 'true');
      const box = document.getElementById('prompt');
      return { names: sel.map((li) => li.dataset.command), activedescendant: box.getAttribute('aria-activedescendant'), ids: sel.map((li) => li.id) };
    });
    await box.click();
    await page.keyboard.type('/');
    const first = await selected();
    assert.deepEqual(first.names, [(await commandNames(page))[0]], 'the best match is selected as the list opens');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const afterOne = await selected();
    assert.deepEqual(afterOne.names, first.names);
    assert.equal(afterOne.names.length, 1, 'exactly one item selected');
    assert.ok(afterOne.ids[0], 'the selected item has an id');
    assert.equal(afterOne.activedescendant, afterOne.ids[0], 'the textarea points at it with aria-activedescendant');
    await page.keyboard.press('ArrowDown');
    const afterTwo = await selected();
    assert.notEqual(afterTwo.names[0], afterOne.names[0], 'ArrowDown moves');
    await page.keyboard.press('ArrowUp');
    assert.deepEqual((await selected()).names, afterOne.names, 'ArrowUp moves back');
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), `/${afterOne.names[0]} `, 'Enter completes');
    assert.equal(await box.evaluate((el) => el.selectionStart === el.value.length && el.selectionEnd === el.value.length), true, 'caret at the end');
    assert.equal(await list.isVisible(), false, 'closed after completing');
    assert.deepEqual(await intents(page), [], 'completing sends nothing');

    // Tab completes too; a single match.
    await box.fill('');
    await page.keyboard.type('/he');
    assert.deepEqual(await commandNames(page), ['help']);
    await page.keyboard.press('Tab');
    assert.equal(await box.inputValue(), '/help ');
    assert.equal(await list.isVisible(), false);
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'focus stays in the box');

    // Escape closes; Enter then sends the text as it is.
    await box.fill('');
    await page.keyboard.type('/pl');
    assert.equal(await list.isVisible(), true);
    await page.keyboard.press('Escape');
    assert.equal(await list.isVisible(), false, 'Escape closes');
    assert.equal(await box.inputValue(), '/pl');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'prompt', text: '/pl' }]);

    // A name typed out in full: Enter sends it as it is.
    await box.fill('');
    await page.keyboard.type('/help');
    assert.equal(await list.isVisible(), true);
    await page.keyboard.press('Enter');
    assert.deepEqual((await intents(page)).at(-1), { type: 'prompt', text: '/help' });
    assert.equal(await list.isVisible(), false);

    // Clicking an item accepts it.
    await box.click();
    await page.keyboard.type('/');
    await page.locator('#commands li[data-command="replay"]').click();
    assert.equal(await box.inputValue(), '/replay ');
    assert.equal(await list.isVisible(), false);
  });
});

test('slash commands: no list at all when the session has no commands', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    await page.locator('#prompt').click();
    await page.keyboard.type('/');
    assert.equal(await page.locator('#commands').isVisible(), false);
    assert.equal(await page.locator('#commands li').count(), 0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('help');
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'prompt', text: '/help' }]);
    // Commands arriving later are offered.
    await h.render(page, { type: 'session', session: h.session({ commands: COMMANDS }) });
    await page.keyboard.type('/');
    assert.equal(await page.locator('#commands').isVisible(), true);
  });
});

test('mode picker: absent without modes, shown with them, change posts setMode', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await page.locator('#mode').isVisible(), false, 'no modes: no picker');
    assert.equal(await page.locator('#pickers').isVisible(), false, '#pickers hidden when empty');
    const modes = { currentModeId: 'code', available: [{ id: 'ask', name: 'Ask', description: 'Ask first' }, { id: 'code', name: 'Code', description: null }, { id: 'arch', name: 'Architect', description: 'Plan only' }] };
    await h.render(page, { type: 'session', session: h.session({ modes }) });
    const mode = page.locator('select#mode');
    assert.equal(await mode.isVisible(), true);
    assert.equal(await mode.getAttribute('aria-label'), 'Mode');
    assert.deepEqual(await mode.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent])), [['ask', 'Ask'], ['code', 'Code'], ['arch', 'Architect']]);
    assert.equal(await mode.locator('option[value="ask"]').getAttribute('title'), 'Ask first');
    assert.equal(await mode.inputValue(), 'code', 'the current mode is selected');
    await mode.selectOption('arch');
    assert.deepEqual(await intents(page), [{ type: 'setMode', modeId: 'arch' }]);
    // The host confirms; a later session update moves the selection.
    await h.render(page, { type: 'session', session: h.session({ modes: { ...modes, currentModeId: 'ask' } }) });
    assert.equal(await mode.inputValue(), 'ask');
    // Modes null (the agent has config options instead): no mode picker.
    await h.render(page, { type: 'session', session: h.session({ modes: null }) });
    assert.equal(await page.locator('#mode').isVisible(), false);
    assert.equal(await page.locator('#pickers').isVisible(), false);
  });
});

test('config options: grouped select with optgroups posts setConfigOption; a boolean checkbox posts true/false', async () => {
  await h.withPanel(env, {}, async (page) => {
    const configOptions = [
      { type: 'select', id: 'model', name: 'Model', description: null, category: 'model', currentValue: 'b', groups: [
        { name: 'Fast', choices: [{ value: 'a', name: 'Alpha', description: null }, { value: 'b', name: 'Beta', description: 'B' }] },
        { name: 'Smart', choices: [{ value: 'c', name: 'Gamma', description: null }] },
      ] },
      { type: 'boolean', id: 'verbose', name: 'Verbose output', description: 'Say more', category: null, currentValue: false },
      { type: 'select', id: 'effort', name: 'Effort', description: null, category: 'thought_level', currentValue: 'low', groups: [
        { name: null, choices: [{ value: 'low', name: 'Low', description: null }, { value: 'high', name: 'High', description: null }] },
      ] },
    ];
    await h.render(page, h.snapshot([], { session: h.session({ configOptions }) }));
    assert.equal(await page.locator('#pickers').isVisible(), true);
    assert.equal(await page.locator('#mode').isVisible(), false, 'modes null: no #mode');
    // In the agent's order.
    assert.deepEqual(await page.locator('#pickers [data-config-id]').evaluateAll((els) => els.map((e) => e.dataset.configId)), ['model', 'verbose', 'effort']);
    const model = page.locator('#pickers select.config[data-config-id="model"]');
    assert.equal(await model.getAttribute('aria-label'), 'Model');
    assert.deepEqual(await model.locator('optgroup').evaluateAll((gs) => gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)])), [['Fast', ['a', 'b']], ['Smart', ['c']]]);
    assert.equal(await model.inputValue(), 'b');
    const effort = page.locator('#pickers select.config[data-config-id="effort"]');
    assert.equal(await effort.locator('optgroup').count(), 0, 'an unnamed group has no optgroup');
    assert.deepEqual(await effort.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['low', 'high']);
    await model.selectOption('c');
    await effort.selectOption('high');
    const box = page.locator('#pickers label.config input[type="checkbox"][data-config-id="verbose"]');
    assert.match(await page.locator('#pickers label.config').textContent(), /Verbose output/);
    assert.equal(await box.isChecked(), false);
    await box.check();
    await box.uncheck();
    assert.deepEqual(await intents(page), [
      { type: 'setConfigOption', configId: 'model', value: 'c' },
      { type: 'setConfigOption', configId: 'effort', value: 'high' },
      { type: 'setConfigOption', configId: 'verbose', value: true },
      { type: 'setConfigOption', configId: 'verbose', value: false },
    ]);
    // The host's answer is the truth: a session update sets the controls.
    await h.render(page, { type: 'session', session: h.session({ configOptions: [{ ...configOptions[0], currentValue: 'a' }, { ...configOptions[1], currentValue: true }] }) });
    assert.equal(await model.inputValue(), 'a');
    assert.equal(await box.isChecked(), true);
    assert.equal(await page.locator('#pickers [data-config-id="effort"]').count(), 0, 'a dropped option goes');
  });
});

test('auth phase: "Sign in to <agent>" with one button per method, each posting authenticate; agent strings stay text', async () => {
  await h.withPanel(env, {}, async (page) => {
    const methods = [
      { id: 'login', name: 'Log in', description: 'Opens a browser', type: 'agent' },
      { id: 'key', name: '<img src=x onerror=alert(1)>API key', description: '<b>bold</b><script>alert(2)</script>', type: 'env_var' },
      { id: 'cli"] button', name: 'Terminal', description: null, type: 'terminal' },
    ];
    await h.render(page, h.snapshot([], { status: h.status('auth', { agentName: '<i>Evil</i> agent', authMethods: methods }) }));
    assert.equal(await page.locator('#auth').isVisible(), true);
    assert.equal(await page.locator('#auth h2').textContent(), 'Sign in to <i>Evil</i> agent');
    assert.match(await page.locator('#status').textContent(), /sign-in required/);
    assert.equal(await page.locator('#restart').isVisible(), true, 'Restart stays available');
    const buttons = page.locator('#auth button.auth-method');
    assert.deepEqual(await buttons.evaluateAll((bs) => bs.map((b) => [b.dataset.methodId, b.textContent, b.dataset.methodType])), [
      ['login', 'Log in', 'agent'],
      ['key', '<img src=x onerror=alert(1)>API key', 'env_var'],
      ['cli"] button', 'Terminal', 'terminal'],
    ]);
    assert.equal(await page.locator('#auth img, #auth b, #auth script, #auth i').count(), 0, 'no markup from agent strings');
    assert.match(await page.locator('#auth').textContent(), /<b>bold<\/b>/);
    await page.locator('#auth button.auth-method[data-method-id="key"]').click();
    await buttons.nth(2).click();
    await buttons.nth(0).click();
    assert.deepEqual(await intents(page), [
      { type: 'authenticate', methodId: 'key' },
      { type: 'authenticate', methodId: 'cli"] button' },
      { type: 'authenticate', methodId: 'login' },
    ]);
    // Leaving the phase (signing in, then ready) takes the choices away; while the agent signs
    // the user in, the panel says so and offers to cancel.
    await h.render(page, { type: 'status', status: h.status('starting', { authMethods: methods }) });
    assert.equal(await page.locator('#auth').isVisible(), false);
    await h.render(page, { type: 'status', status: h.status('starting', { agentName: '<i>Evil</i> agent', signingIn: '<b>Log</b> in' }) });
    assert.equal(await page.locator('#auth').isVisible(), true);
    assert.equal(await page.locator('#auth button.auth-method').count(), 0);
    assert.equal(await page.locator('#auth .auth-waiting').textContent(), 'Waiting for <i>Evil</i> agent to sign you in with “<b>Log</b> in”…');
    await page.locator('#auth button.auth-cancel').click();
    assert.deepEqual((await intents(page)).at(-1), { type: 'cancelSignIn' });
    await h.render(page, { type: 'status', status: h.status('auth', { authMethods: methods, detail: 'Signing in with "Log in" was cancelled.' }) });
    assert.equal(await page.locator('#auth button.auth-cancel').count(), 0);
    assert.equal(await page.locator('#auth button.auth-method').count(), 3);
    await h.render(page, { type: 'status', status: h.status('starting', { signingIn: 'Log in' }) });
    await h.render(page, { type: 'status', status: h.status('ready') });
    assert.equal(await page.locator('#auth button').count(), 0);
    await h.assertClean(page, assert);
  });
});
