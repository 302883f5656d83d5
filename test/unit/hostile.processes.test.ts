// Hostile agents as real subprocesses (test/fixtures/agents/hostile-*.js, and huge-line.js at
// 100 MB): what they do must end in a clean error or be shrugged off, never a hang, a crash,
// unbounded memory, half a message, or a process left behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConnectionClosedError } from '../../src/agent/connectionErrors';
import { currentEnv } from '../../src/agent/environment';
import { startAgent } from '../../src/agent/launch';
import { TerminalManager } from '../../src/agent/terminals';
import type { RunningAgent, StartOptions } from '../../src/agent/launch';
import { groupAlive } from '../../src/agent/groupSignals';
import { agentMethods, clientMethods } from '../../src/protocol';
import type { SessionNotification } from '../../src/protocol';
import { alive } from './helpers/processes';
import { recordingLog, until } from './helpers/streams';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SLOW = { timeout: 60_000 };
const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc'); // this file runs in its own process under node --test
const gc = runInNewContext('gc') as () => void;

/** Samples the growth of retained memory (after a full GC) until `stop`, which returns its peak. */
function retainedGrowth(everyMs: number): { stop(): number } {
  gc();
  const base = process.memoryUsage();
  let peak = 0;
  const sampler = setInterval(() => {
    gc();
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
  }, everyMs);
  return {
    stop() {
      clearInterval(sampler);
      return peak;
    },
  };
}

async function start(fixture: string, env: Record<string, string> = {}, options: Partial<StartOptions> = {}) {
  const log = recordingLog();
  const updates: SessionNotification[] = [];
  const agent = await startAgent(
    { command: process.execPath, args: [path.join(FIXTURES, fixture)], cwd: os.tmpdir(), env: { ...currentEnv(), FAKE_CHUNK_DELAY_MS: '1', ...env } },
    { name: fixture, clientInfo: { name: 't', version: '0' }, clientCapabilities: {}, initializeTimeoutMs: 10_000, log, ...options },
    (c) => c.onNotification(clientMethods.sessionUpdate, (n) => updates.push(n)),
  );
  const newSession = async () => (await agent.connection.request(agentMethods.sessionNew, { cwd: os.tmpdir(), mcpServers: [] })).sessionId;
  const prompt = (sessionId: string, text = 'hello') => agent.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: [{ type: 'text', text }] });
  return { agent, log, updates, newSession, prompt };
}

const stop = (agent: RunningAgent) => {
  agent.connection.dispose();
  return agent.process.shutdown({ graceMs: 300, termMs: 300 });
};

const textOf = (updates: SessionNotification[]) =>
  updates.map((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '')).join('');

test('a single 100 MB line is dropped at the 32 MiB cap without being buffered, logged, and the next turn works', SLOW, async () => {
  const bytes = 100 * 1000 * 1000;
  // Retained memory (after a full GC), sampled while the line streams in: what the reader holds.
  const memory = retainedGrowth(20);
  const started = Date.now();
  const { agent, log, updates, newSession, prompt } = await start('huge-line.js', { FAKE_HUGE_BYTES: String(bytes) });
  try {
    await until('the drop to be logged', () => (log.text('error').includes(`${bytes} bytes`) ? true : undefined), 30_000);
    const dropped = Date.now() - started;
    const peak = memory.stop();
    const { stopReason } = await prompt(await newSession(), 'after the 100 MB line');
    assert.equal(stopReason, 'end_turn');
    assert.equal(textOf(updates), 'after the 100 MB line');
    console.log(`100 MB line: dropped and logged after ${dropped} ms, peak retained growth ${(peak / MiB).toFixed(1)} MiB`);
    assert.ok(peak < 48 * MiB, `retained memory grew by ${(peak / MiB).toFixed(1)} MiB while the line streamed in`);
  } finally {
    memory.stop();
    await stop(agent);
  }
});

test('an agent that never answers a prompt: cancel goes out, and killing it rejects the prompt with ConnectionClosedError', SLOW, async () => {
  const { agent, newSession, prompt } = await start('hostile-never-answer.js');
  const sessionId = await newSession();
  const turn = prompt(sessionId);
  let settled = false;
  void turn.then(() => (settled = true), () => (settled = true));
  await agent.connection.notify(agentMethods.sessionCancel, { sessionId });
  await until('the agent to see session/cancel', () => (agent.process.stderrTail.last().some((l) => l.includes(`session/cancel for ${sessionId}`)) ? true : undefined));
  assert.equal(settled, false, 'the agent ignores the cancel, so the prompt is still pending');
  const started = Date.now();
  const exit = await stop(agent); // stdin EOF and SIGTERM are ignored: it takes SIGKILL
  await assert.rejects(turn, ConnectionClosedError);
  assert.equal(exit.signal, 'SIGKILL');
  assert.ok(Date.now() - started < 5000, `shutdown took ${Date.now() - started} ms`);
});

