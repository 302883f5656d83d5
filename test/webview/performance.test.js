// Load the panel has to take: a fast stream of appends (nothing lost, nothing else re-rendered),
// a 1 MB single-line tool output (collapsed, the page stays responsive), and a 10,000-entry
// snapshot followed by a single patch (only that entry's node changes). Timing assertions are
// deliberately generous: they catch "the page froze", not "it got 10% slower".
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const { entry } = h;

/** Records entries added to or removed from #transcript (alone, or with their group or section), by data-index. */
async function watchTranscript(page) {
  await page.evaluate(() => {
    window.__mutations = [];
    // Entries, groups and sections only: what changes inside an entry is not an entry added or removed.
    const entries = (n) => (n.nodeType !== Node.ELEMENT_NODE ? []
      : n.matches('.entry-section, .entry-group') ? [...n.querySelectorAll(':scope .entry[data-index]')].map((e) => e.dataset.index)
        : 'index' in n.dataset ? [n.dataset.index] : []);
    window.__observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) for (const index of entries(n)) window.__mutations.push(['added', index]);
        for (const n of r.removedNodes) for (const index of entries(n)) window.__mutations.push(['removed', index]);
      }
    });
    window.__observer.observe(document.getElementById('transcript'), { childList: true, subtree: true });
  });
}
async function transcriptMutations(page) {
  return page.evaluate(() => { window.__observer.takeRecords(); return window.__mutations; });
}

test('2,000 appends in quick succession: exactly the concatenated text, and no other entry is touched', async () => {
  await h.withPanel(env, {}, async (page) => {
    const entries = [
      { kind: 'user', text: 'stream please' },
      { kind: 'tool', toolCallId: 't1', title: 'Read a.ts', toolKind: 'read', status: 'completed', content: [{ type: 'text', text: '```\nx\n```' }], locations: [] },
      { kind: 'thought', text: 'hmm' },
      { kind: 'agent', text: '' },
    ];
    await h.render(page, h.snapshot(entries, { status: h.status('prompting') }));
    await page.evaluate((selectors) => {
      window.__refs = selectors.map((selector) => document.querySelector(selector));
      window.__subtree = window.__refs.map((el) => el.innerHTML);
    }, [0, 1, 2].map(entry));
    await watchTranscript(page);
    const chunks = Array.from({ length: 2000 }, (_, i) => `w${i}${i % 7 === 0 ? '\u00e9' : ''} `);
    const t0 = Date.now();
    await h.sendRaw(page, ...chunks.map((text) => ({ type: 'append', index: 3, text })));
    await h.waitForFrame(page, 3);
    const elapsed = Date.now() - t0;
    const expected = chunks.join('').trim();
    assert.equal((await page.locator(`${entry(3)} .markdown`).textContent()).trim(), expected, 'no text lost or duplicated');
    assert.equal(await page.locator(h.ENTRIES).count(), 4);
    const refs = await page.evaluate((selectors) => window.__refs.map((el, i) => ({
      connected: el.isConnected,
      same: el === document.querySelector(selectors[i]),
      unchanged: el.innerHTML === window.__subtree[i],
    })), [0, 1, 2].map(entry));
    assert.deepEqual(refs, [0, 1, 2].map(() => ({ connected: true, same: true, unchanged: true })), 'other entries keep their nodes');
    const touched = (await transcriptMutations(page)).filter(([, index]) => index !== '3');
    assert.deepEqual(touched, [], 'only entry 3 may be replaced');
    assert.ok(elapsed < 15000, `2,000 appends took ${elapsed} ms`);
    // Appends to the thought and the user entry also land exactly.
    await h.sendRaw(page, ...chunks.slice(0, 300).map((text, i) => ({ type: 'append', index: i % 2 ? 2 : 0, text })));
    await h.waitForFrame(page, 3);
    assert.equal(await page.locator(`${entry(0)} .text`).textContent(), 'stream please' + chunks.slice(0, 300).filter((_, i) => i % 2 === 0).join(''));
    assert.equal((await page.locator(`${entry(2)} .markdown`).textContent()).trim(), ('hmm' + chunks.slice(0, 300).filter((_, i) => i % 2 === 1).join('')).trim());
  });
});

test('a 1 MB single-line tool output is collapsed, the page stays responsive, and "Show all" expands it', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'cat big.log' }], { status: h.status('prompting') }));
    const size = 1024 * 1024;
    // Built and posted inside the page, timed to the first animation frame after the post.
    const latency = await page.evaluate((n) => new Promise((resolve) => {
      const text = 'abcdefghij'.repeat(n / 10 + 1).slice(0, n);
      const t0 = performance.now();
      window.postMessage({ type: 'entry', index: 1, entry: { kind: 'tool', toolCallId: 'big', title: 'Read big.log', toolKind: 'read', status: 'completed', content: [{ type: 'text', text }], locations: [] } }, '*');
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
    }), size);
    await h.waitForFrame(page);
    const card = page.locator(entry(1));
    assert.equal(await card.count(), 1, 'the card rendered');
    const output = card.locator('.tool-text[data-content-index="0"]');
    assert.equal(await output.evaluate((el) => el.classList.contains('collapsed')), true, 'collapsed');
    const shown = await card.evaluate((el) => el.textContent.length);
    assert.ok(shown < 10000, `the card holds ${shown} characters of text, not 1 MB`);
    assert.ok((await output.locator('pre').textContent()).startsWith('abcdefghij'), 'the preview is the start of the text');
    assert.equal((await output.locator('button.expand').textContent()).trim(), 'Show all (1.0 MB)');
    assert.ok(latency < 2000, `a frame ran ${Math.round(latency)} ms after posting 1 MB`);

    await output.locator('button.expand').click();
    const afterExpand = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
    }));
    assert.equal(await output.evaluate((el) => el.classList.contains('collapsed')), false, 'expanded');
    assert.equal(await output.locator('pre').count(), 1, 'over 100,000 characters: shown as plain pre');
    assert.equal(await output.locator('pre').evaluate((el) => el.textContent.length), size, 'all of it');
    assert.ok(afterExpand < 3000, `frames run ${Math.round(afterExpand)} ms after expanding`);
    // Typing still works.
    await page.locator('#prompt').fill('still responsive');
    await page.locator('#prompt').press('Enter');
    assert.deepEqual((await h.posted(page)).at(-1), { type: 'prompt', text: 'still responsive' });
  });
});

