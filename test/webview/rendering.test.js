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

test('a question the agent withdrew: its options go, "Withdrawn by the agent" shows instead; a withdrawn form says so and has no form', async () => {
  const options = [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }];
  const form = { kind: 'elicitation', requestKey: 'elicitation-1', agentName: 'Fake', message: 'Which port?', title: 'Port', toolCallId: null, fields: [{ name: 'port', title: 'Port', description: null, required: true, type: 'integer' }], state: 'pending' };
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([tool({ status: 'pending', permission: options }), form], { status: h.status('prompting') }));
    const card = page.locator(`${entry(0)}.entry-tool`);
    assert.equal(await card.locator('.permission button.option').count(), 2);
    assert.equal(await card.locator('.permission-withdrawn').count(), 0);
    assert.equal(await page.locator(`${entry(1)} form`).count(), 1);
    await h.render(page, { type: 'batch', messages: [
      { type: 'entry', index: 0, entry: tool({ status: 'pending', permissionWithdrawn: true }) },
      { type: 'entry', index: 1, entry: { ...form, state: 'withdrawn' } },
    ] });
    assert.equal(await card.locator('button').count(), 0, 'nothing left to click');
    assert.equal((await card.locator('.permission-withdrawn').innerText()).trim(), 'Withdrawn by the agent');
    assert.equal(await card.locator('.permission-withdrawn .codicon-circle-slash').count(), 1);
    const withdrawnForm = page.locator(`${entry(1)}.entry-elicitation`);
    assert.equal(await withdrawnForm.getAttribute('data-state'), 'withdrawn');
    assert.equal(await withdrawnForm.locator('form, button').count(), 0);
    assert.equal((await withdrawnForm.locator('.badge-elicitation-withdrawn').innerText()).trim(), 'Withdrawn by the agent');
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
