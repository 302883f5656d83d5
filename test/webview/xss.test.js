// Hostile text from an agent through every field the panel shows: markdown, user text, thought,
// tool titles and outputs, diff paths and lines, locations, plans, permission options, commands,
// modes, config options, the session title, errors, the status. Then every link and button is
// clicked. Nothing may run (window.__xss), open a dialog, violate the CSP, reach the network,
// navigate, or leave an active element or attribute in the DOM.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=1</script>',
  '[x](javascript:window.__xss=1)',
  '[y](JaVaScRiPt:window.__xss=1)',
  '[z](  javascript:window.__xss=1)',
  '[d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  '[v](vbscript:msgbox(1))',
  '<a href="javascript:window.__xss=1">x</a>',
  '"><svg onload=window.__xss=1>',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<style>body{display:none}</style>',
  '![x](https://example.invalid/t.png)',
  '![y](data:image/png;base64,iVBORw0KGgo=)',
  '<object data="javascript:window.__xss=1"></object><embed src="https://example.invalid/e">',
  '<form action="javascript:window.__xss=1"><button>go</button></form>',
  '<details open ontoggle="window.__xss=1"><summary>s</summary></details>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1"></style></mglyph></table></mtext></math>',
  '<a href="https://example.invalid" style="position:fixed;inset:0">cover</a>',
  '<link rel="stylesheet" href="https://example.invalid/x.css"><meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '`<img src=x onerror=window.__xss=1>` and ```\n<script>window.__xss=1</script>\n```',
  '<https://example.invalid/auto> www.example.invalid',
  '&lt;img src=x onerror=window.__xss=1&gt; &#x3C;script&#x3E;',
];
const ALL = PAYLOADS.join('\n\n');
const ONE = PAYLOADS[0] + PAYLOADS[8];

function hostileState() {
  const diff = { type: 'diff', path: ONE, isNewFile: true, added: 1, removed: 1, preview: PAYLOADS.map((p, i) => (i % 2 ? '+' : '-') + p), previewTruncated: true };
  const entries = [
    { kind: 'user', text: ALL },
    { kind: 'thought', text: ALL },
    { kind: 'agent', text: ALL },
    { kind: 'tool', toolCallId: ONE, title: ONE, toolKind: ONE, status: 'pending', content: [{ type: 'text', text: ALL }, diff, { type: 'terminal', terminalId: ONE, output: ALL, truncated: false, exitStatus: null }], locations: [{ path: ONE, line: 3 }, { path: 'javascript:window.__xss=1', line: null }], permission: [
      { optionId: ONE, name: ONE, kind: 'allow_once' },
      { optionId: 'x', name: PAYLOADS[1], kind: 'allow_always' },
      { optionId: 'y', name: PAYLOADS[7], kind: 'reject_once' },
      { optionId: 'z', name: PAYLOADS[9], kind: 'reject_always' },
    ] },
    { kind: 'tool', toolCallId: 'big', title: 'big', toolKind: 'read', status: 'failed', content: [{ type: 'text', text: (ALL + '\n').repeat(40) }], locations: [] },
    { kind: 'plan', entries: PAYLOADS.map((content, i) => ({ content, priority: ['high', 'medium', 'low'][i % 3], status: ['pending', 'in_progress', 'completed'][i % 3] })) },
    { kind: 'error', message: ALL },
    { kind: 'turnEnd', stopReason: 'refusal', usage: { tokens: null, cost: { amount: 1, currency: ONE }, quota: [{ label: ONE.slice(0, 90), value: PAYLOADS[1] }] } },
    { kind: 'tool', toolCallId: 'raw', title: 'raw', name: ONE, toolKind: 'fetch', status: 'completed', content: [], locations: [], rawInput: JSON.stringify({ html: ALL }, null, 2), rawOutput: ALL },
    { kind: 'notice', severity: 'error', title: ONE, description: ALL },
    { kind: 'compaction', compactionId: ONE, status: ONE, summary: ALL, error: ALL },
    { kind: 'planById', planId: ONE, content: { type: 'markdown', text: ALL } },
    { kind: 'planById', planId: 'f', content: { type: 'file', uri: 'javascript:window.__xss=1' } },
    { kind: 'planById', planId: 'g', content: { type: 'items', entries: [{ content: ONE, priority: 'high', status: 'pending' }] } },
  ];
  const session = h.session({
    title: ONE,
    commands: PAYLOADS.map((p, i) => ({ name: `c${i}${p.replace(/\s/g, '')}`, description: p, hint: p })),
    modes: { currentModeId: ONE, available: [{ id: ONE, name: ONE, description: ONE }, { id: 'b', name: PAYLOADS[1], description: null }] },
    configOptions: [
      { type: 'select', id: ONE, name: ONE, description: ONE, category: ONE, currentValue: ONE, groups: [{ name: ONE, choices: [{ value: ONE, name: ONE, description: ONE }] }, { name: null, choices: [{ value: 'v', name: PAYLOADS[9], description: null }] }] },
      { type: 'boolean', id: 'bool' + ONE, name: ONE, description: ONE, category: null, currentValue: true },
    ],
    usage: { used: 1, size: 2, cost: { amount: 1, currency: 'USD' } },
    queue: [{ id: 1, text: ALL }, { id: 2, text: ONE }],
    review: [{ path: `/w/${ONE}`, change: 'modified', added: 1, removed: 1 }, { path: ALL, change: 'created', added: 2, removed: 0 }],
  });
  const status = h.status('prompting', { agentName: ONE, detail: ALL });
  return { entries, session, status };
}

