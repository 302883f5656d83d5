// Streaming to pixels: 100,000 text chunks enter the host model (Transcript.apply, as the
// connection hands them over) at a fixed rate; src/view/viewFeed.ts posts them into the real
// webview bundle in headless Chromium as window 'message' events (test/webview/harness.js), one
// post at a time, and the page's `rendered` answers go back to the feed, as VS Code's
// onDidReceiveMessage would bring them. Each chunk carries a unique token (w<i>x), so the page
// can tell which chunks are in the DOM, and the final DOM text is checked to hold every token in
// order.
//
// Clocks: "host → DOM" runs from the chunk's Transcript.apply (Node clock) to a MutationObserver
// on #transcript seeing its token (page clock). The page clock is mapped onto Node's as NTP
// does: from the ping with the shortest round trip, so the mapping is good to half that trip;
// the bench prints that bound and how far the mapping moved during the run. Its parts: "held in
// the host" (Node clock: apply → ViewFeed's post) and "webview" (page clock: the message posted
// into the page → the token in the DOM, including any wait in the page's task queue).
import { createRequire } from 'node:module';
import { median, ms, percentile, table, verdict, count } from './stats.mjs';

const require = createRequire(import.meta.url);
const h = require('../test/webview/harness.js');
const { Transcript } = require('../out/src/session/transcript.js');
const { SessionState } = require('../out/src/session/sessionState.js');
const { ViewFeed } = require('../out/src/view/viewFeed.js');

const CHUNKS = 100_000;
const RATE = 10_000; // chunks/s: a fast agent is ~100–300/s, so this is a stress rate
const PER_MESSAGE = 250; // an answer of ~250 chunks, then a tool call, then the next answer
const RUNS = 5;

/** Chunk i: its token, with some markdown around it as an LLM would stream. */
function chunk(i) {
  const token = `w${i}x`;
  if (i % 50 === 49) return `${token}\n\n`;
  if (i % 11 === 0) return `\`${token}\` `;
  if (i % 7 === 0) return `**${token}** `;
  return `${token} `;
}

/** The highest token in a HostToView message (entries and appends, batches included), or -1. */
function maxToken(message) {
  const texts = [];
  const walk = (m) => {
    if (m.type === 'batch') m.messages.forEach(walk);
    else if (m.type === 'append') texts.push(m.text);
    else if (m.type === 'entry' && m.entry.kind === 'agent') texts.push(m.entry.text);
  };
  walk(message);
  let max = -1;
  for (const text of texts) for (const [, n] of text.matchAll(/w(\d+)x/g)) max = Math.max(max, Number(n));
  return max;
}

/** Installs the page-side probes: message arrival and DOM arrival of tokens, on the page clock. */
function installProbes(page) {
  return page.evaluate((maxTokenSource) => {
    const maxToken = new Function(`return (${maxTokenSource})`)();
    let arrivals; // [max token, time it was posted into the page]
    let webview;
    let landings; // [highest token in the DOM, when it got there]
    let lastDom;
    window.__resetProbes = () => {
      [arrivals, webview, landings, lastDom] = [[], [], [], -1];
    };
    window.__resetProbes();
    // Called as the message is posted into the page: a listener would run after the webview's
    // (at the window, in the order they were added), which may already have rendered it.
    window.__arrive = (message) => {
      const max = maxToken(message);
      if (max > lastDom) arrivals.push([max, performance.now()]);
    };
    const root = document.getElementById('transcript');
    // Entries from the last one back, across their groups and sections
    // (#transcript > .entry-section > .entry-group > .entry).
    const previous = (el) => el.previousElementSibling
      ?? el.parentElement.previousElementSibling?.lastElementChild
      ?? el.parentElement.parentElement.previousElementSibling?.lastElementChild?.lastElementChild;
    new MutationObserver(() => {
      const now = performance.now();
      let dom = -1;
      for (let el = root.lastElementChild?.lastElementChild?.lastElementChild; el && dom < 0; el = previous(el)) {
        const all = el.textContent.match(/w(\d+)x/g);
        if (all) dom = Number(all[all.length - 1].slice(1, -1));
      }
      if (dom <= lastDom) return;
      lastDom = dom;
      landings.push([dom, now]);
      while (arrivals.length && arrivals[0][0] <= dom) webview.push(now - arrivals.shift()[1]);
    }).observe(root, { childList: true, subtree: true, characterData: true });
    window.__lastDom = () => lastDom;
    window.__results = () => ({ landings, webview });
  }, maxToken.toString());
}

