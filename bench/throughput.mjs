// Inbound throughput: the same NDJSON bytes of a long turn, in 64 KiB chunks as a pipe hands
// them over, through (a) our pipeline (NdjsonMessageReader + AcpConnection with zod validation +
// the Transcript/SessionState fold, as AgentSession.serve does), (b) @agentclientprotocol/sdk
// (ndJsonStream + a client app, its own zod validation, a handler that only counts) and (c) the
// floor: splitting lines and JSON.parse. Runs alternate a, b, c so noise hits all three alike.
import { createRequire } from 'node:module';
import { PassThrough, Readable, Writable } from 'node:stream';
import * as sdk from '@agentclientprotocol/sdk';
import { longTurnNdjson, planAndToolNdjson } from './traffic.mjs';
import { count, median, ratio, repeat, table, verdict } from './stats.mjs';

const require = createRequire(import.meta.url);
const { AcpConnection } = require('../out/src/agent/connection.js');
const { clientMethods } = require('../out/src/protocol/index.js');
const { Transcript } = require('../out/src/session/transcript.js');
const { SessionState } = require('../out/src/session/sessionState.js');

const CHUNK = 64 * 1024;
const RUNS = 7;
const quietLog = { info() {}, warn() {}, error: (m) => console.error(m) };

function chunksOf(bytes) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
  return chunks;
}

/** Resolves with the elapsed ms once `expected` messages were handled; `fold` false skips the model. */
function ours(chunks, expected, { fold = true } = {}) {
  return new Promise((resolve, reject) => {
    const input = new PassThrough();
    const connection = new AcpConnection(input, new Writable({ write: (_c, _e, done) => done() }), { log: quietLog });
    const transcript = new Transcript();
    const session = new SessionState();
    let handled = 0;
    const start = performance.now();
    connection.onNotification(clientMethods.sessionUpdate, ({ update }) => {
      if (fold && !transcript.apply(update)) session.apply(update);
      if (++handled === expected) {
        const elapsed = performance.now() - start;
        connection.dispose();
        resolve(elapsed);
      }
    });
    connection.closed.then(() => handled < expected && reject(new Error(`ours: ${handled} of ${expected} messages`)));
    Readable.from(chunks, { objectMode: false }).pipe(input);
  });
}

function theirs(chunks, expected) {
  return new Promise((resolve, reject) => {
    let next = 0;
    const input = new ReadableStream({ pull: (c) => (next < chunks.length ? c.enqueue(chunks[next++]) : c.close()) });
    const output = new WritableStream({ write() {} });
    let handled = 0;
    const start = performance.now();
    const app = sdk.client({ name: 'bench' }).onNotification(sdk.methods.client.session.update, () => {
      if (++handled === expected) {
        resolve(performance.now() - start);
        connection.close();
      }
    });
    const connection = app.connect(sdk.ndJsonStream(output, input));
    connection.closed.then(() => handled < expected && reject(new Error(`sdk: ${handled} of ${expected} messages`)));
  });
}

function bare(chunks, expected) {
  const start = performance.now();
  let carry = Buffer.alloc(0);
  let parsed = 0;
  for (const chunk of chunks) {
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let from = 0;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, from)) {
      JSON.parse(data.toString('utf8', from, nl));
      parsed++;
      from = nl + 1;
    }
    carry = data.subarray(from);
  }
  if (parsed !== expected) throw new Error(`bare: ${parsed} of ${expected} lines`);
  return performance.now() - start;
}

/** One mix through (a), (a) without the fold, (b) and (c), run after run; medians and per-run ratios. */
async function measure(title, { bytes, messages }) {
  const chunks = chunksOf(bytes);
  const rates = { a: [], aNoFold: [], b: [], c: [] };
  await repeat(RUNS, async (run) => {
    const a = await ours(chunks, messages);
    const aNoFold = await ours(chunks, messages, { fold: false });
    const b = await theirs(chunks, messages);
    const c = bare(chunks, messages);
    if (run < 0) return; // warm-up: JIT, first-load costs
    rates.a.push(messages / (a / 1000));
    rates.aNoFold.push(messages / (aNoFold / 1000));
    rates.b.push(messages / (b / 1000));
    rates.c.push(messages / (c / 1000));
  });
  const m = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
  // Ratios per run (the three ran back to back), then their median.
  const ab = median(rates.a.map((a, i) => a / rates.b[i]));
  const ac = median(rates.a.map((a, i) => a / rates.c[i]));
  const mb = (bytes.length / 1024 / 1024).toFixed(1);
  const mbps = (rate) => ((rate * bytes.length) / messages / 1e6).toFixed(1);
  table(`1. Inbound throughput, ${title}: ${count(messages)} messages (${mb} MB of NDJSON) in 64 KiB chunks, median of ${RUNS} runs`, [
    ['pipeline', 'messages/s', 'MB/s'],
    ['(a) ours: NdjsonMessageReader + AcpConnection (zod) + Transcript/SessionState fold', count(m.a), mbps(m.a)],
    ['    (a) without the model fold (framing + validation only)', count(m.aNoFold), mbps(m.aNoFold)],
    ['(b) @agentclientprotocol/sdk: ndJsonStream + client app (zod), no-op handler', count(m.b), mbps(m.b)],
    ['(c) split lines + JSON.parse only', count(m.c), mbps(m.c)],
    ['ratio a/b (median of per-run ratios), target ≥ 3×', ratio(ab), verdict(ab >= 3)],
    ['ratio a/c, target ≥ 0.5×', ratio(ac), verdict(ac >= 0.5)],
  ]);
  return { messages, bytes: bytes.length, rates: m, ab, ac };
}

/**
 * Both mixes: one long answer with tools (the first), and a long session's plan- and tool-heavy
 * traffic. Then the session again with edits that do not chain, for reference: kept diff texts
 * share what consecutive edits of a file have in common (src/session/diffTexts.ts), and this is
 * what the fold costs when they have nothing.
 */
export async function throughput() {
  const turn = await measure('a long turn', longTurnNdjson({ seed: 1, steps: 300, chunks: 60 }));
  const session = await measure('plan- and tool-heavy session', planAndToolNdjson({ seed: 2, messages: 200_000 }));
  const unchained = await measure('the same session, each edit from a file changed since the last (no text shared)', planAndToolNdjson({ seed: 2, messages: 200_000, chained: false }));
  return { turn, session, unchained, ab: Math.min(turn.ab, session.ab), ac: Math.min(turn.ac, session.ac) };
}

if (import.meta.url === `file://${process.argv[1]}`) await throughput();
