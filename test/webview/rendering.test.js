// How each kind of entry and each part of the header renders, hand-written messages against the
// DOM contract (/work/brief/dom-contract.md): stop reasons, errors, tool icons and badges, tool
// content, the header, presentation state (thoughts opened, outputs expanded) across re-renders
// and reloads, scrolling, and invalid messages.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const { entry } = h;
const tool = (over = {}) => ({ kind: 'tool', toolCallId: 'call-1', title: 'A tool', toolKind: 'other', status: 'completed', content: [], locations: [], ...over });

test('the layout: header, detail, transcript, composer with their stable ids and roles', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    const has = async (sel) => (await page.locator(sel).count()) === 1;
    for (const sel of ['header.bar #status[role="status"]', 'header.bar #title', 'header.bar #usage', 'header.bar button#start', 'header.bar button#restart',
      'pre#detail', 'main#transcript[aria-live="polite"]', 'footer.composer #queue', 'footer.composer #pickers', 'footer.composer textarea#prompt[aria-label="Prompt"]',
      'footer.composer ul#commands[role="listbox"][aria-label="Commands"]', 'footer.composer button#send', 'footer.composer button#stop']) {
      assert.ok(await has(sel), sel);
    }
    const order = await page.evaluate(() => ['header.bar', '#detail', '#transcript', 'footer.composer'].map((s) => document.querySelector(s))
      .every((el, i, all) => i === 0 || (all[i - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)));
    assert.ok(order, 'header, detail, transcript, composer in that order');
    assert.equal(await page.locator('#transcript > *').count(), 0, 'an empty transcript has no children');
  });
});

test('each stop reason has its exact text', async () => {
  const texts = {
    end_turn: 'Turn ended.',
    cancelled: 'Turn cancelled.',
    max_tokens: 'Stopped: the agent reached its token limit.',
    max_turn_requests: 'Stopped: the agent reached its limit of requests for one turn.',
    refusal: 'The agent refused. This prompt will not be part of the next turn\u2019s context.',
    failed: 'The turn failed.',
    quiet: 'Turn over: the agent sent nothing more.',
  };
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(Object.keys(texts).map((stopReason) => ({ kind: 'turnEnd', stopReason }))));
    for (const [i, [reason, text]] of Object.entries(texts).entries()) {
      const el = page.locator(`${entry(i)}[data-stop-reason="${reason}"], ${entry(i)} [data-stop-reason="${reason}"]`);
      assert.equal(await el.count(), 1, reason);
      assert.equal(await el.textContent(), text, reason);
    }
  });
});

test('a failed turn: its marker says why, the agent\'s message as text and the error code, and is announced', async () => {
  await h.withPanel(env, {}, async (page) => {
    const message = 'Internal error: <b>overloaded</b> **not markdown**';
    await h.render(page, h.snapshot([
      { kind: 'turnEnd', stopReason: 'failed', error: { message, code: -32603 } },
      { kind: 'turnEnd', stopReason: 'failed', error: { message: 'The agent closed the connection', code: null } },
    ]));
    const failed = page.locator(`${entry(0)}.entry-turnEnd[data-stop-reason="failed"]`);
    assert.equal(await failed.textContent(), `The turn failed: ${message} (error -32603)`);
    assert.equal(await failed.getAttribute('role'), 'alert');
    assert.equal(await failed.locator('.codicon.codicon-error').count(), 1);
    assert.equal(await failed.locator('b, strong').count(), 0);
    assert.equal(await page.locator(`${entry(1)}`).textContent(), 'The turn failed: The agent closed the connection', 'no code: none shown');
  });
});

test('an error entry shows its message as text, with an error icon', async () => {
  await h.withPanel(env, {}, async (page) => {
    const message = 'Demo agent exited with code 1.\nLast lines of its stderr:\n  **not markdown** <b>x</b>';
    await h.render(page, h.snapshot([{ kind: 'error', message }]));
    assert.equal(await page.locator(`${entry(0)}.entry-error .text`).textContent(), message);
    assert.equal(await page.locator(`${entry(0)} .codicon.codicon-error`).count(), 1);
    assert.equal(await page.locator(`${entry(0)} b, ${entry(0)} strong`).count(), 0);
  });
});