async function scan(page) {
  return page.evaluate(() => {
    const app = document.getElementById('app');
    const bad = [...app.querySelectorAll('script, iframe, frame, img, svg, math, style, object, embed, link, meta, form, base, video, audio, source, input[type=image], portal')]
      .map((el) => el.outerHTML.slice(0, 120));
    const handlers = [];
    const hrefs = [];
    for (const el of app.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) handlers.push(`${el.tagName} ${a.name}`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'background', 'poster'].includes(a.name.toLowerCase())) {
          if (/^\s*(javascript|data|vbscript):/i.test(a.value)) hrefs.push(`${el.tagName} ${a.name}=${a.value.slice(0, 60)}`);
        }
      }
    }
    const styled = [...app.querySelectorAll('.markdown [style], .tool-text [style]')].map((el) => el.outerHTML.slice(0, 120));
    const remote = [...app.querySelectorAll('.markdown a[href], .tool-text a[href]')].map((a) => a.getAttribute('href'));
    return { bad, handlers, hrefs, styled, remote, bodyVisible: getComputedStyle(document.body).display !== 'none', appVisible: app.getBoundingClientRect().height > 0 };
  });
}

test('hostile text everywhere runs nothing, loads nothing, and stays text', async () => {
  await h.withPanel(env, {}, async (page) => {
    const cspAtLoad = (await h.cspViolations(page)).length;
    const { entries, session, status } = hostileState();
    await h.render(page, h.snapshot(entries, { status, session }));
    // Incremental paths too: entry replacement, appends, status and session updates.
    await h.render(page, { type: 'batch', messages: [
      { type: 'append', index: 2, text: '\n\n' + ALL },
      { type: 'append', index: 0, text: ONE },
      { type: 'entry', index: entries.length, entry: { kind: 'agent', text: ALL } },
      { type: 'status', status },
      { type: 'session', session },
    ] });

    // Texts come out as text.
    assert.equal(await page.locator(`${h.entry(0)} .text`).textContent(), ALL + ONE, 'user text verbatim');
    assert.equal(await page.locator(`${h.entry(3)} .tool-title`).textContent(), ONE, 'tool title verbatim');
    assert.equal(await page.locator(`${h.entry(3)} .diff-path`).getAttribute('title'), ONE, 'diff path verbatim');
    assert.equal(await page.locator(`${h.entry(6)} .text`).textContent(), ALL, 'error verbatim');
    assert.equal(await page.locator('#title').textContent(), ONE, 'title verbatim');
    assert.equal(await page.locator('pre#detail').textContent(), ALL, 'detail verbatim');
    assert.match(await page.locator('#status').textContent(), /<img src=x onerror=/);
    assert.deepEqual(await page.locator('#transcript .plan-text').allTextContents(), [...PAYLOADS, ONE], 'plan entries verbatim');
    assert.equal(await page.locator(`${h.entry(8)} .tool-name`).textContent(), ONE, 'tool name verbatim');
    assert.equal(await page.locator(`${h.entry(8)} details[data-part="input"] pre`).textContent(), JSON.stringify({ html: ALL }, null, 2), 'raw input verbatim');
    assert.equal(await page.locator(`${h.entry(8)} details[data-part="output"] pre`).textContent(), ALL, 'raw output verbatim');
    assert.equal(await page.locator(`${h.entry(9)} .notice-title`).textContent(), ONE, 'notice title verbatim');
    assert.equal(await page.locator(`${h.entry(9)} .notice-description`).textContent(), ALL, 'notice description verbatim');
    assert.equal(await page.locator(`${h.entry(10)} .compaction-error`).textContent(), ALL, 'compaction error verbatim');
    assert.match(await page.locator(`${h.entry(7)} .turn-usage`).textContent(), /quota: .*<script>window\.__xss=1<\/script>/, 'quota verbatim');
    assert.equal(await page.locator('#transcript button.option').first().textContent().then((t) => t.trim()), ONE, 'option name verbatim');

    // Open everything that can be opened: thoughts, long outputs, the command list, the pickers.
    for (const s of await page.locator('#transcript summary').all()) await s.click();
    for (let i = 0; i < 10 && (await page.locator('#transcript button.expand').count()) > 0; i++) {
      await page.locator('#transcript button.expand').first().click();
      await h.waitForFrame(page);
    }
    assert.equal(await page.locator('#transcript button.expand').count(), 0, 'every long output expanded');
    await page.locator('#prompt').click();
    await page.keyboard.type('/');
    assert.equal(await page.locator('#commands').isVisible(), true, 'the hostile commands are listed');
    assert.equal(await page.locator('#commands li[role="option"]').count(), PAYLOADS.length);
    const open = await scan(page);
    assert.deepEqual([open.bad, open.handlers, open.hrefs], [[], [], []], 'nothing active in the open command list');
    assert.ok((await page.locator('#commands').textContent()).includes(PAYLOADS[1]), 'command descriptions verbatim');
    await page.keyboard.press('Escape');
    await h.waitForFrame(page);

    // Click every link and button in the transcript (and the queue's), as a user might.
    const clicked = await page.evaluate(() => {
      const all = [...document.querySelectorAll('#transcript a, #transcript button, #queue button')];
      for (const el of all) if (el.isConnected) el.click();
      return all.length;
    });
    assert.ok(clicked > 10, `${clicked} things clicked`);
    await h.waitForFrame(page);
    // And the real mouse on the visible markdown links.
    for (const a of await page.locator('#transcript .markdown a').all()) {
      if (await a.isVisible()) await a.click({ timeout: 2000 }).catch(() => {});
    }
    await h.waitForFrame(page, 3);
    await page.waitForTimeout(200); // anything scheduled (onerror of a failed load) has fired by now

    assert.equal(await page.evaluate(() => window.__xss), undefined, 'no payload ran');
    assert.deepEqual(page.__log.dialogs, [], 'no dialog');
    assert.deepEqual(page.__log.externalRequests, [], 'no request left the local server');
    assert.deepEqual(page.__log.navigations, [], 'no navigation');
    assert.deepEqual(page.__log.popups, [], 'no popup');
    assert.deepEqual((await h.cspViolations(page)).slice(cspAtLoad), [], 'no CSP violation from the payloads');
    const found = await scan(page);
    assert.deepEqual(found.bad, [], 'no active or remote elements');
    assert.deepEqual(found.handlers, [], 'no on* attributes');
    assert.deepEqual(found.hrefs, [], 'no javascript:/data:/vbscript: URLs');
    assert.deepEqual(found.styled, [], 'no style attributes in rendered markdown');
    assert.ok(found.bodyVisible && found.appVisible, 'a <style> payload did not hide the panel');
    for (const href of found.remote) assert.match(href, /^(https?:|mailto:|file:|\/)/, `link ${href}`);

    // What the clicks posted is valid and carries the raw strings back, nothing executable.
    const list = await h.assertPostedValid(page, assert);
    for (const m of list.filter((x) => x.type === 'openLink')) assert.doesNotMatch(m.href, /^\s*(javascript|data|vbscript):/i);
    assert.ok(list.some((m) => m.type === 'permission' && m.toolCallId === ONE && m.optionId === ONE), 'the hostile option still works as a button');
    assert.ok(list.some((m) => m.type === 'openLocation' && m.path === ONE && m.line === 3), 'the hostile location still works as a link');
    assert.ok(list.some((m) => m.type === 'openLocation' && m.path === 'javascript:window.__xss=1'), 'a location path is data, posted back, not a URL');
  });
});

