// Restoring a long transcript (src/webview/transcript.ts, src/webview/backlog.ts): the snapshot's
// last entries are rendered at once, the view at the bottom, and every older entry has its place
// (an empty `.entry-pending`) until idle time renders it, newest first. Nothing is lost: every
// entry ends rendered in index order, an update to an entry still waiting renders it with its
// latest content, and a newer snapshot replaces a backlog still running.
// Run: npm run build && npm run compile && node --test test/webview/restore.test.js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const N = 10000;
const conversation = (n, label = '') => Array.from({ length: n }, (_, i) => (i % 2 ? { kind: 'agent', text: `${label}Answer **${i}**` } : { kind: 'user', text: `${label}prompt ${i}` }));

/** Resolves once the backlog is done: no placeholder left. */
async function allRendered(page) {
  await page.waitForFunction(() => document.querySelector('#transcript .entry-pending') === null, null, { timeout: 60000, polling: 100 });
  await h.waitForFrame(page, 3);
}

/** The transcript's entries: their index and text (a message's, not its buttons'), in DOM order. */
function entries(page) {
  return page.evaluate((selector) => [...document.querySelectorAll(selector)].map((el) => [el.dataset.index, el.querySelector('.text, .markdown')?.textContent.trim()]), h.ENTRIES);
}

test('a 10,000-entry snapshot paints its last entries at once, at the bottom; every older one follows, and scrolling up shows them', async () => {
  await h.withPanel(env, {}, async (page) => {
    // Runs right after the webview's own handler of the snapshot, before any other task.
    await page.evaluate((n) => {
      window.addEventListener('message', () => {
        const root = document.getElementById('transcript');
        window.__atOnce = {
          last: root.querySelector(`.entry[data-index="${n - 1}"]`)?.textContent.trim(),
          first: root.querySelector('.entry[data-index="0"]') !== null,
          rendered: root.querySelectorAll('.entry').length,
          places: root.querySelectorAll('.entry-group > *').length,
        };
      }, { once: true });
    }, N);
    await h.send(page, h.snapshot(conversation(N)));
    const atOnce = await page.evaluate(() => window.__atOnce);
    assert.equal(atOnce.last, `Answer ${N - 1}`, 'the last entry is rendered with the snapshot');
    assert.equal(atOnce.first, false, 'the first entry is not rendered yet');
    assert.ok(atOnce.rendered > 0 && atOnce.rendered < N / 10, `${atOnce.rendered} entries rendered at once`);
    assert.equal(atOnce.places, N, 'every entry has its place');

    await allRendered(page);
    const all = await entries(page);
    assert.equal(all.length, N);
    assert.ok(all.every(([index, text], i) => index === String(i) && text === (i % 2 ? `Answer ${i}` : `prompt ${i}`)), 'every entry, in index order, with its text');
    const distance = await page.evaluate(() => {
      const root = document.getElementById('transcript');
      return root.scrollHeight - root.scrollTop - root.clientHeight;
    });
    assert.ok(distance <= 1, `the view stays at the bottom while older entries fill in (${distance}px above it)`);

    await page.evaluate(() => { document.getElementById('transcript').scrollTop = 0; });
    await h.waitForFrame(page, 3);
    const shown = await page.evaluate((selector) => {
      const view = document.getElementById('transcript').getBoundingClientRect();
      const first = document.querySelector(selector).getBoundingClientRect();
      return first.height > 0 && first.top >= view.top && first.bottom <= view.bottom;
    }, h.entry(0));
    assert.ok(shown, 'scrolled to the top, the first entry is in view');
    assert.equal(await page.locator(`${h.entry(1)} .markdown strong`).textContent(), '1');
  });
});

test('an update to an entry still waiting renders it with its latest content, once', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.send(page, h.snapshot(conversation(N)),
      { type: 'entry', index: 10, entry: { kind: 'agent', text: 'Replaced **answer**' } },
      { type: 'append', index: 11, text: ' and more' });
    await allRendered(page);
    const all = await entries(page);
    assert.equal(all.length, N);
    assert.deepEqual(all.slice(9, 13), [['9', 'Answer 9'], ['10', 'Replaced answer'], ['11', 'Answer 11 and more'], ['12', 'prompt 12']]);
    assert.ok(all.every(([index], i) => index === String(i)), 'in index order');
  });
});

test('a newer snapshot replaces a backlog still running: only its entries end in the DOM', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.send(page, h.snapshot(conversation(N)));
    await h.send(page, h.snapshot(conversation(300, 'B ')));
    await allRendered(page);
    await h.waitForFrame(page, 10);
    const all = await entries(page);
    assert.equal(all.length, 300);
    assert.ok(all.every(([index, text], i) => index === String(i) && text === (i % 2 ? `B Answer ${i}` : `B prompt ${i}`)), 'the newer snapshot\'s entries, in order');
  });
});

test('while the host streams, the backlog renders in short slices, and in long ones again once it stops; every entry still ends rendered', async () => {
  await h.withPanel(env, {}, async (page) => {
    // Idle callbacks run when the test says, on a clock that moves 0.25 ms each time it is read:
    // how many placeholders one slice fills is then how long the backlog lets a slice take.
    await page.evaluate(() => {
      let now = 0;
      performance.now = () => (now += 0.25);
      window.__pass = (ms) => { now += ms; };
      const idle = new Map();
      let handles = 0;
      window.requestIdleCallback = (callback) => { idle.set(++handles, callback); return handles; };
      window.cancelIdleCallback = (handle) => idle.delete(handle);
      const pending = () => document.querySelectorAll('#transcript .entry-pending').length;
      /** Runs the idle callbacks requested so far: how many placeholders they filled. */
      window.__slice = () => {
        const before = pending();
        const due = [...idle.values()];
        idle.clear();
        for (const callback of due) callback({ didTimeout: false, timeRemaining: () => 50 });
        return before - pending();
      };
      window.__pending = pending;
    });
    await h.send(page, h.snapshot(conversation(N)));
    const idleSlice = await page.evaluate(() => window.__slice());
    await h.send(page, { type: 'append', index: N - 1, text: ' and more' });
    const streamingSlices = [];
    for (let i = 0; i < 3; i++) {
      streamingSlices.push(await page.evaluate(() => window.__slice()));
      await h.send(page, { type: 'append', index: N - 1, text: ` chunk ${i}` });
    }
    // The stream stops: a second later, slices are long again.
    await page.evaluate(() => window.__pass(1000));
    const afterSlice = await page.evaluate(() => window.__slice());

    assert.ok(streamingSlices.every((n) => n >= 1), `the backlog goes on while the host streams (${streamingSlices})`);
    assert.ok(streamingSlices.every((n) => n * 3 <= idleSlice), `slices are short while the host streams: ${streamingSlices} entries a slice, ${idleSlice} on an idle panel`);
    assert.equal(afterSlice, idleSlice, 'long slices again once the stream stops');

    const left = await page.evaluate(() => {
      while (window.__pending() > 0 && window.__slice() > 0);
      return window.__pending();
    });
    assert.equal(left, 0, 'no placeholder left');
    const all = await entries(page);
    assert.equal(all.length, N);
    assert.equal(all[N - 1][1], `Answer ${N - 1} and more chunk 0 chunk 1 chunk 2`);
    assert.ok(all.every(([index], i) => index === String(i)), 'in index order');
  });
});