test('user text is plain text, never markdown', async () => {
  await h.withPanel(env, {}, async (page) => {
    const text = '# not a heading\n\n**not bold** [not](https://example.com) `x`\n  indented';
    await h.render(page, h.snapshot([{ kind: 'user', text }]));
    assert.equal(await page.locator(`${entry(0)} .text`).textContent(), text);
    assert.equal(await page.locator(`${entry(0)} h1, ${entry(0)} strong, ${entry(0)} a, ${entry(0)} code`).count(), 0);
    assert.equal(await page.locator(`${entry(0)} .text`).evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
  });
});

test('agent markdown: headings, lists, fenced code with its language class, no raw HTML', async () => {
  await h.withPanel(env, {}, async (page) => {
    const text = '# Title\n\nSome *emphasis* and `inline`.\n\n1. one\n2. two\n\n```ts\nconst x = 1 < 2;\n```\n\n<b>raw</b>\n';
    await h.render(page, h.snapshot([{ kind: 'agent', text }]));
    const md = page.locator(`${entry(0)} .markdown`);
    assert.equal(await md.locator('h1').textContent(), 'Title');
    assert.equal(await md.locator('em').textContent(), 'emphasis');
    assert.deepEqual(await md.locator('ol > li').allTextContents(), ['one', 'two']);
    assert.equal(await md.locator('pre > code.language-ts').textContent(), 'const x = 1 < 2;\n');
    assert.equal(await md.locator('b').count(), 0, 'html: false');
    assert.match(await md.textContent(), /<b>raw<\/b>/);
  });
});

test('tool cards: the codicon of each kind and the words of each status', async () => {
  const icons = { read: 'book', edit: 'edit', delete: 'trash', move: 'arrow-right', search: 'search', execute: 'terminal', think: 'lightbulb', fetch: 'globe', switch_mode: 'arrow-swap', other: 'tools', 'something-new': 'tools' };
  const words = { pending: 'Pending', in_progress: 'Running', completed: 'Done', failed: 'Failed', unfinished: 'Not finished' };
  const statuses = Object.keys(words);
  const entries = Object.keys(icons).map((toolKind, i) => tool({ toolCallId: `c${i}`, title: `Tool ${toolKind}`, toolKind, status: statuses[i % statuses.length] }));
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(entries));
    for (const [i, e] of entries.entries()) {
      const card = page.locator(`${entry(i)}.entry-tool`);
      assert.equal(await card.getAttribute('data-tool-kind'), e.toolKind);
      assert.equal(await card.getAttribute('data-status'), e.status);
      const icon = card.locator('.tool-head span.codicon.tool-icon');
      assert.equal(await icon.count(), 1);
      const classes = (await icon.getAttribute('class')).split(/\s+/).filter((c) => c.startsWith('codicon-'));
      assert.deepEqual(classes, [`codicon-${icons[e.toolKind]}`], e.toolKind);
      const badge = card.locator('.tool-head span.badge');
      assert.ok((await badge.getAttribute('class')).split(/\s+/).includes(`badge-${e.status}`));
      assert.equal((await badge.textContent()).trim(), words[e.status]);
      assert.equal(await card.locator('.tool-head span.tool-title').textContent(), e.title);
    }
    // A status change updates the same card.
    await h.render(page, { type: 'entry', index: 0, entry: { ...entries[0], status: 'failed' } });
    assert.equal((await page.locator(`${entry(0)} .badge`).textContent()).trim(), 'Failed');
    assert.equal(await page.locator(`${entry(0)}`).getAttribute('data-status'), 'failed');
  });
});

test('a question the agent withdrew: its options go and "Withdrawn by the agent" shows; a withdrawn form or URL card says so, with nothing to answer', async () => {
  const options = [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }];
  const form = { kind: 'elicitation', requestKey: 'elicitation-1', agentName: 'Fake', message: 'Which port?', title: 'Port', toolCallId: null, fields: [{ name: 'port', title: 'Port', description: null, required: true, type: 'integer' }], state: 'pending' };
  const url = { kind: 'urlElicitation', requestKey: 'elicitation-2', agentName: 'Fake', message: 'Sign in', toolCallId: null, url: 'https://example.com/login', host: 'example.com', warnings: [], state: 'pending' };
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([tool({ status: 'pending', permission: options }), form, url], { status: h.status('prompting') }));
    const card = page.locator(`${entry(0)}.entry-tool`);
    assert.equal(await card.locator('.permission button.option').count(), 2);
    assert.equal(await page.locator(`${entry(1)} form`).count(), 1);
    assert.ok((await page.locator(`${entry(2)} button`).count()) > 0);
    await h.render(page, { type: 'batch', messages: [
      { type: 'entry', index: 0, entry: tool({ status: 'pending', permissionAnswer: { outcome: 'withdrawn' } }) },
      { type: 'entry', index: 1, entry: { ...form, state: 'withdrawn' } },
      { type: 'entry', index: 2, entry: { ...url, state: 'withdrawn' } },
    ] });
    assert.equal(await card.locator('.permission, .permission button').count(), 0, 'nothing left to choose');
    const answer = card.locator('.permission-answer');
    assert.equal(await answer.getAttribute('data-outcome'), 'withdrawn');
    assert.equal((await answer.innerText()).trim(), 'Withdrawn by the agent');
    assert.equal(await answer.locator('.codicon-circle-slash').count(), 1);
    const withdrawnForm = page.locator(`${entry(1)}.entry-elicitation`);
    assert.equal(await withdrawnForm.getAttribute('data-state'), 'withdrawn');
    assert.equal(await withdrawnForm.locator('form, button').count(), 0);
    assert.equal((await withdrawnForm.locator('.badge-elicitation-withdrawn').innerText()).trim(), 'Withdrawn by the agent');
    const withdrawnUrl = page.locator(`${entry(2)}`);
    assert.equal(await withdrawnUrl.getAttribute('data-state'), 'withdrawn');
    assert.equal(await withdrawnUrl.locator('button').count(), 0);
    assert.equal((await withdrawnUrl.locator('.badge-url-withdrawn').innerText()).trim(), 'Withdrawn by the agent');
  });
});

