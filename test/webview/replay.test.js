// The recorded demo session (test/webview/record.js: the real demo agent through the real
// AgentSession and ViewFeed) replayed into the webview one post at a time, as the host sends
// it: what the user sees, and that the panel is a projection (snapshot == the patches before it).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const h = require('./harness');

const FIXTURE = require(path.join(h.REPO, 'test/fixtures/webview/demo-session.json'));
const FINAL = FIXTURE.at(-1);
const PATCHES = FIXTURE.slice(0, -1);

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const { entry } = h;

test('the fixture is valid HostToView, and its patches add up to its final snapshot', () => {
  assert.equal(FINAL.type, 'snapshot');
  let state = null;
  for (const message of FIXTURE) assert.ok(h.protocol().HostToViewSchema.safeParse(message).success, JSON.stringify(message).slice(0, 200));
  for (const message of PATCHES) state = h.reduce(state, message);
  assert.deepEqual(state.entries, FINAL.entries);
  assert.deepEqual(state.status, FINAL.status);
  assert.deepEqual(state.session, FINAL.session);
  assert.ok(!JSON.stringify(FIXTURE).includes('/tmp/'), 'workspace paths are stable');
});

test('replaying the recorded session renders the transcript as the contract describes', async () => {
  await h.withPanel(env, {}, async (page) => {
    let state = null;
    let sawPermission = false;
    for (const message of PATCHES) {
      await h.send(page, message);
      await h.waitForFrame(page, 1);
      state = h.reduce(state, message);
      const waiting = state.entries.find((e) => e.kind === 'tool' && e.permission);
      if (waiting && !sawPermission) {
        sawPermission = true;
        await h.waitForFrame(page);
        // The permission chooser while it is pending, with one button per option.
        const idx = state.entries.indexOf(waiting);
        const group = page.locator(`${entry(idx)} .permission[role="group"]`);
        assert.equal(await group.getAttribute('aria-label'), `Permission: ${waiting.title}`);
        const buttons = group.locator('button.option');
        assert.equal(await buttons.count(), waiting.permission.length);
        const icon = { allow_once: 'codicon-check', allow_always: 'codicon-check-all', reject_once: 'codicon-close', reject_always: 'codicon-circle-slash' };
        for (const [i, option] of waiting.permission.entries()) {
          const b = buttons.nth(i);
          assert.equal(await b.getAttribute('data-option-id'), option.optionId);
          assert.equal(await b.getAttribute('data-option-kind'), option.kind);
          assert.equal(await b.getAttribute('data-tool-call-id'), waiting.toolCallId);
          assert.ok((await b.getAttribute('class')).split(/\s+/).includes(`option-${option.kind}`));
          assert.equal((await b.textContent()).trim(), option.name);
          assert.equal(await b.locator(`.codicon.${icon[option.kind]}`).count(), 1, `${option.kind} icon`);
        }
        // The plan as it stood then: n of m done.
        const plan = state.entries.find((e) => e.kind === 'plan');
        const done = plan.entries.filter((e) => e.status === 'completed').length;
        assert.match(await page.locator('#transcript .entry-plan').textContent(), new RegExp(`(^|\\D)${done}/${plan.entries.length} done`));
        assert.equal(await page.locator('#stop').isVisible(), true, 'Stop shows while prompting');
        assert.equal(await page.locator('#send').isVisible(), false, 'Send hides while prompting');
      }
    }
    assert.ok(sawPermission, 'the fixture has a pending permission');
    await h.waitForFrame(page);

    const entries = FINAL.entries;
    const count = await page.locator(h.ENTRIES).count();
    assert.equal(count, entries.length, 'one element per entry');
    for (const [i, e] of entries.entries()) {
      const el = page.locator(h.ENTRIES).nth(i);
      assert.equal(await el.getAttribute('data-index'), String(i), 'entries in index order');
      assert.equal(await el.getAttribute('data-kind'), e.kind);
      assert.ok((await el.getAttribute('class')).split(/\s+/).includes(`entry-${e.kind}`));
    }

    // User prompts: plain text.
    const users = page.locator(`${h.ENTRIES}.entry-user .text`);
    assert.deepEqual(await users.allTextContents(), ['hello', '/help']);

    // Agent markdown: real elements.
    const agentIdx = entries.findIndex((e) => e.kind === 'agent' && e.text.startsWith('## Demo agent'));
    assert.equal(await page.locator(`${entry(agentIdx)} .markdown h2`).textContent(), 'Demo agent');
    assert.equal((await page.locator(`${entry(agentIdx)} .markdown blockquote`).textContent()).trim(), 'hello');
    assert.equal(await page.locator(`${entry(agentIdx)} .markdown strong`).first().textContent(), 'Ask');
    assert.ok(!(await page.locator(`${entry(agentIdx)} .markdown`).textContent()).includes('##'), 'markdown syntax is not shown raw');
    const helpIdx = entries.findIndex((e, i) => e.kind === 'agent' && i > entries.findIndex((u) => u.kind === 'user' && u.text === '/help'));
    assert.deepEqual(await page.locator(`${entry(helpIdx)} .markdown li code`).allTextContents(), ['/help', '/plan <task to plan>']);

    // The thought: collapsed, "Thinking".
    const thought = page.locator(`${h.ENTRIES}.entry-thought details`);
    assert.equal(await thought.count(), 1);
    assert.equal(await thought.evaluate((d) => d.open), false, 'thoughts start collapsed');
    assert.equal((await thought.locator('summary').textContent()).trim(), 'Thinking');
    assert.equal(await thought.locator('.markdown').count(), 1);

    // Tool cards: icon per kind, badge words, fenced code as pre > code.language-xxx.
    const icons = { read: 'book', edit: 'edit', search: 'search', execute: 'terminal' };
    const words = { pending: 'Pending', in_progress: 'Running', completed: 'Done', failed: 'Failed', unfinished: 'Not finished' };
    const tools = entries.map((e, i) => [e, i]).filter(([e]) => e.kind === 'tool');
    assert.ok(tools.length >= 3);
    for (const [tool, i] of tools) {
      const card = page.locator(entry(i));
      assert.equal(await card.getAttribute('data-tool-call-id'), tool.toolCallId);
      assert.equal(await card.getAttribute('data-status'), tool.status);
      assert.equal(await card.getAttribute('data-tool-kind'), tool.toolKind);
      assert.equal(await card.locator(`.tool-head .codicon.tool-icon.codicon-${icons[tool.toolKind]}`).count(), 1, `${tool.toolKind} icon`);
      assert.equal(await card.locator('.tool-head .tool-title').textContent(), tool.title);
      assert.equal((await card.locator(`.tool-head .badge.badge-${tool.status}`).textContent()).trim(), words[tool.status]);
      assert.equal(await card.locator('.permission').count(), 0, 'the chooser is gone once answered');
    }
    const listIdx = entries.findIndex((e) => e.kind === 'tool' && e.toolKind === 'search');
    const code = page.locator(`${entry(listIdx)} .tool-text pre > code.language-console`);
    assert.equal(await code.count(), 1);
    assert.match(await code.textContent(), /\$ ls -p\nREADME\.md\nnotes\.txt\nsrc\/\n?/);

    // Locations of the read call.
    const readIdx = entries.findIndex((e) => e.kind === 'tool' && e.toolKind === 'read');
    const loc = page.locator(`${entry(readIdx)} .tool-locations a.tool-location`);
    assert.equal(await loc.count(), 1);
    assert.equal(await loc.getAttribute('href'), '#');
    assert.equal(await loc.getAttribute('data-path'), '/workspace/README.md');
    assert.equal(await loc.getAttribute('data-line'), '1');
    assert.match(await loc.textContent(), /README\.md:1$/);

    // The diff card.
    const editIdx = entries.findIndex((e) => e.kind === 'tool' && e.toolKind === 'edit');
    const diff = entries[editIdx].content.find((c) => c.type === 'diff');
    const contentIndex = entries[editIdx].content.indexOf(diff);
    const card = page.locator(`${entry(editIdx)} .tool-diff[data-content-index="${contentIndex}"]`);
    assert.equal(await card.count(), 1);
    assert.equal(await card.locator('.diff-summary .diff-path').getAttribute('title'), diff.path, 'the full path in the tooltip');
    assert.equal(await card.locator('.diff-summary .diff-path').textContent(), diff.path.split('/').length > 3 ? diff.path.split('/').slice(-2).join('/') : diff.path, 'at most its last two segments shown');
    assert.equal(await card.locator('.diff-summary .diff-added').textContent(), `+${diff.added}`);
    assert.equal(await card.locator('.diff-summary .diff-removed').textContent(), `\u2212${diff.removed}`);
    assert.equal(await card.locator('.diff-summary .diff-new').count(), diff.isNewFile ? 1 : 0);
    assert.equal((await card.locator('button.open-diff').textContent()).trim(), 'Open diff');
    const lines = card.locator('pre.diff-preview span.diff-line');
    assert.equal(await lines.count(), diff.preview.length);
    assert.equal(await card.locator('pre.diff-preview').evaluate((pre) => pre.lastElementChild.textContent.trim() === '\u2026'), diff.previewTruncated);
    for (const [i, line] of diff.preview.entries()) {
      const span = lines.nth(i);
      assert.ok((await span.getAttribute('class')).split(/\s+/).includes(line.startsWith('+') ? 'diff-line-add' : 'diff-line-del'));
      const text = (await span.textContent()).replace(/\n$/, '');
      assert.ok(text === line || text === line.slice(1), `preview line ${i}: ${JSON.stringify(text)} vs ${JSON.stringify(line)}`);
    }

    // The plan, all done.
    const plan = entries.find((e) => e.kind === 'plan');
    const items = page.locator(`${h.ENTRIES}.entry-plan ul.plan > li`);
    assert.equal(await items.count(), plan.entries.length);
    for (const [i, p] of plan.entries.entries()) {
      assert.equal(await items.nth(i).getAttribute('data-status'), p.status);
      assert.equal(await items.nth(i).getAttribute('data-priority'), p.priority);
      assert.equal(await items.nth(i).locator('.plan-text').textContent(), p.content);
      assert.equal(await items.nth(i).locator('.codicon.codicon-pass-filled').count(), 1);
    }
    assert.match(await page.locator(`${h.ENTRIES}.entry-plan`).textContent(), /Plan/);
    assert.match(await page.locator(`${h.ENTRIES}.entry-plan`).textContent(), new RegExp(`(^|\\D)${plan.entries.length}/${plan.entries.length} done`));

    // Turn ends.
    assert.deepEqual(await page.locator('#transcript [data-stop-reason="end_turn"]').allTextContents(), ['Turn ended.', 'Turn ended.']);

    // Header and composer after the turn.
    assert.equal(await page.locator('#status').textContent(), 'Demo agent: ready');
    if (FINAL.session.title === null) assert.equal(await page.locator('#title').isVisible(), false, 'no title');
    else assert.equal(await page.locator('#title').textContent(), FINAL.session.title);
    assert.match(await page.locator('#usage').textContent(), /1\.5k \/ 200k tokens/);
    assert.equal(await page.locator('#stop').isVisible(), false);
    assert.equal(await page.locator('#send').isVisible(), true);
    assert.equal(await page.locator('#restart').isVisible(), true);
    assert.equal(await page.locator('#start').isVisible(), false);
    // The demo agent has config options (so no legacy modes).
    assert.equal(await page.locator('#mode').isVisible(), false);
    assert.deepEqual(await page.locator('#pickers select.config').evaluateAll((s) => s.map((x) => x.dataset.configId)), ['mode', 'model']);
    assert.equal(await page.locator('#pickers label.config input[type="checkbox"][data-config-id="verbose"]').count(), 1);

    // Snapshot == patches: a fresh page fed only the final snapshot shows the same DOM.
    const incremental = {
      transcript: await h.domSignature(page, '#transcript'),
      header: await h.domSignature(page, 'header.bar'),
      pickers: await h.domSignature(page, '#pickers'),
      queue: await h.domSignature(page, '#queue'),
    };
    await h.withPanel(env, {}, async (fresh) => {
      await h.render(fresh, FINAL);
      assert.equal(await h.domSignature(fresh, '#transcript'), incremental.transcript, 'transcript: snapshot == patches');
      assert.equal(await h.domSignature(fresh, 'header.bar'), incremental.header, 'header: snapshot == patches');
      assert.equal(await h.domSignature(fresh, '#pickers'), incremental.pickers, 'pickers: snapshot == patches');
      assert.equal(await h.domSignature(fresh, '#queue'), incremental.queue, 'queue: snapshot == patches');
    });
    // And the same snapshot again on the replayed page changes nothing.
    await h.render(page, FINAL);
    assert.equal(await h.domSignature(page, '#transcript'), incremental.transcript, 'a repeated snapshot changes nothing');
    assert.deepEqual(page.__log.dialogs, []);
    assert.deepEqual(page.__log.externalRequests, []);
  });
});

test('loading the panel and replaying the session raises no CSP violation and logs no error', async () => {
  await h.withPanel(env, {}, async (page) => {
    for (const message of FIXTURE) await h.send(page, message);
    await h.waitForFrame(page);
    assert.deepEqual(await h.cspViolations(page), [], 'CSP violations (a library probing eval counts: in VS Code it logs an error)');
    assert.deepEqual(page.__log.consoleErrors, [], 'console errors');
    assert.deepEqual(page.__log.consoleWarnings, [], 'console warnings');
    assert.deepEqual(page.__log.externalRequests, []);
    // Codicons come from the local stylesheet and font.
    const served = env.server.served;
    assert.ok(served.includes('/media/codicons/codicon.css'), 'codicon.css requested');
    const font = await page.evaluate(() => getComputedStyle(document.querySelector('.codicon')).fontFamily);
    assert.match(font, /codicon/);
  });
});
