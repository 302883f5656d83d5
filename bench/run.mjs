// `npm run bench` (after `npm run package && npm run compile`): every benchmark in one run,
// printed as tables of medians and ratios measured now, on this machine. Nothing here is
// asserted: the verdicts say whether the targets of the performance issue are met.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { throughput } from './throughput.mjs';
import { folds } from './folds.mjs';
import { pixels } from './pixels.mjs';
import { longTranscript } from './longTranscript.mjs';
import { startup } from './startup.mjs';
import { ms, ratio, table, verdict } from './stats.mjs';

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

const t = await throughput();
const f = await folds();
const p = await pixels();
const l = await longTranscript();
await startup();

table('Targets', [
  ['target', 'measured', 'verdict'],
  ['inbound throughput ours/SDK ≥ 3×, both mixes (the lower)', ratio(t.ab), verdict(t.ab >= 3)],
  ['inbound throughput ours/JSON.parse ≥ 0.5×, both mixes (the lower)', ratio(t.ac), verdict(t.ac >= 0.5)],
  ['every fold O(update): cost at 100,000 entries / 100 ≤ 1.2×, worst kind', ratio(f.worstGrowth), verdict(f.worstGrowth <= 1.2)],
  ['host → DOM p95 < 16 ms', ms(p.p95), verdict(p.p95 < 16)],
  ['no streamed text lost', p.intact ? 'every chunk, in order' : 'text lost', verdict(p.intact)],
  ['append one entry does not grow with length (10,000/100 ≤ 1.5×)', ratio(l.entryGrowth), verdict(l.entryGrowth <= 1.5)],
  ['stream one chunk does not grow with length (10,000/100 ≤ 1.5×)', ratio(l.chunkGrowth), verdict(l.chunkGrowth <= 1.5)],
  ['stream one chunk into a 100 KB answer < 5 ms', ms(l.bigChunk), verdict(l.bigChunk < 5)],
]);
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
