// Long transcripts in the real webview (headless Chromium, test/webview/harness.js): restoring
// a snapshot of 100, 1,000 and 10,000 entries (to the first paint, and until every entry is
// rendered), then the cost of one more entry and of one more
// chunk into the last entry, which must not grow with the transcript's length, and of one more
// chunk into a 100 KB answer (against the browser's own cost of that change), and of the oldest
// checkpoint kept moving on (every prompt drops one once the workspace's checkpoints are at their
// budget: the user's messages show Restore and Edit disabled from then), and of the agent's
// fork flag changing (as a session opens, its agent starts or stops: every user message offers
// "Fork from here" or not); and the page's
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

/**
 * A 100 KB answer as agents write them: sections of a heading, paragraphs, lists, code, a table
 * and a quote; it ends in a paragraph, which the streamed chunks extend.
 */
const LONG_ANSWER = (() => {
  const sections = [];
  for (let i = 0, size = 0; size < 100_000; i++) {
    const section = `## Step ${i}: the \`module${i}\` change

The failing test calls **parse** with an empty buffer, so the reader in [src/reader${i}.ts](/w/src/reader${i}.ts) returns before it sets the state. ${'The fix keeps the order of events and checks the length first. '.repeat(3)}

- read \`src/reader${i}.ts\` and its test
- keep the old behaviour for callers that pass a buffer
  - note the *edge case* of a zero-length read
1. run the tests
2. check the output

\`\`\`ts
export function read${i}(buffer: Uint8Array): number {
  if (buffer.length === 0) return 0;
  return buffer[0] * ${i};
}
\`\`\`

| file | change |
| --- | --- |
| src/reader${i}.ts | guard |

> Note: this also covers the case in issue ${i}.

`;
    sections.push(section);
    size += section.length;
  }
  return `${sections.join('')}That is all for now`;
})();
/** The same size as one paragraph, the worst case: appended text can change all of it. */
const LONG_PARAGRAPH = 'A long answer with `code` and **bold** words. '.repeat(2200);
/** A file streamed into the answer, 100 KB so far, its fence still open: the chunks are more of its lines. */
const LONG_FENCE = `Here is the whole file:\n\n\`\`\`ts\n${Array.from({ length: 2500 }, (_, i) => `export const value${i} = compute(${i});`).join('\n')}`;

/**
 * The first `n` entries of a transcript of many short turns (prompt, thoughts, answers, tool
 * calls, diffs, plan); each prompt has a checkpoint, its turn's number.
 */