test('a 10,000-entry snapshot renders every entry, and one entry patch replaces only that entry', async () => {
  await h.withPanel(env, {}, async (page) => {
    const N = 10000;
    const entries = Array.from({ length: N }, (_, i) => {
      switch (i % 4) {
        case 0: return { kind: 'user', text: `prompt ${i}` };
        case 1: return { kind: 'agent', text: `Answer **${i}** with \`code\`` };
        case 2: return { kind: 'tool', toolCallId: `t${i}`, title: `Tool ${i}`, toolKind: 'read', status: 'completed', content: [{ type: 'text', text: `out ${i}` }], locations: [{ path: `/w/f${i}.ts`, line: i }] };
        default: return { kind: 'turnEnd', stopReason: 'end_turn' };
      }
    });
    const t0 = Date.now();
    await h.send(page, h.snapshot(entries));
    await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length === n, [h.ENTRIES, N], { timeout: 30000, polling: 100 });
    const elapsed = Date.now() - t0;
    assert.equal(await page.locator(h.ENTRIES).count(), N, 'every entry');
    assert.equal(await page.locator(`${entry(N - 3)} .markdown strong`).textContent(), String(N - 3));
    assert.equal(await page.locator(`${entry(5001)} .markdown strong`).textContent(), '5001');
    assert.ok(elapsed < 25000, `10,000 entries took ${elapsed} ms`);

    await page.evaluate((selector) => {
      window.__before = new Map([...document.querySelectorAll(selector)].map((el) => [el.dataset.index, el]));
    }, h.ENTRIES);
    await watchTranscript(page);
    await h.render(page, { type: 'entry', index: 5001, entry: { kind: 'agent', text: 'Replaced **answer**' } });
    const result = await page.evaluate((selector) => {
      const now = [...document.querySelectorAll(selector)];
      const changed = now.filter((el) => window.__before.get(el.dataset.index) !== el).map((el) => el.dataset.index);
      const order = now.every((el, i) => el.dataset.index === String(i));
      return { count: now.length, changed, order };
    }, h.ENTRIES);
    assert.equal(result.count, N);
    assert.ok(result.order, 'still in index order');
    assert.ok(result.changed.length <= 1 && (result.changed.length === 0 || result.changed[0] === '5001'), `nodes replaced: ${result.changed.slice(0, 10)}`);
    assert.equal(await page.locator(`${entry(5001)} .markdown strong`).textContent(), 'answer');
    const touched = (await transcriptMutations(page)).filter(([, index]) => index !== '5001');
    assert.deepEqual(touched.slice(0, 10), [], 'no other entry added or removed');
    // A new entry at the end is appended, nothing else moves.
    await h.render(page, { type: 'entry', index: N, entry: { kind: 'user', text: 'one more' } });
    assert.equal(await page.locator(h.ENTRIES).count(), N + 1);
    assert.equal(await page.locator(`${entry(N)} .text`).textContent(), 'one more');
    const touched2 = (await transcriptMutations(page)).filter(([, index]) => index !== '5001' && index !== String(N));
    assert.deepEqual(touched2.slice(0, 10), []);
    // Sections of 20 groups of 50 entries, all full but the last: entry 10,000 opened the 11th.
    const shape = await page.evaluate(() => [...document.getElementById('transcript').children].map((s) => [...s.children].map((g) => g.children.length)));
    assert.equal(shape.length, 11);
    assert.ok(shape.slice(0, 10).every((groups) => groups.length === 20 && groups.every((n) => n === 50)), JSON.stringify(shape.slice(0, 2)));
    assert.deepEqual(shape[10], [1]);
  });
});

test('text streamed into an answer re-renders only the blocks it changes, and ends as a fresh rendering would', async () => {
  // Pieces that change earlier blocks too: a list made loose, a link defined after its use, a fence closed.
  const pieces = ['First paragraph, kept.\n\n', '- one\n', '- two', '\n\n- three\n\n', 'See [the docs][d] and `x`.\n\n',
    '```js\nlet a = 1;\n', '```\n\n', '[d]: https://example.com/docs\n', '\nLast *words*', ' streamed.'];
  const final = pieces.join('');
  let streamed;
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'q' }, { kind: 'agent', text: '' }]));
    const firstParagraph = () => page.evaluate(() => {
      const p = document.querySelector('#transcript .entry[data-index="1"] .markdown > p');
      window.__first ??= p;
      return window.__first === p;
    });
    for (const text of pieces) {
      await h.render(page, { type: 'append', index: 1, text });
      assert.ok(await firstParagraph(), `the first paragraph keeps its node after ${JSON.stringify(text)}`);
    }
    streamed = await h.domSignature(page, '#transcript .entry[data-index="1"]');
    assert.equal(await page.locator('#transcript .entry[data-index="1"] a').getAttribute('href'), 'https://example.com/docs');
  });
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'q' }, { kind: 'agent', text: final }]));
    assert.equal(streamed, await h.domSignature(page, '#transcript .entry[data-index="1"]'));
  });
});
