// `npm run bench` (after `npm run package && npm run compile`): every benchmark in one run,
// each section in a Node process of its own (section.mjs), printed as tables of medians and
// ratios measured now, on this machine. Nothing here is asserted: the verdicts say whether the
// targets of the performance issue are met.
import { execFileSync, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { bytes, ms, ratio, table, verdict } from './stats.mjs';

const started = performance.now();
const chromium = (() => {
  try {
    return execFileSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'chromium: not found';
  }
})();
console.log('# ACP Host benchmarks');
console.log(`\n${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromium}, load average ${os.loadavg()[0].toFixed(2)} at start`);

/** Runs `name` of `file` in a fresh Node process (bench/section.mjs says why); resolves with what it returned. */
function section(file, name) {
  return new Promise((resolve, reject) => {
    let result;
    const child = fork(fileURLToPath(new URL('./section.mjs', import.meta.url)), [file, name], { stdio: 'inherit', serialization: 'advanced' });
    child.on('message', (message) => (result = message));
    child.on('exit', (code) => (code === 0 && result !== undefined ? resolve(result) : reject(new Error(`bench section ${name} (${file}) exited with ${code}`))));
  });
}

const t = await section('./throughput.mjs', 'throughput');
const f = await section('./folds.mjs', 'folds');
const p = await section('./pixels.mjs', 'pixels');
const l = await section('./longTranscript.mjs', 'longTranscript');
const s = await section('./startup.mjs', 'startup');
const m = await section('./memory.mjs', 'memory');

table('Targets', [
  ['target', 'measured', 'verdict'],
  ['inbound throughput ours/SDK ≥ 3×, both mixes (the lower)', ratio(t.ab), verdict(t.ab >= 3)],
  ['inbound throughput ours/JSON.parse ≥ 0.5×, both mixes (the lower)', ratio(t.ac), verdict(t.ac >= 0.5)],
  ['    the session mix with edits that share no text (for reference)', ratio(t.unchained.ac), ''],
  ['every fold O(update): cost at 100,000 entries / 100 ≤ 1.2×, worst kind', ratio(f.worstGrowth), verdict(f.worstGrowth <= 1.2)],
  ['host → DOM p95 < 16 ms in each of 5 runs (worst run)', ms(p.fresh.worst), verdict(p.fresh.worst < 16)],
  ['same, streaming into the last entry of a 10,000-entry transcript (worst run)', ms(p.long.worst), verdict(p.long.worst < 16)],
  ['no streamed text lost', p.intact ? 'every chunk, in order' : 'text lost', verdict(p.intact)],
  ['restore a 10,000-entry transcript, post → last entry in the DOM → frame rendered ≤ 300 ms', ms(l.results[10_000].restore), verdict(l.results[10_000].restore <= 300)],
  ['append one entry does not grow with length (10,000/100 ≤ 1.5×)', ratio(l.entryGrowth), verdict(l.entryGrowth <= 1.5)],
  ['stream one chunk does not grow with length (10,000/100 ≤ 1.5×)', ratio(l.chunkGrowth), verdict(l.chunkGrowth <= 1.5)],
  ['the oldest checkpoint kept moves on: does not grow with length (10,000/100 ≤ 1.5×)', ratio(l.evictionGrowth), verdict(l.evictionGrowth <= 1.5)],
  ["the agent's fork flag changes: does not grow with length (10,000/100 ≤ 1.5×)", ratio(l.forkFlagGrowth), verdict(l.forkFlagGrowth <= 1.5)],
  ['stream one chunk into a 100 KB answer < 5 ms', ms(l.bigChunk), verdict(l.bigChunk < 5)],
  ['media/webview.js ≤ 250 KiB (release)', bytes(s.webview), verdict(s.webview <= 250 * 1024)],
  ['dist/extension.js + dist/main.js ≤ 400 KiB (release)', bytes(s.extension), verdict(s.extension <= 400 * 1024)],
  ['require + activate ≤ 30 ms (stub vscode API, code cache; cold activation in the real host in table 4)', ms(s.total), verdict(s.total <= 30)],
  ['    the same at the first start of a build (no code cache yet)', ms(s.firstTotal), ''],
  ['100,000 messages and 1,000 diffs of 100 KB: extension host heap growth ≤ 150 MB', bytes(m.hostGrowth), verdict(m.hostMet)],
  ['same session restored: webview JS heap ≤ 100 MB', bytes(m.webHeap), verdict(m.webMet)],
]);
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