function entriesOf(n) {
  const transcript = new Transcript();
  let turns = 0;
  for (const update of sessionUpdates({ seed: 2, turns: Infinity, steps: 8, chunks: 8 })) {
    if (transcript.entries.length >= n) break;
    if ('turnStart' in update) {
      if (turns++ > 0) transcript.endTurn({ stopReason: 'end_turn' });
      transcript.addUserPrompt(`Prompt ${turns}: fix the failing test`, [], turns);
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
    /** Main-thread ms for one message: its handlers, and the frame that renders it (see the header). */
    const measure = (message) => new Promise((resolve) => {
      let frameStart = 0;
      // Listeners at the window run in the order they were added, the webview's first, so the
      // clock starts at the post. series() posts from a task of its own just after a frame:
      // the handlers run next, and the frame after them is the next one.
      const after = () => {
        const handleEnd = performance.now();
        window.removeEventListener('message', after);
        afterFrame().then((end) => resolve({ handler: handleEnd - handleStart, frame: end - frameStart }));
      };
      window.addEventListener('message', after);
      // Added before the handlers run, so it runs before any the webview adds.
      requestAnimationFrame(() => (frameStart = performance.now()));
      const handleStart = performance.now();
      window.postMessage(message, '*');
    });
    const afterThisFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    window.__bench = {
      /**
       * Posts the snapshot held in window.__snapshot: ms until its last entry is in the DOM and
       * the frame after is rendered (the first paint: the view opens at the bottom), and ms until
       * every entry is rendered (the older ones are rendered in idle time, src/webview/backlog.ts).
       */
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
        while (root.querySelector('.entry-pending')) await frames(1);
        const complete = performance.now();
        await frames(3);
        return { firstPaint: end - start, complete: complete - start };
      },
      /** Measures each message in turn, letting frames settle in between: { handler, frame } ms each. */
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
      /**
       * The browser's floor for a chunk into entry `index`: each text appended to its last block
       * by hand (no message, no markdown), the view kept at the bottom as the panel does.
       */
      async byHand(index, texts) {
        const root = document.getElementById('transcript');
        const costs = [];
        for (const text of texts) {
          await frames(2);
          await afterThisFrame();
          let frameStart = 0;
          requestAnimationFrame(() => (frameStart = performance.now()));
          const start = performance.now();
          root.querySelector(`.entry[data-index="${index}"] .markdown`).lastElementChild.append(text);
          requestAnimationFrame(() => { root.scrollTop = root.scrollHeight; });
          const handler = performance.now() - start;
          const end = await afterFrame();
          costs.push({ handler, frame: end - frameStart });
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
    const { firstPaint: restore, complete: restoreComplete } = await page.evaluate((count) => window.__bench.restore(count), n);
    await page.evaluate(() => { delete window.__snapshot; });
    const heap = await heapUsed(page);
    const agent = (text) => ({ kind: 'agent', text });
    // n new entries (n, n+1, …), then chunks into the last of them.
    const entries = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'entry', index: n + i, entry: agent(`Entry **${n + i}**: done, see \`src/x.ts\``) }));
    const last = n + SAMPLES - 1;
    const chunks = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'append', index: last, text: ` and **chunk ${i}** of the answer` }));
    const cost = (samples) => median(samples.map((s) => s.handler + s.frame));
    const entryCost = cost(await page.evaluate((m) => window.__bench.series(m), entries));
    const chunkCost = cost(await page.evaluate((m) => window.__bench.series(m), chunks));
    // The snapshot keeps every checkpoint (the oldest is 1): each of these drops the oldest one.
    const evictions = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'session', session: h.session({ oldestCheckpoint: 2 + i }) }));
    const evictionCost = cost(await page.evaluate((m) => window.__bench.series(m), evictions));
    // The agent forks, then not, and so on (the oldest checkpoint stays where the evictions left it).
    const forkFlags = Array.from({ length: SAMPLES }, (_, i) => ({ type: 'session', session: h.session({ oldestCheckpoint: SAMPLES + 1, canFork: i % 2 === 0 }) }));
    const forkFlagCost = cost(await page.evaluate((m) => window.__bench.series(m), forkFlags));
    // The same chunks into an answer that is already 100 KB long: one of many blocks, as agents
    // write them, and one that is a single 100 KB paragraph.
    // Of those, the message handler alone (zod, mirror, markdown) is what the panel's code costs;
    // the frame is the browser laying out and painting an entry of that size.
    const chunksInto = async (index, text, into = chunks) => {
      await page.evaluate((m) => window.__bench.series([m]), { type: 'entry', index, entry: agent(text) });
      const samples = await page.evaluate((m) => window.__bench.series(m), into.map((c) => ({ ...c, index })));
      return [cost(samples), median(samples.map((s) => s.handler))];
    };
    const [bigChunkCost, bigChunkHandler] = await chunksInto(last + 1, LONG_ANSWER);
    const bigChunkFloor = cost(await page.evaluate(([index, texts]) => window.__bench.byHand(index, texts), [last + 1, chunks.map((c) => c.text)]));
    const [paragraphChunkCost, paragraphChunkHandler] = await chunksInto(last + 2, LONG_PARAGRAPH);
    const codeChunks = chunks.map((c, i) => ({ ...c, text: `\nexport const more${i} = compute(${i});` }));
    const [fenceChunkCost, fenceChunkHandler] = await chunksInto(last + 3, LONG_FENCE, codeChunks);
    if (page.__log.pageErrors.length) throw new Error(`page errors: ${page.__log.pageErrors.join('; ')}`);
    return { restore, restoreComplete, heap, heapDelta: heap - emptyHeap, entryCost, chunkCost, evictionCost, forkFlagCost, bigChunkCost, bigChunkHandler, bigChunkFloor, paragraphChunkCost, paragraphChunkHandler, fenceChunkCost, fenceChunkHandler };
  } finally {
    await h.closePanel(page);
  }
}