test('a permission answered shows the option chosen, allowed or denied; a card left pending or unfinished by it shows no status badge', async () => {
  const answered = (name, kind) => ({ outcome: 'selected', name, kind });
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      tool({ toolCallId: 'q', status: 'unfinished', permissionAnswer: answered('Allow once', 'allow_once') }),
      tool({ toolCallId: 'r', status: 'pending', permissionAnswer: answered('Reject', 'reject_once') }),
      tool({ toolCallId: 's', status: 'completed', permissionAnswer: answered('Always allow', 'allow_always') }),
      tool({ toolCallId: 't', status: 'unfinished', permissionAnswer: { outcome: 'cancelled' } }),
    ]));
    const answer = (i) => page.locator(`${entry(i)} .permission-answer`);
    const badge = (i) => page.locator(`${entry(i)} .tool-head .badge`);
    assert.equal((await answer(0).textContent()).trim(), 'Allowed: Allow once');
    assert.equal(await badge(0).count(), 0, 'never "Not finished" for a question answered');
    assert.equal((await answer(1).textContent()).trim(), 'Denied: Reject');
    assert.equal(await badge(1).count(), 0);
    assert.equal((await answer(2).textContent()).trim(), 'Allowed: Always allow');
    assert.equal((await badge(2).textContent()).trim(), 'Done', 'the agent said how it ran');
    assert.equal((await answer(3).textContent()).trim(), 'Not answered (cancelled)');
    assert.equal((await badge(3).textContent()).trim(), 'Not finished');
    assert.equal(await page.locator('#transcript .permission').count(), 0, 'nothing asks any more');
  });
});