/**
 * The bench's stand-in for VS Code's IPC between the extension host and the webview: raw CDP,
 * the lightest way into the page (Playwright's evaluate and exposeBinding add work and round
 * trips of their own). Host → page: a call of one page function with the message as its
 * argument; page → host: bindings, called with a JSON string; `value` reads an expression.
 */
async function rawChannel(page, bindings) {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Runtime.bindingCalled', ({ name, payload }) => bindings[name]?.(JSON.parse(payload)));
  await cdp.send('Runtime.enable');
  for (const name of Object.keys(bindings)) await cdp.send('Runtime.addBinding', { name });
  const value = async (expression) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value;
  // Posting calls one function compiled once, with the message as a protocol value (as
  // postMessage passes a structured clone), rather than compiling a script per message.
  const { result: deliver } = await cdp.send('Runtime.evaluate', { expression: '(m) => { window.__arrive(m); window.postMessage(m, "*"); }' });
  const post = (message) => cdp.send('Runtime.callFunctionOn', { objectId: deliver.objectId, functionDeclaration: 'function (m) { this(m); }', arguments: [{ value: message }] });
  return { post, value };
}

/**
 * What to add to a page time to get the Node time of the same instant, from the ping with the
 * shortest round trip (its error is at most half that trip), as NTP does.
 */
async function clockOffset(channel, pings = 50) {
  let best = { offset: 0, rtt: Infinity };
  for (let i = 0; i < pings; i++) {
    const sent = performance.now();
    const pageNow = await channel.value('performance.now()');
    const back = performance.now();
    if (back - sent < best.rtt) best = { offset: (sent + back) / 2 - pageNow, rtt: back - sent };
  }
  return best;
}

/** One panel for every run, so that the runs after the warm-up find its code compiled. */
async function openStream(env) {
  const page = await h.openPanel(env, {});
  const route = { rendered: (_seq) => {} };
  await installProbes(page);
  const channel = await rawChannel(page, { __rendered: (seq) => route.rendered(seq) });
  await page.evaluate(() => {
    window.__toHost = (message) => {
      if (message.type === 'rendered') window.__rendered(JSON.stringify(message.seq));
    };
  });
  return { page, channel, route };
}