export async function longTranscript() {
  const env = await h.launch();
  const results = {};
  try {
    for (const n of SIZES) {
      const snapshot = h.snapshot(entriesOf(n), { session: h.session({ oldestCheckpoint: 1 }) });
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
  const evictionGrowth = large.evictionCost / small.evictionCost;
  const forkFlagGrowth = large.forkFlagCost / small.forkFlagCost;
  table(`3. Long transcripts in the real webview, median of ${RUNS} runs (cost = main-thread ms: message handler + the frame that renders it)`, [
    ['entries', 'restore snapshot: first paint (post → last entry in DOM → frame rendered)', 'every entry rendered', 'append one entry', 'stream one chunk into the last entry', 'the oldest checkpoint kept moves on', 'the agent\'s fork flag changes', 'same, the entry a 100 KB answer of many blocks (of which handler)', 'same, the entry one 100 KB paragraph (of which handler)', 'same, the entry a 100 KB code block still open (of which handler)', 'JS heap after GC (of which transcript)'],
    ...SIZES.map((n) => {
      const r = results[n];
      return [n.toLocaleString('en-US'), ms(r.restore), ms(r.restoreComplete), ms(r.entryCost), ms(r.chunkCost), ms(r.evictionCost), ms(r.forkFlagCost), `${ms(r.bigChunkCost)} (${ms(r.bigChunkHandler)})`, `${ms(r.paragraphChunkCost)} (${ms(r.paragraphChunkHandler)})`, `${ms(r.fenceChunkCost)} (${ms(r.fenceChunkHandler)})`, `${bytes(r.heap)} (${bytes(r.heapDelta)})`];
    }),
  ]);
  table('3. Long transcripts: growth with length', [
    ['figure', 'value', 'target', 'verdict'],
    ['restore 10,000 entries: first paint', ms(large.restore), '≤ 300 ms', verdict(large.restore <= 300)],
    ['append one entry, 10,000 / 100 entries', ratio(entryGrowth), 'does not grow (≤ 1.5×)', verdict(entryGrowth <= 1.5)],
    ['stream one chunk, 10,000 / 100 entries', ratio(chunkGrowth), 'does not grow (≤ 1.5×)', verdict(chunkGrowth <= 1.5)],
    ['the oldest checkpoint kept moves on, 10,000 / 100 entries', ratio(evictionGrowth), 'does not grow (≤ 1.5×)', verdict(evictionGrowth <= 1.5)],
    ['the agent\'s fork flag changes, 10,000 / 100 entries', ratio(forkFlagGrowth), 'does not grow (≤ 1.5×)', verdict(forkFlagGrowth <= 1.5)],
  ]);
  // Only the answer's last blocks are parsed and sanitized again; a single 100 KB paragraph is
  // one block, and the browser lays all of it out again whatever the code does. An open code
  // fence takes the chunk's text as it is into its last piece of lines (markdownRender.ts
  // appendToOpenFence, codeShelves.ts).
  const worst = (key) => Math.max(...SIZES.map((n) => results[n][key]));
  const bigChunk = worst('bigChunkCost');
  table('3. Long transcripts: one chunk into a 100 KB answer, worst of the three lengths', [
    ['figure', 'value', 'target', 'verdict'],
    ['stream one chunk into a 100 KB answer (many blocks)', ms(bigChunk), '< 5 ms', verdict(bigChunk < 5)],
    ['of which the message handler (zod, mirror, markdown)', ms(worst('bigChunkHandler')), '', ''],
    ['floor: the same text appended to its last block by hand (no message, no markdown)', ms(worst('bigChunkFloor')), '', ''],
    ['one chunk into a 100 KB code block still open (a file streamed into the answer)', ms(worst('fenceChunkCost')), '', ''],
  ]);
  return { results, entryGrowth, chunkGrowth, evictionGrowth, forkFlagGrowth, bigChunk };
}

if (import.meta.url === `file://${process.argv[1]}`) await longTranscript();