test('a terminal card: its state, the end of its output as text, scrolled to the end, and a truncation note', async () => {
  await h.withPanel(env, {}, async (page) => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} <b>not html</b>`).join('\n');
    const terminal = (over) => tool({ toolKind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1', output: lines, truncated: false, exitStatus: null, ...over }] });
    await h.render(page, h.snapshot([terminal({})]));
    const card = page.locator(`${entry(0)} .tool-terminal[data-content-index="0"]`);
    assert.equal(await card.locator('.terminal-status').textContent(), 'running\u2026');
    assert.equal(await card.locator('pre.terminal-output').textContent(), lines, 'text, not markup');
    assert.equal(await card.locator('b').count(), 0);
    assert.equal(await card.locator('.terminal-truncated').count(), 0);
    const atEnd = () => card.locator('pre.terminal-output').evaluate((pre) => {
      const box = pre.getBoundingClientRect();
      const last = pre.firstElementChild.getBoundingClientRect();
      return pre.scrollHeight > pre.clientHeight && last.bottom <= box.bottom + 1 && last.bottom >= box.bottom - 40;
    });
    assert.ok(await atEnd(), 'a long output shows its end');
    for (const [exitStatus, text] of [[{ exitCode: 0, signal: null }, 'exit 0'], [{ exitCode: 1, signal: null }, 'exit 1'], [{ exitCode: null, signal: 'SIGTERM' }, 'killed (SIGTERM)']]) {
      await h.render(page, { type: 'entry', index: 0, entry: terminal({ exitStatus, truncated: true, output: `${lines}\nend` }) });
      assert.equal(await card.locator('.terminal-status').textContent(), text);
      assert.equal(await card.locator('.terminal-truncated').textContent(), '\u2026 earlier output truncated');
      assert.ok(await atEnd(), 'still at the end after an update');
    }
  });
});

test('tool content in order: text as markdown, diff (removed lines, truncation "…"), terminal', async () => {
  await h.withPanel(env, {}, async (page) => {
    const diff = { type: 'diff', path: '/w/src/app.ts', isNewFile: false, added: 12, removed: 3, preview: ['-old()', '+new()', '+more()'], previewTruncated: true };
    await h.render(page, h.snapshot([tool({ toolKind: 'edit', content: [{ type: 'text', text: 'Did **it**' }, diff, { type: 'terminal', terminalId: 'term-7', output: 'ok\n', truncated: false, exitStatus: { exitCode: 0, signal: null } }] })]));
    const card = page.locator(entry(0));
    assert.deepEqual(await card.locator('[data-content-index]').evaluateAll((els) => els.map((e) => [e.dataset.contentIndex, e.classList[0]])), [['0', 'tool-text'], ['1', 'tool-diff'], ['2', 'tool-terminal']]);
    assert.equal(await card.locator('.tool-text strong').textContent(), 'it');
    assert.equal(await card.locator('.diff-added').textContent(), '+12');
    assert.equal(await card.locator('.diff-removed').textContent(), '\u22123');
    assert.equal(await card.locator('.diff-new').count(), 0, 'not a new file');
    const lines = card.locator('pre.diff-preview span.diff-line');
    assert.equal(await lines.count(), 3, 'one span per preview line');
    assert.deepEqual(await lines.evaluateAll((ls) => ls.map((l) => l.classList.contains('diff-line-del') ? 'del' : l.classList.contains('diff-line-add') ? 'add' : '?')), ['del', 'add', 'add']);
    assert.equal(await card.locator('pre.diff-preview').evaluate((pre) => pre.lastElementChild.textContent.trim()), '\u2026', 'a trailing "…" line when truncated');
    assert.match(await card.locator('.tool-terminal .terminal-head').textContent(), /Terminal\s+exit 0/);
    // Not truncated: no "…".
    await h.render(page, { type: 'entry', index: 0, entry: tool({ toolKind: 'edit', content: [{ ...diff, previewTruncated: false, isNewFile: true }] }) });
    assert.equal(await card.locator('pre.diff-preview').evaluate((pre) => pre.textContent.includes('\u2026')), false);
    assert.equal(await card.locator('.diff-new').count(), 1, 'new file marker');
  });
});

test('a long tool output is collapsed to a plain preview with "Show all (size)"; expanding survives re-renders and a reload', async () => {
  const long = Array.from({ length: 60 }, (_, i) => `line ${i} **bold**`).join('\n'); // > 40 lines, < 4,000 chars
  const big = 'y'.repeat(12 * 1024); // > 4,000 chars, one line
  const entries = [tool({ content: [{ type: 'text', text: long }, { type: 'text', text: 'short **one**' }, { type: 'text', text: big }] })];
  let state;
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(entries));
    const text = (i) => page.locator(`${entry(0)} .tool-text[data-content-index="${i}"]`);
    assert.equal(await text(0).evaluate((el) => el.classList.contains('collapsed')), true, 'over 40 lines: collapsed');
    assert.equal(await text(1).evaluate((el) => el.classList.contains('collapsed')), false, 'short: not collapsed');
    assert.equal(await text(2).evaluate((el) => el.classList.contains('collapsed')), true, 'over 4,000 chars: collapsed');
    assert.equal(await text(0).locator('pre').count(), 1, 'the preview is a plain pre');
    assert.equal(await text(0).locator('strong').count(), 0, 'the preview is not markdown');
    assert.ok((await text(2).locator('pre').textContent()).length <= 2000, 'at most 2,000 characters shown');
    assert.match((await text(2).locator('button.expand').textContent()).trim(), /^Show all \(12 KB\)$/);
    assert.match((await text(0).locator('button.expand').textContent()).trim(), /^Show all \(.+\)$/);
    await text(0).locator('button.expand').click();
    await h.waitForFrame(page);
    assert.equal(await text(0).evaluate((el) => el.classList.contains('collapsed')), false, 'expanded');
    assert.equal(await text(0).locator('strong').count(), 60, 'expanded: markdown (under 100,000 characters)');
    // The entry is re-rendered (its status changes): the output stays expanded, the other stays collapsed.
    await h.render(page, { type: 'entry', index: 0, entry: { ...entries[0], status: 'failed' } });
    assert.equal(await text(0).evaluate((el) => el.classList.contains('collapsed')), false, 'still expanded after a re-render');
    assert.equal(await text(2).evaluate((el) => el.classList.contains('collapsed')), true);
    state = await page.evaluate(() => window.__getState());
    assert.ok(state, 'presentation state saved with setState');
  });
  // A reload (VS Code hands getState back) keeps the expansion.
  await h.withPanel(env, { state }, async (page) => {
    await h.render(page, h.snapshot(entries));
    assert.equal(await page.locator(`${entry(0)} .tool-text[data-content-index="0"]`).evaluate((el) => el.classList.contains('collapsed')), false, 'expanded after reload');
    assert.equal(await page.locator(`${entry(0)} .tool-text[data-content-index="2"]`).evaluate((el) => el.classList.contains('collapsed')), true);
  });
});

test('a thought starts closed, stays open across appends and re-renders once opened, and after a reload', async () => {
  const entries = [{ kind: 'user', text: 'q' }, { kind: 'thought', text: 'Thinking about *it*' }, { kind: 'agent', text: 'answer' }];
  let state;
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(entries));
    const details = page.locator(`${entry(1)} details`);
    assert.equal(await details.evaluate((d) => d.open), false);
    assert.equal((await details.locator('summary').textContent()).trim(), 'Thinking');
    await details.locator('summary').click();
    assert.equal(await details.evaluate((d) => d.open), true);
    await h.render(page, { type: 'append', index: 1, text: ' and more' });
    assert.equal(await page.locator(`${entry(1)} details`).evaluate((d) => d.open), true, 'open after an append');
    assert.match(await page.locator(`${entry(1)} .markdown`).textContent(), /Thinking about it and more/);
    await h.render(page, { type: 'entry', index: 1, entry: { kind: 'thought', text: 'Replaced' } });
    assert.equal(await page.locator(`${entry(1)} details`).evaluate((d) => d.open), true, 'open after a replacement');
    await h.render(page, h.snapshot([...entries.slice(0, 1), { kind: 'thought', text: 'Replaced' }, entries[2]]));
    assert.equal(await page.locator(`${entry(1)} details`).evaluate((d) => d.open), true, 'open after a snapshot');
    state = await page.evaluate(() => window.__getState());
  });
  await h.withPanel(env, { state }, async (page) => {
    await h.render(page, h.snapshot(entries));
    assert.equal(await page.locator(`${entry(1)} details`).evaluate((d) => d.open), true, 'open after a reload');
  });
});

test('header: status, title, usage with cost and exact numbers, crash detail', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await page.locator('#status').getAttribute('role'), 'status');
    assert.equal(await page.locator('#status').textContent(), 'Demo agent: ready');
    assert.equal(await page.locator('#title').isVisible(), false, 'title hidden when null');
    assert.equal(await page.locator('#usage').isVisible(), false, 'usage hidden when null');
    assert.equal(await page.locator('#detail').isVisible(), false, 'detail hidden when absent');
    await h.render(page, { type: 'session', session: h.session({ title: 'Fix the build', usage: { used: 12345, size: 200000, cost: { amount: 0.42, currency: 'USD' } } }) });
    assert.equal(await page.locator('#title').isVisible(), true);
    assert.equal(await page.locator('#title').textContent(), 'Fix the build');
    assert.equal(await page.locator('#usage').isVisible(), true);
    const usage = await page.locator('#usage').textContent();
    assert.match(usage, /^12\.3k \/ 200k tokens · \$0\.42$/);
    const title = await page.locator('#usage').getAttribute('title');
    assert.match(title ?? '', /12[,.\u202f ]?345/, 'exact used tokens in the tooltip');
    assert.match(title ?? '', /200[,.\u202f ]?000/, 'exact size in the tooltip');
    await h.render(page, { type: 'session', session: h.session({ usage: { used: 900, size: 128000, cost: null } }) });
    assert.match(await page.locator('#usage').textContent(), /^900 \/ 128k tokens$/);
    assert.equal(await page.locator('#title').isVisible(), false, 'title hidden again when null');
    const detail = 'Demo agent exited with code 3.\nLast lines of its stderr:\nTypeError: x is not a function';
    await h.render(page, { type: 'status', status: h.status('crashed', { detail }) });
    assert.match(await page.locator('#status').textContent(), /^Demo agent: /);
    assert.equal(await page.locator('pre#detail').isVisible(), true);
    assert.equal(await page.locator('pre#detail').textContent(), detail);
    await h.render(page, { type: 'status', status: h.status('starting') });
    assert.equal(await page.locator('#detail').isVisible(), false);
  });
});

test('a cost in any currency string does not break the header', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ usage: { used: 10, size: 100, cost: { amount: 1.5, currency: 'not a currency' } } }) }));
    await h.render(page, { type: 'entry', index: 0, entry: { kind: 'user', text: 'still alive' } });
    assert.equal(await page.locator(`${entry(0)} .text`).textContent(), 'still alive');
    assert.match(await page.locator('#usage').textContent(), /10 \/ 100 tokens/);
    assert.match(await page.locator('#usage').textContent(), /1\.5/);
  });
});

test('a message failing HostToViewSchema is ignored with a warning; the next valid one applies', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'one' }]));
    const bad = [
      { type: 'entry', index: -1, entry: { kind: 'user', text: 'negative index' } },
      { type: 'entry', index: 1, entry: { kind: 'user' } },
      { type: 'entry', index: 1, entry: { kind: 'bogus', text: 'unknown kind' } },
      { type: 'append', index: 0, text: 42 },
      { type: 'snapshot', entries: [] },
      { type: 'nope' },
      { type: 'batch', messages: [{ type: 'append', index: 0, text: ' batched' }, { type: 'entry', index: 0 }] },
      null,
      'a string',
      42,
      [],
      { type: 'status', status: { agentName: 'X', phase: 'dancing' } },
    ];
    for (const m of bad) assert.equal(h.protocol().HostToViewSchema.safeParse(m).success, false, JSON.stringify(m));
    await h.sendRaw(page, ...bad);
    await h.waitForFrame(page);
    assert.deepEqual(page.__log.pageErrors, []);
    assert.equal(await page.locator(h.ENTRIES).count(), 1, 'nothing applied');
    assert.equal(await page.locator(`${entry(0)} .text`).textContent(), 'one', 'not even the valid half of a batch');
    assert.equal(await page.locator('#status').textContent(), 'Demo agent: ready');
    assert.ok(page.__log.consoleWarnings.length >= 1, 'invalid messages are warned about');
    await h.render(page, { type: 'batch', messages: [{ type: 'append', index: 0, text: ' two' }, { type: 'entry', index: 1, entry: { kind: 'agent', text: '**ok**' } }] });
    assert.equal(await page.locator(`${entry(0)} .text`).textContent(), 'one two');
    assert.equal(await page.locator(`${entry(1)} .markdown strong`).textContent(), 'ok');
  });
});

test('a batch is applied in order, in one frame', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    await h.render(page, { type: 'batch', messages: [
      { type: 'entry', index: 0, entry: { kind: 'agent', text: 'a' } },
      { type: 'append', index: 0, text: 'b' },
      { type: 'entry', index: 1, entry: { kind: 'user', text: 'u' } },
      { type: 'append', index: 0, text: 'c' },
      { type: 'status', status: h.status('prompting') },
      { type: 'session', session: h.session({ title: 'T' }) },
    ] });
    assert.equal(await page.locator(`${entry(0)} .markdown`).textContent().then((t) => t.trim()), 'abc');
    assert.equal(await page.locator(`${entry(1)} .text`).textContent(), 'u');
    assert.equal(await page.locator('#stop').isVisible(), true);
    assert.equal(await page.locator('#title').textContent(), 'T');
  });
});

test('a numbered post is answered rendered with its number once its text is in the DOM; an unnumbered one is not answered', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    await h.clearPosted(page);
    // The answer is checked against the DOM at the moment it is posted, not after.
    await page.evaluate(() => {
      window.__toHost = (m) => {
        if (m.type === 'rendered') window.__answers = [...(window.__answers ?? []), [m.seq, document.getElementById('transcript').textContent.includes('streamed now')]];
      };
    });
    await h.send(page, { type: 'batch', seq: 7, messages: [{ type: 'entry', index: 0, entry: { kind: 'agent', text: 'streamed now' } }] });
    await h.send(page, { type: 'append', index: 0, text: ' and more' });
    await h.send(page, { ...h.snapshot([{ kind: 'agent', text: 'streamed now, again' }]), seq: 8 });
    assert.deepEqual(await page.evaluate(() => window.__answers), [[7, true], [8, true]]);
    assert.deepEqual((await h.posted(page)).map((m) => m.type), ['rendered', 'rendered']);
  });
});

test('scroll sticks to the bottom while the user is there, and does not yank them down after they scrolled up', async () => {
  await h.withPanel(env, { viewport: { width: 420, height: 500 } }, async (page) => {
    const entries = Array.from({ length: 60 }, (_, i) => ({ kind: i % 2 ? 'agent' : 'user', text: `Message ${i}\n\nwith a second paragraph` }));
    await h.render(page, h.snapshot(entries));
    const metrics = () => page.locator('#transcript').evaluate((t) => ({ top: t.scrollTop, gap: t.scrollHeight - t.scrollTop - t.clientHeight, scrollable: t.scrollHeight > t.clientHeight + 100 }));
    assert.equal((await metrics()).scrollable, true, 'the transcript scrolls');
    assert.ok((await metrics()).gap <= 40, `at the bottom after the snapshot (gap ${(await metrics()).gap})`);
    for (let i = 0; i < 5; i++) await h.render(page, { type: 'append', index: 59, text: '\n\nmore text streamed in, line after line' });
    await h.render(page, { type: 'entry', index: 60, entry: { kind: 'turnEnd', stopReason: 'end_turn' } });
    assert.ok((await metrics()).gap <= 40, `still at the bottom while streaming (gap ${(await metrics()).gap})`);
    await page.locator('#transcript').evaluate((t) => { t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); });
    await h.waitForFrame(page);
    await h.render(page, { type: 'entry', index: 61, entry: { kind: 'user', text: 'new prompt' } });
    for (let i = 0; i < 5; i++) await h.render(page, { type: 'append', index: 61, text: ' more' });
    assert.equal((await metrics()).top, 0, 'not yanked down');
  });
});

test('a tool card: its name small beside the title, its raw input and output collapsed; opened they stay open across re-renders and a reload', async () => {
  const input = '{\n  "command": "npm test",\n  "token": "••••"\n}';
  const entries = [tool({ title: 'Run the tests', name: 'bash', rawInput: input, rawOutput: '{\n  "exitCode": 0\n}' }), tool({ toolCallId: 'plain' })];
  let state;
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot(entries));
    const card = page.locator(entry(0));
    assert.deepEqual(await card.locator('.tool-head > span:not(.codicon)').allTextContents(), ['Run the tests', 'bash', 'Done'], 'title, name, badge in that order');
    assert.equal(await card.locator('.tool-name').evaluate((el) => getComputedStyle(el).fontFamily.includes('Mono')), true, 'the name is monospace');
    const raw = (part) => card.locator(`details.tool-raw[data-part="${part}"]`);
    assert.deepEqual(await card.locator('details.tool-raw > summary').allTextContents(), ['Input', 'Output']);
    assert.equal(await raw('input').evaluate((d) => d.open), false, 'collapsed by default');
    assert.equal(await raw('output').evaluate((d) => d.open), false);
    assert.equal(await raw('input').locator('pre.raw-json').textContent(), input, 'the JSON text as it came, in a pre');
    assert.equal(await page.locator(`${entry(1)} details, ${entry(1)} .tool-name`).count(), 0, 'nothing of it when the agent sent none');

    await raw('input').locator('summary').click();
    assert.equal(await raw('input').evaluate((d) => d.open), true);
    await h.render(page, { type: 'entry', index: 0, entry: { ...entries[0], status: 'failed' } });
    assert.equal(await raw('input').evaluate((d) => d.open), true, 'still open after a re-render');
    assert.equal(await raw('output').evaluate((d) => d.open), false, 'the other one stays closed');
    state = await page.evaluate(() => window.__getState());
  });
  await h.withPanel(env, { state }, async (page) => {
    await h.render(page, h.snapshot(entries));
    assert.equal(await page.locator(`${entry(0)} details[data-part="input"]`).evaluate((d) => d.open), true, 'open after a reload');
    assert.equal(await page.locator(`${entry(0)} details[data-part="output"]`).evaluate((d) => d.open), false);
  });
});

test('a turn end shows the tokens, cost and quota the agent reported, as plain text', async () => {
  const usage = {
    tokens: { total: 1234, input: 1000, output: 234, thought: 50, cachedRead: null, cachedWrite: 7 },
    cost: { amount: 0.42, currency: 'USD' },
    quota: [{ label: 'used', value: 10 }, { label: 'limit', value: 1000 }, { label: 'resetsAt', value: '2025-06-01' }],
  };
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      { kind: 'turnEnd', stopReason: 'end_turn', usage },
      { kind: 'turnEnd', stopReason: 'max_tokens', usage: { tokens: null, cost: null, quota: [{ label: 'remaining', value: 0 }] } },
      { kind: 'turnEnd', stopReason: 'end_turn' },
    ]));
    assert.equal(await page.locator(`${entry(0)} .turn-usage`).textContent(), '1,234 tokens (in 1,000 · out 234 · thinking 50 · cache write 7) · $0.42 · quota: used 10 · limit 1,000 · resetsAt 2025-06-01');
    assert.equal(await page.locator(entry(0)).textContent(), 'Turn ended. 1,234 tokens (in 1,000 · out 234 · thinking 50 · cache write 7) · $0.42 · quota: used 10 · limit 1,000 · resetsAt 2025-06-01');
    assert.equal(await page.locator(`${entry(1)} .turn-usage`).textContent(), 'quota: remaining 0');
    assert.equal(await page.locator(`${entry(2)} .turn-usage`).count(), 0, 'no usage, nothing added');
    assert.equal(await page.locator(entry(2)).textContent(), 'Turn ended.');
  });
});

test('the header shows the quota an agent put in a usage update', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ usage: { used: 500, size: 1000, cost: null, quota: [{ label: 'requests.remaining', value: 42 }] } }) }));
    assert.equal(await page.locator('#usage').textContent(), '500 / 1k tokens · quota: requests.remaining 42');
    assert.match(await page.locator('#usage').getAttribute('title'), /quota: requests\.remaining 42$/);
  });
});

test('notices: title and description as text, the severity’s icon and colour; an error one is an alert', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      { kind: 'notice', severity: 'info', title: 'Switched to a smaller model', description: null },
      { kind: 'notice', severity: 'warning', title: 'Rate limit near', description: '80% of this hour’s requests are used.\n**not markdown**' },
      { kind: 'notice', severity: 'error', title: 'Model unavailable', description: 'Retry later.' },
    ]));
    const icons = await page.locator('#transcript .entry-notice .notice-icon').evaluateAll((els) => els.map((el) => [...el.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon')));
    assert.deepEqual(icons, ['codicon-info', 'codicon-warning', 'codicon-error']);
    assert.equal(await page.locator(`${entry(1)} .notice-title`).textContent(), 'Rate limit near');
    assert.equal(await page.locator(`${entry(1)} .notice-description`).textContent(), '80% of this hour’s requests are used.\n**not markdown**');
    assert.equal(await page.locator(`${entry(0)} .notice-description`).count(), 0);
    assert.equal(await page.locator(`${entry(2)}`).getAttribute('role'), 'alert');
    assert.equal(await page.locator(`${entry(1)}`).getAttribute('role'), null);
    const bars = await page.locator('#transcript .entry-notice').evaluateAll((els) => els.map((el) => getComputedStyle(el).borderLeftColor));
    assert.equal(new Set(bars).size, 3, `each severity its own colour: ${bars}`);
  });
});

test('a compaction: its status in words (a custom one verbatim), the error, and the summary collapsed as markdown', async () => {
  const compaction = (over) => ({ kind: 'compaction', compactionId: 'c', status: 'completed', summary: '', error: null, ...over });
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      compaction({ status: 'in_progress' }),
      compaction({ summary: 'Fixed **the cart**.' }),
      compaction({ status: 'failed', error: 'The summary model timed out.' }),
      compaction({ status: 'cancelled' }),
      compaction({ status: '_acme_paused' }),
    ]));
    assert.deepEqual(await page.locator('#transcript .compaction-label').allTextContents(), [
      'Compacting context…', 'Context compacted', 'Context compaction failed', 'Context compaction cancelled', 'Context compaction: _acme_paused',
    ]);
    assert.equal(await page.locator(`${entry(2)} .compaction-error`).textContent(), 'The summary model timed out.');
    const summary = page.locator(`${entry(1)} details[data-part="summary"]`);
    assert.equal(await summary.evaluate((d) => d.open), false, 'collapsed');
    assert.equal(await summary.locator('summary').textContent(), 'Summary');
    assert.equal(await summary.locator('.markdown strong').textContent(), 'the cart');
    assert.equal(await page.locator(`${entry(0)} details`).count(), 0, 'no summary, no disclosure');
    await summary.locator('summary').click();
    await h.render(page, { type: 'entry', index: 1, entry: compaction({ summary: 'Fixed **the cart**. And more.' }) });
    assert.equal(await page.locator(`${entry(1)} details`).evaluate((d) => d.open), true, 'stays open as the summary grows');
  });
});

test('plans by id: items as a plan shows them, markdown, a file as a link the host opens, and a note once removed', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      { kind: 'planById', planId: 'p1', content: { type: 'items', entries: [{ content: 'Read', priority: 'high', status: 'completed' }, { content: 'Fix', priority: 'low', status: 'pending' }] } },
      { kind: 'planById', planId: 'p2', content: { type: 'markdown', text: '1. **first**\n2. second' } },
      { kind: 'planById', planId: 'p3', content: { type: 'file', uri: 'file:///w/PLAN.md' } },
      { kind: 'planById', planId: 'p4', content: null },
      { kind: 'planById', planId: 'p5', content: { type: 'file', uri: 'javascript:alert(1)' } },
    ]));
    assert.equal(await page.locator(`${entry(0)} .plan-progress`).textContent(), '1/2 done');
    assert.deepEqual(await page.locator(`${entry(0)} .plan-text`).allTextContents(), ['Read', 'Fix']);
    assert.equal(await page.locator(`${entry(1)} .markdown ol li`).count(), 2);
    assert.equal(await page.locator(`${entry(1)} .markdown strong`).textContent(), 'first');
    assert.equal(await page.locator(`${entry(3)} .plan-title`).textContent(), 'Plan removed');
    assert.equal(await page.locator(`${entry(3)}`).getAttribute('data-removed'), 'true');
    assert.equal(await page.locator(`${entry(4)} a`).count(), 0, 'an unsafe URI stays text');
    assert.equal(await page.locator(`${entry(4)} .plan-file`).textContent(), 'javascript:alert(1)');
    await h.clearPosted(page);
    await page.locator(`${entry(2)} a.plan-file`).click();
    assert.deepEqual((await h.posted(page)).filter((m) => m.type === 'openLink'), [{ type: 'openLink', href: 'file:///w/PLAN.md' }]);
  });
});

// A subagent's tool calls (the host nests them from the agent's `_meta`, test/unit/subagents.test.ts).
test('a subagent\'s tool call is nested under the call that started it, with its own status', async () => {
  const hostile = '<img src=x onerror="window.__pwned=1">';
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      tool({ toolCallId: 'toolu_task', title: 'Explore the tests', name: 'Agent', toolKind: 'think', status: 'in_progress' }),
      tool({ toolCallId: 'toolu_read', title: 'Read test/a.ts', name: 'Read', toolKind: 'read', status: 'completed', parentToolCallId: 'toolu_task' }),
      tool({ toolCallId: 'toolu_grep', title: 'grep', name: 'Grep', toolKind: 'search', status: 'failed', parentToolCallId: hostile }),
    ]));
    const parent = page.locator(entry(0));
    const child = page.locator(entry(1));
    assert.equal(await page.locator('#transcript .tool-nested').count(), 2, 'the two calls of the subagent are nested, the call that started it is not');
    const nested = page.locator(`${entry(1)} [data-parent-tool-call-id="toolu_task"], ${entry(1)}[data-parent-tool-call-id="toolu_task"]`);
    assert.equal(await nested.count(), 1);
    assert.equal(await child.locator('.badge').textContent(), 'Done');
    assert.equal(await page.locator(entry(2)).locator('.badge').textContent(), 'Failed');
    const left = async (loc) => loc.evaluate((el) => (el.querySelector('.tool-head') ?? el).getBoundingClientRect().left);
    assert.ok(await left(child) > await left(parent), 'the child is indented under its parent');
    assert.equal(await page.locator('#transcript img').count(), 0, 'the parent id is never markup');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });
});