test('javascript: and other unsafe links in markdown are text, not links', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'agent', text: '[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x) [d](relative/path.md) [e](https://ok.example/) [f](/abs/path.ts) [g](file:///abs/x.ts) [h](mailto:a@b.c)' }]));
    const hrefs = await page.locator('#transcript .markdown a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://ok.example/', '/abs/path.ts', 'file:///abs/x.ts', 'mailto:a@b.c']);
    const text = await page.locator('#transcript .markdown').textContent();
    assert.match(text, /\[a\]\(javascript:alert\(1\)\)/, 'the rejected link stays as text');
    assert.match(text, /\[d\]\(relative\/path\.md\)/);
  });
});

test('dangerous constructs split across streamed chunks stay text, and links stay safe', async () => {
  // Each construct is cut where a renderer that kept half-parsed state would go wrong.
  const chunks = [
    '<scr', 'ipt>window.__xss=1</scr', 'ipt>\n\n',
    '[x](java', 'script:window.__xss=1)\n\n',
    '<img src=x onerr', 'or="window.__xss=1">\n\n',
    '<a href="javascript:window.__xss=1">a</', 'a>\n\n',
    '```\n<scr', 'ipt>window.__xss=1</script>\n', '```\n\n',
    'Use [r][bad].\n\n[bad]: javas', 'cript:window.__xss=1\n\n',
    '[ok](ht', 'tps://ok.example/) and <https://ok.example/au', 'to>',
  ];
  await h.withPanel(env, {}, async (page) => {
    const cspAtLoad = (await h.cspViolations(page)).length;
    await h.render(page, h.snapshot([{ kind: 'agent', text: '' }, { kind: 'thought', text: '' }]));
    for (const text of chunks) {
      await h.render(page, { type: 'append', index: 0, text }, { type: 'append', index: 1, text });
      const found = await scan(page);
      assert.deepEqual([found.bad, found.handlers, found.hrefs, found.styled], [[], [], [], []], `nothing active after ${JSON.stringify(text)}`);
    }
    for (const index of [0, 1]) {
      const markdown = page.locator(`${h.entry(index)} .markdown`);
      const hrefs = await markdown.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(hrefs, ['https://ok.example/', 'https://ok.example/auto'], `entry ${index}: only the safe links are links`);
      const text = await markdown.textContent();
      for (const literal of ['<script>window.__xss=1</script>', '[x](javascript:window.__xss=1)', '<img src=x onerror="window.__xss=1">', '[r][bad]']) {
        assert.ok(text.includes(literal), `entry ${index} shows ${literal} as text`);
      }
    }
    await page.evaluate(() => { for (const el of document.querySelectorAll('#transcript a')) el.click(); });
    await h.waitForFrame(page, 3);
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'no payload ran');
    assert.deepEqual(page.__log.dialogs, [], 'no dialog');
    assert.deepEqual(page.__log.navigations, [], 'no navigation');
    assert.deepEqual((await h.cspViolations(page)).slice(cspAtLoad), [], 'no CSP violation');
    const links = (await h.posted(page)).filter((m) => m.type === 'openLink').map((m) => m.href);
    assert.deepEqual(links, ['https://ok.example/', 'https://ok.example/auto', 'https://ok.example/', 'https://ok.example/auto'], 'only the safe links open');
  });
});

