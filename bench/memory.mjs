// Memory of a long session: 100,000 messages (50,000 prompts and their answers, each streamed
// in chunks) and 1,000 tool calls that each edit a 100 KB file (a diff of two 100 KB texts).
//
// Extension host: the session engine in plain Node (Transcript, SessionState, ViewFeed posting
// to a panel that answers `rendered` at once), fed as the connection feeds it (every update
// parsed by the protocol's schema, then Transcript.apply). Its heap growth is heapUsed after
// GC, before and after; it runs in a child process started with --expose-gc.
// Webview: the real bundle in headless Chromium restores that session's snapshot (what the host
// posts when the panel opens); its JS heap after GC (CDP HeapProfiler.collectGarbage, then
// Runtime.getHeapUsage), once every entry is rendered, against an empty panel's.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytes, count, table, verdict } from './stats.mjs';

const require = createRequire(import.meta.url);
const h = require('../test/webview/harness.js');

const MESSAGES = 100_000;
const DIFFS = 1_000;
const FILE_CHARS = 100_000;
const HOST_MB = 150;
const WEBVIEW_MB = 100;
const MB = 1024 * 1024;

/** File `i` of about FILE_CHARS, built flat (no string shared with another file's). */
function file(i, edited) {
  const lines = [];
  for (let n = 0, size = 0; size < FILE_CHARS; n++) {
    const line = `export const value${n}_${i} = compute(${n}, '${edited && n === 7 ? 'edited' : 'original'}'); // file ${i}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

/** An answer of about 300 characters in 4 chunks, as agents stream them. */
const answer = (turn) => [`The failing test in \`src/reader${turn}.ts\` `, 'calls **parse** with an empty buffer, so the reader returns before it sets the state. ', 'The fix checks the length first and keeps the order of events; ', `the other callers are unchanged (turn ${turn}).`];

/** The host side, in a child with --expose-gc: prints its figures as JSON, writes the snapshot to `snapshotFile`. */
async function hostSide(snapshotFile) {
  const { Transcript } = require('../out/src/session/transcript.js');
  const { SessionState } = require('../out/src/session/sessionState.js');
  const { ViewFeed } = require('../out/src/view/viewFeed.js');
  const { SessionUpdateSchema } = require('../out/src/protocol/index.js');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  // V8 sweeps after a GC on threads of its own: under load, heapUsed read at once still counts
  // garbage (a busy machine read 190 MB where a quiet one read 34). A few rounds, and the least.
  const heap = async () => {
    const readings = [];
    for (let i = 0; i < 4; i++) {
      await settle();
      global.gc();
      readings.push(process.memoryUsage().heapUsed);
    }
    return Math.min(...readings);
  };
  const before = await heap();
  const transcript = new Transcript();
  const session = new SessionState();
  let posts = 0;
  const feed = new ViewFeed((message) => {
    posts++;
    setImmediate(() => feed.rendered(message.seq));
  });
  feed.attach({ transcript, session, currentStatus: h.status('prompting'), onStatus: () => ({ dispose: () => undefined }) });
  const apply = (update) => transcript.apply(SessionUpdateSchema.parse(update));
  const turns = MESSAGES / 2;
  const diffEvery = turns / DIFFS;
  const started = performance.now();
  for (let turn = 0; turn < turns; turn++) {
    transcript.addUserPrompt(`Prompt ${turn}: fix the failing test in src/reader${turn}.ts`);
    for (const text of answer(turn)) apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    if (turn % diffEvery === diffEvery - 1) {
      const i = (turn - diffEvery + 1) / diffEvery;
      apply({ sessionUpdate: 'tool_call', toolCallId: `edit-${i}`, title: `Edit src/file${i}.ts`, kind: 'edit', status: 'completed', content: [{ type: 'diff', path: `/w/src/file${i}.ts`, oldText: file(i, false), newText: file(i, true) }] });
    }
    // Let the feed post and the panel answer now and then, as a live session does.
    if (turn % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  const fed = performance.now() - started;
  const after = await heap();
  const entries = transcript.entries.length;
  let snapshot;
  const capture = new ViewFeed((message) => { snapshot = message; });
  capture.attach({ transcript, session, currentStatus: h.status('ready'), onStatus: () => ({ dispose: () => undefined }) });
  writeFileSync(snapshotFile, JSON.stringify(snapshot));
  feed.dispose();
  capture.dispose();
  console.log(JSON.stringify({ before, after, entries, posts, fed, snapshotBytes: JSON.stringify(snapshot).length }));
}

async function heapUsage(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usage;
}

async function webviewSide(snapshotFile) {
  const env = await h.launch();
  try {
    const page = await h.openPanel(env, { timeout: 300_000 });
    try {
      const empty = await heapUsage(page);
      const started = performance.now();
      // Parsed in the page, as VS Code hands the webview a message: the string itself is dropped after.
      await page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), readFileSync(snapshotFile, 'utf8'));
      await page.waitForFunction(() => document.querySelector('#transcript .entry-pending') === null && document.querySelector('#transcript .entry'), null, { timeout: 300_000, polling: 500 });
      const rendered = performance.now() - started;
      const full = await heapUsage(page);
      const entries = await page.evaluate(() => document.querySelectorAll('#transcript .entry').length);
      if (page.__log.pageErrors.length || page.__log.consoleWarnings.length) throw new Error(`memory: the page complained: ${[...page.__log.pageErrors, ...page.__log.consoleWarnings].join('; ')}`);
      return { empty, full, entries, rendered };
    } finally {
      await h.closePanel(page);
    }
  } finally {
    await env.close();
  }
}

export async function memory() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-bench-memory-'));
  const snapshotFile = path.join(dir, 'snapshot.json');
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--host', snapshotFile], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const host = JSON.parse(out.trim().split('\n').at(-1));
    const web = await webviewSide(snapshotFile);
    const hostGrowth = host.after - host.before;
    const webHeap = web.full.usedSize;
    table(`4. Memory: ${count(MESSAGES)} messages and ${count(DIFFS)} diffs of two ${count(FILE_CHARS / 1000)} KB texts (${count(host.entries)} entries)`, [
      ['figure', 'value', 'target', 'verdict'],
      ['extension host: heapUsed growth after GC (Transcript, SessionState, ViewFeed)', bytes(hostGrowth), `≤ ${HOST_MB} MB`, verdict(hostGrowth <= HOST_MB * MB)],
      ['  fed in (ms), posts to the panel, snapshot size', `${count(host.fed)} ms, ${count(host.posts)} posts, ${bytes(host.snapshotBytes)}`, '', ''],
      ['webview: JS heap after GC, every entry rendered (empty panel)', `${bytes(webHeap)} (${bytes(web.empty.usedSize)})`, `≤ ${WEBVIEW_MB} MB`, verdict(webHeap <= WEBVIEW_MB * MB)],
      ['  DOM (Blink\'s heap, when Chromium reports it), entries in the DOM, ms until all rendered', `${web.full.embedderHeapUsedSize === undefined ? 'n/a' : bytes(web.full.embedderHeapUsedSize)}, ${count(web.entries)}, ${count(web.rendered)} ms`, '', ''],
    ]);
    return { hostGrowth, webHeap, hostMet: hostGrowth <= HOST_MB * MB, webMet: webHeap <= WEBVIEW_MB * MB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--host') await hostSide(process.argv[3]);
else if (import.meta.url === `file://${process.argv[1]}`) await memory();