/** Streams `chunks` chunks into the panel, from a fresh session (its snapshot clears the panel). */
async function streamOnce({ page, channel, route }, chunks = CHUNKS) {
  const hostAt = new Float64Array(chunks); // Node clock: when chunk i was applied
  const held = [];
  let posted = -1;
  let posts = 0;
  await channel.value('window.__resetProbes()');
  const before = await clockOffset(channel);

  const transcript = new Transcript();
  const session = new SessionState();
  const status = h.status('prompting');
  const deliveries = [];
  const feed = new ViewFeed((message) => {
    const now = performance.now();
    const max = maxToken(message);
    for (let i = posted + 1; i <= max; i++) held.push(now - hostAt[i]);
    posted = Math.max(posted, max);
    posts++;
    // Not awaited, as VS Code's webview.postMessage is not: one CDP session keeps the order.
    deliveries.push(channel.post(message));
  });
  route.rendered = (seq) => feed.rendered(seq);
  feed.attach({ transcript, session, currentStatus: status, onStatus: () => ({ dispose: () => undefined }) });
  transcript.addUserPrompt('Explain the code base, in detail');

  const start = performance.now();
  let next = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(chunks, Math.floor(((performance.now() - start) * RATE) / 1000));
      for (; next < due; next++) {
        if (next > 0 && next % PER_MESSAGE === 0) {
          transcript.apply({ sessionUpdate: 'tool_call', toolCallId: `t${next}`, title: 'Read file', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] });
        }
        hostAt[next] = performance.now();
        transcript.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk(next) } });
      }
      if (next < chunks) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const streamed = performance.now() - start;
  const deadline = performance.now() + 60_000;
  let landed;
  while ((landed = await channel.value('window.__lastDom()')) < chunks - 1) {
    if (performance.now() > deadline) throw new Error(`pixels: only ${landed + 1} of ${chunks} chunks reached the DOM`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.all(deliveries);
  feed.dispose();
  const after = await clockOffset(channel);

  const { landings, webview } = await page.evaluate(() => window.__results());
  // Chunk i landed with the first landing that holds a token ≥ i.
  const offset = (before.offset + after.offset) / 2;
  const e2e = [];
  for (const [dom, at] of landings) while (e2e.length <= dom) e2e.push(at + offset - hostAt[e2e.length]);
  const clock = { error: Math.max(before.rtt, after.rtt) / 2, drift: Math.abs(after.offset - before.offset) };
  // Every token, in order, exactly once: nothing lost, duplicated or reordered.
  const intact = await page.evaluate((n) => {
    const tokens = document.getElementById('transcript').textContent.match(/w(\d+)x/g) ?? [];
    return tokens.length === n && tokens.every((t, i) => t === `w${i}x`);
  }, chunks);
  const clean = page.__log.pageErrors.length === 0;
  return { streamed, posts, e2e, held, webview, clock, intact: intact && clean };
}

export async function pixels() {
  const env = await h.launch();
  const runs = [];
  try {
    const stream = await openStream(env);
    await streamOnce(stream, CHUNKS / 10); // warm-up: compiles the panel's code
    for (let i = 0; i < RUNS; i++) runs.push(await streamOnce(stream));
  } finally {
    await env.close();
  }
  const med = (f) => median(runs.map(f));
  const p = (key, q) => med((r) => percentile(r[key], q));
  const p95 = p('e2e', 95);
  const intact = runs.every((r) => r.intact);
  table(`2. Streaming to pixels: ${count(CHUNKS)} chunks at ${count(RATE)}/s into the real webview (headless Chromium), median of ${RUNS} runs`, [
    ['measure (the parts leave out the delivery into the page)', 'p50', 'p95', 'max'],
    ['host → DOM: Transcript.apply (Node clock) → token in the DOM (page clock, mapped)', ms(p('e2e', 50)), ms(p95), ms(p('e2e', 100))],
    ['  of which held in the host: Transcript.apply → ViewFeed post (Node clock)', ms(p('held', 50)), ms(p('held', 95)), ms(p('held', 100))],
    ['  of which webview: message posted in the page → token in the DOM (page clock)', ms(p('webview', 50)), ms(p('webview', 95)), ms(p('webview', 100))],
  ]);
  table('2. Streaming to pixels: rates and checks', [
    ['figure', 'value', 'target', 'verdict'],
    ['posts per second (ViewFeed → webview, one in flight at a time)', (med((r) => r.posts / (r.streamed / 1000))).toFixed(1), '', ''],
    ['chunks per post', (med((r) => CHUNKS / r.posts)).toFixed(0), '', ''],
    ['page clock mapped onto Node\'s: error bound (half the shortest round trip) / drift over a run', `± ${ms(Math.max(...runs.map((r) => r.clock.error)))} / ${ms(Math.max(...runs.map((r) => r.clock.drift)))}`, '', ''],
    ['every chunk in the final DOM, in order, no page error', intact ? 'yes' : 'NO', 'yes', verdict(intact)],
    ['host → DOM p95', ms(p95), '< 16 ms', verdict(p95 < 16)],
  ]);
  return { p50: p('e2e', 50), p95, held95: p('held', 95), webview95: p('webview', 95), postsPerSecond: med((r) => r.posts / (r.streamed / 1000)), intact };
}

if (import.meta.url === `file://${process.argv[1]}`) await pixels();