test('the same, but the process is killed under a live connection: the pending prompt rejects, nothing hangs', SLOW, async () => {
  const { agent, newSession, prompt } = await start('hostile-never-answer.js');
  const turn = prompt(await newSession());
  agent.process.kill();
  await assert.rejects(turn, ConnectionClosedError);
  await agent.connection.closed;
  assert.equal((await agent.process.exited).signal, 'SIGKILL');
});

test('an agent that answers a request twice: the first answer counts, the second is logged and ignored, later requests work', SLOW, async () => {
  const { agent, log, updates, newSession, prompt } = await start('hostile-double-answer.js');
  try {
    assert.equal(await newSession(), 'first-1');
    await until('the second answer to be logged', () => (/answered twice/.test(log.text('warn')) ? true : undefined));
    assert.equal((await prompt('first-1', 'still fine')).stopReason, 'end_turn');
    assert.equal(textOf(updates), 'still fine');
    assert.equal(await newSession(), 'first-2');
    await until('both second answers logged', () => (log.entries.filter((e) => /answered twice/.test(e.message)).length === 2 ? true : undefined));
  } finally {
    await stop(agent);
  }
});

test('an agent killed in the middle of a huge message: no half message is delivered, the turn fails cleanly', SLOW, async () => {
  for (const { cap, expect } of [
    { cap: undefined, expect: /Malformed JSON/ }, // under the cap: parsed at EOF, and refused as broken JSON
    { cap: MiB, expect: /Dropped a message of \d+ bytes/ }, // over the cap: dropped as too long
  ]) {
    const { agent, log, updates, newSession, prompt } = await start('hostile-half-line.js', { FAKE_HALF_BYTES: String(4 * MiB) }, { maxLineBytes: cap });
    await assert.rejects(prompt(await newSession()), ConnectionClosedError);
    assert.equal((await agent.process.exited).signal, 'SIGKILL');
    await agent.connection.closed;
    assert.deepEqual(updates, [], 'no session/update was delivered');
    assert.match(log.text(), expect);
    await stop(agent);
  }
});

test('an agent whose children and orphaned grandchildren ignore SIGTERM: after shutdown nothing of its group is left', SLOW, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-tree-'));
  const pidFile = path.join(dir, 'pids.json');
  const { agent } = await start('hostile-spawner.js', { FAKE_PID_FILE: pidFile, FAKE_CHILDREN: '2' });
  let pids: number[] = [];
  try {
    pids = await until('the pid file', () => {
      try {
        return JSON.parse(readFileSync(pidFile, 'utf8')) as number[];
      } catch {
        return undefined;
      }
    });
    // The agent, 3 children and 3 grandchildren; two children have exited, orphaning theirs.
    assert.equal(pids.length, 7);
    await until('the two children that leave to be gone', () => (pids.filter(alive).length === 5 ? true : undefined));
    const group = agent.process.pid!;
    assert.equal(groupAlive(group, false), true);
    agent.connection.dispose();
    const exit = await agent.process.shutdown({ graceMs: 300, termMs: 300 });
    assert.equal(exit.signal, 'SIGKILL');
    await until('every process of the group to be gone', () => (!groupAlive(group, true) && pids.every((p) => !alive(p)) ? true : undefined), 10_000);
  } finally {
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command printing 200 MiB under outputByteLimit 1 MiB: memory stays bounded, the output is the last MiB', SLOW, async () => {
  const limit = MiB;
  const manager = new TerminalManager({ baseEnv: () => currentEnv(), defaultCwd: os.tmpdir(), killGraceMs: 200 });
  const memory = retainedGrowth(25);
  try {
    const script = "const b = Buffer.alloc(1 << 20, 'y'); for (let i = 0; i < 200; i++) require('fs').writeSync(1, b); process.stdout.write('THE END')";
    const id = await manager.create({ command: process.execPath, args: ['-e', script], outputByteLimit: limit });
    assert.deepEqual(await manager.waitForExit(id), { exitCode: 0, signal: null });
    const { output, truncated } = manager.output(id);
    assert.equal(truncated, true);
    assert.ok(Buffer.byteLength(output) <= limit && Buffer.byteLength(output) > limit - 4);
    assert.ok(output.endsWith('yyyTHE END'));
    const peak = memory.stop();
    console.log(`terminal: 200 MiB of output under a 1 MiB limit, peak retained growth ${(peak / MiB).toFixed(1)} MiB`);
    assert.ok(peak < 16 * MiB, `retained memory grew by ${(peak / MiB).toFixed(1)} MiB`);
  } finally {
    memory.stop();
    manager.dispose();
  }
});
