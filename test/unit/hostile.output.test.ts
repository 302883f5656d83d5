// A command that prints without end, run for an agent that set no outputByteLimit: 200 MiB from a
// real child process must leave the extension host holding about the default bound (1 MiB) for
// it, not the whole output. The JS heap (where the output is kept, as strings) is measured after
// a full GC while the output streams and at the end; the pipes' read buffers (external memory,
// freed by a sweeper that may lag the GC) are measured too, with a looser bound.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { currentEnv } from '../../src/agent/environment';
import { DEFAULT_OUTPUT_BYTE_LIMIT, TerminalManager } from '../../src/agent/terminals';
import { utf8Bytes } from '../../src/agent/terminalOutput';

const MIB = 1024 * 1024;
const TOTAL = 200 * MIB;
/** Retained JS heap may grow this much while the 200 MiB stream in (the output kept is 1 MiB of it): ~1.5 MiB measured. */
const HEAP_BOUND = 8 * MIB;
/** Heap and external buffers together: ~2-13 MiB measured (the read buffers in flight vary with the machine's load). */
const TOTAL_BOUND = 32 * MIB;

// node --test runs each file in its own process, so exposing gc here touches no other test.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, total: heapUsed + arrayBuffers };
};

/** 64 KiB lines of text (with a two-byte character in each, so cuts meet multi-byte UTF-8), written as fast as the pipe takes them. */
const FLOOD = `
const line = Buffer.from('é'.padEnd(64 * 1024 - 2, 'x') + '\\n');
let left = Math.ceil(${TOTAL} / line.length);
const go = () => { while (left > 0) { left--; if (!process.stdout.write(line)) return process.stdout.once('drain', go); } };
go();`;

test('200 MiB of output with no outputByteLimit: the terminal keeps the default 1 MiB, and the heap grows by a few MiB at most', { timeout: 120_000 }, async () => {
  const manager = new TerminalManager({ baseEnv: currentEnv, defaultCwd: os.tmpdir() });
  let streamed = 0;
  manager.onData((_id, event) => {
    if ('data' in event) streamed += utf8Bytes(event.data);
  });
  const before = retained();
  const peak = { heap: 0, total: 0 };
  const sample = () => {
    const now = retained();
    peak.heap = Math.max(peak.heap, now.heap - before.heap);
    peak.total = Math.max(peak.total, now.total - before.total);
  };
  const sampler = setInterval(sample, 100);
  let peakRss = 0;
  const rss = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const id = await manager.create({ command: process.execPath, args: ['-e', FLOOD] });
    const exit = await manager.waitForExit(id);
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    assert.ok(streamed >= TOTAL, `all of it went through (${streamed} bytes)`);
    const { output, truncated } = manager.output(id);
    assert.equal(truncated, true);
    const kept = utf8Bytes(output);
    assert.ok(kept <= DEFAULT_OUTPUT_BYTE_LIMIT && kept > DEFAULT_OUTPUT_BYTE_LIMIT - 4, `kept ${kept} bytes`);
    assert.ok(output.endsWith('x\n'), 'the end of the output is what is kept');
    sample();
    const mib = (n: number) => `${(n / MIB).toFixed(1)} MiB`;
    console.log(`200 MiB streamed: kept ${kept} bytes; retained JS heap grew at most ${mib(peak.heap)}, with external buffers ${mib(peak.total)}; peak RSS ${mib(peakRss)}`);
    assert.ok(peak.heap < HEAP_BOUND, `retained heap grew ${mib(peak.heap)}`);
    assert.ok(peak.total < TOTAL_BOUND, `retained heap and buffers grew ${mib(peak.total)}`);
  } finally {
    clearInterval(sampler);
    clearInterval(rss);
    manager.dispose();
  }
});

test('the agent’s own outputByteLimit holds below the user’s bound and is clamped to it above; the bound is read at each create', { timeout: 20_000 }, async () => {
  let limit = 100;
  const manager = new TerminalManager({ baseEnv: currentEnv, defaultCwd: os.tmpdir(), maxOutputByteLimit: () => limit });
  const print = `process.stdout.write('y'.repeat(5000))`;
  try {
    const own = await manager.create({ command: process.execPath, args: ['-e', print], outputByteLimit: 50 });
    const byDefault = await manager.create({ command: process.execPath, args: ['-e', print] });
    const asksForMore = await manager.create({ command: process.execPath, args: ['-e', print], outputByteLimit: Number.MAX_SAFE_INTEGER });
    limit = 10;
    const changed = await manager.create({ command: process.execPath, args: ['-e', print], outputByteLimit: null });
    const ids = [own, byDefault, asksForMore, changed];
    await Promise.all(ids.map((id) => manager.waitForExit(id)));
    assert.deepEqual(ids.map((id) => manager.output(id).output.length), [50, 100, 100, 10]);
    // The agent is told its output was cut, as with its own limit.
    assert.ok(ids.every((id) => manager.output(id).truncated));
  } finally {
    manager.dispose();
  }
});