test('a hostile plan pinned above the prompt box stays text (steps) or sanitized (markdown), and runs nothing when clicked', async () => {
  await h.withPanel(env, {}, async (page) => {
    const cspAtLoad = (await h.cspViolations(page)).length;
    const entries = PAYLOADS.map((content, i) => ({ content, priority: ['high', 'medium', 'low'][i % 3], status: ['pending', 'in_progress', 'completed'][i % 3] }));
    await h.render(page, h.snapshot([], { session: h.session({ plan: { type: 'items', entries } }) }));
    assert.deepEqual(await page.locator('#pinned-plan .plan-text').allTextContents(), PAYLOADS, 'pinned steps verbatim');
    await h.render(page, { type: 'session', session: h.session({ plan: { type: 'markdown', text: ALL } }) });
    assert.ok(await page.locator('#pinned-plan .markdown').isVisible(), 'the markdown plan is pinned');
    await page.evaluate(() => { for (const el of document.querySelectorAll('#pinned-plan a, #pinned-plan summary')) el.click(); });
    await h.render(page, { type: 'session', session: h.session({ plan: { type: 'file', uri: 'javascript:window.__xss=1' } }) });
    assert.equal(await page.locator('#pinned-plan a').count(), 0, 'an unsafe file URI stays text');
    await h.waitForFrame(page, 3);
    await page.waitForTimeout(200); // anything scheduled (onerror of a failed load) has fired by now
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'no payload ran');
    assert.deepEqual([page.__log.dialogs, page.__log.externalRequests, page.__log.navigations, page.__log.popups], [[], [], [], []]);
    assert.deepEqual((await h.cspViolations(page)).slice(cspAtLoad), [], 'no CSP violation from the payloads');
    const found = await scan(page);
    assert.deepEqual([found.bad, found.handlers, found.hrefs], [[], [], []], 'nothing active in the pinned plan');
    for (const m of (await h.assertPostedValid(page, assert)).filter((x) => x.type === 'openLink')) assert.doesNotMatch(m.href, /^\s*(javascript|data|vbscript):/i);
  });
});
