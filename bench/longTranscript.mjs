// Long transcripts in the real webview (headless Chromium, test/webview/harness.js): restoring
// a snapshot of 100, 1,000 and 10,000 entries, then the cost of one more entry and of one more
// chunk into the last entry, which must not grow with the transcript's length; and the page's
// JS heap after GC. The entries come from the host's own model: the recorded turns of
// traffic.mjs folded by Transcript, as a restored session would hold them.
//
// What "cost" means here: the webview's main-thread time for one host message, i.e. its
// 'message' handler (zod validation, mirror update, and rendering if it renders at once) plus
// the animation frame after it (rendering if it waits for the frame),
// from the frame's first rAF callback until a task posted from the last one runs (style,
// layout and paint done). The idle wait for the frame (vsync) is left out: it is up to 16.7 ms
// whatever the work, and would drown it.
import { createRequire } from 'node:module';
import { sessionUpdates } from './traffic.mjs';
import { bytes, median, ms, ratio, repeat, table, verdict } from './stats.mjs';

const require = createRequire(import.meta.url);
const h = require('../test/webview/harness.js');
const { Transcript } = require('../out/src/session/transcript.js');
const { SessionUpdateSchema } = require('../out/src/protocol/index.js');

const SIZES = [100, 1_000, 10_000];
const RUNS = 5;
const SAMPLES = 9; // messages measured per kind and run

/** The first `n` entries of a transcript of many short turns (prompt, thoughts, answers, tool calls, diffs, plan). */
function entriesOf(n) {
  const transcript = new Transcript();
  let turns = 0;
  for (const update of sessionUpdates({ seed: 2, turns: Infinity, steps: 8, chunks: 8 })) {
    if (transcript.entries.length >= n) break;
    if ('turnStart' in update) {
      if (turns++ > 0) transcript.endTurn('end_turn');
      transcript.addUserPrompt(`Prompt ${turns}: fix the failing test`);
    } else transcript.apply(SessionUpdateSchema.parse(update));
  }
  return transcript.entries.slice(0, n);
}

/** Page-side timing helpers, installed once per page. */
function installTimers(page) {
  return page.evaluate(() => {
    const frames = (n) => new Promise((resolve) => {
      const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
    /** Resolves, with the time, once the next frame has been rendered (a task posted from its rAF ran). */
    const afterFrame = () => new Promise((resolve) => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    }));
    /** Main-thread ms for one message: its handlers, plus the frame that renders it (see the header). */
    const measure = (message) => new Promise((resolve) => {
      let frameStart = 0;
      // Listeners at the window run in the order they were added, the webview's first, so the
      // clock starts at the post. series() posts from a task of its own just after a frame:
      // the handlers run next, and the frame after them is the next one.
      const after = () => {
        const handleEnd = performance.now();
        window.removeEventListener('message', after);
        afterFrame().then((end) => resolve(handleEnd - handleStart + (end - frameStart)));
      };
      window.addEventListener('message', after);
      // Added before the handlers run, so it runs before any the webview adds.
      requestAnimationFrame(() => (frameStart = performance.now()));
      const handleStart = performance.now();
      window.postMessage(message, '*');
    });
    const afterThisFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    window.__bench = {
      /** Posts the snapshot held in window.__snapshot; ms until its entries are in the DOM and the frame after is rendered. */
      async restore(n) {
        const root = document.getElementById('transcript');
        const start = performance.now();
        const inDom = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (!root.querySelector(`[data-index="${n - 1}"]`)) return; // the last entry is in
            observer.disconnect();
            resolve();
          });
          observer.observe(root, { childList: true });
        });
        window.postMessage(window.__snapshot, '*');
        await inDom;
        const end = await afterFrame();
        await frames(3);
        return end - start;
      },
      /** Measures each message in turn, letting frames settle in between. */
      async series(messages) {
        const costs = [];
        for (const message of messages) {
          await frames(2);
          await afterThisFrame();
          costs.push(await measure(message));
        }
        await frames(3);
        return costs;
      },
    };
  });
}

async function heapUsed(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

async function oneRun(env, n, snapshot) {
  const page = await h.openPanel(env, {});
  try {
    await installTimers(page);
    const emptyHeap = await heapUsed(page);
    await page.evaluate((s) => { window.__snapshot = s; }, snapshot);
    const restore = await page.evaluate((count) => window.__bench.restore(count), n);
    await page.evaluate(() => { delete window.__snapshot; });
    const heap = await heapUsed(page);
    const agent = (text) => ({ kind: 'agent', text });
    // n new entries (n, n+1, …), then chunks into the last of them.
    const entries = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'entry', index: n + i, entry: agent(`Entry **${n + i}**: done, see \`src/x.ts\``) }));
    const last = n + SAMPLES - 1;
    const chunks = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'append', index: last, text: ` and **chunk ${i}** of the answer` }));
    const entryCost = median(await page.evaluate((m) => window.__bench.series(m), entries));
    const chunkCost = median(await page.evaluate((m) => window.__bench.series(m), chunks));
    // The same chunk into an answer that is already 100 KB long (rendered whole, as markdown).
    const big = { type: 'entry', index: last + 1, entry: agent('A long answer with `code` and **bold** words. '.repeat(2200)) };
    await page.evaluate((m) => window.__bench.series([m]), big);
    const bigChunkCost = median(await page.evaluate((m) => window.__bench.series(m), chunks.map((c) => ({ ...c, index: last + 1 }))));
    if (page.__log.pageErrors.length) throw new Error(`page errors: ${page.__log.pageErrors.join('; ')}`);
    return { restore, heap, heapDelta: heap - emptyHeap, entryCost, chunkCost, bigChunkCost };
  } finally {
    await h.closePanel(page);
  }
}

export async function longTranscript() {
  const env = await h.launch();
  const results = {};
  try {
    for (const n of SIZES) {
      const snapshot = h.snapshot(entriesOf(n));
      const check = h.protocol().HostToViewSchema.safeParse(snapshot);
      if (!check.success) throw new Error(`bench bug: invalid snapshot: ${check.error.issues[0].message}`);
      const runs = await repeat(RUNS, () => oneRun(env, n, snapshot));
      results[n] = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
    }
  } finally {
    await env.close();
  }
  const [small, , large] = SIZES.map((n) => results[n]);
  const entryGrowth = large.entryCost / small.entryCost;
  const chunkGrowth = large.chunkCost / small.chunkCost;
  table(`3. Long transcripts in the real webview, median of ${RUNS} runs (cost = main-thread ms: message handler + the frame that renders it)`, [
    ['entries', 'restore snapshot (post → in DOM → frame rendered)', 'append one entry', 'stream one chunk into the last entry', 'same, the entry a 100 KB answer', 'JS heap after GC (of which transcript)'],
    ...SIZES.map((n) => {
      const r = results[n];
      return [n.toLocaleString('en-US'), ms(r.restore), ms(r.entryCost), ms(r.chunkCost), ms(r.bigChunkCost), `${bytes(r.heap)} (${bytes(r.heapDelta)})`];
    }),
  ]);
  table('3. Long transcripts: growth with length', [
    ['figure', 'value', 'target', 'verdict'],
    ['append one entry, 10,000 / 100 entries', ratio(entryGrowth), 'does not grow (≤ 1.5×)', verdict(entryGrowth <= 1.5)],
    ['stream one chunk, 10,000 / 100 entries', ratio(chunkGrowth), 'does not grow (≤ 1.5×)', verdict(chunkGrowth <= 1.5)],
  ]);
  return { results, entryGrowth, chunkGrowth };
}

if (import.meta.url === `file://${process.argv[1]}`) await longTranscript();
