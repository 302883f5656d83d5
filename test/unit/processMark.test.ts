// Nothing outlives the window, even a process that left its group: every process ACP Host starts
// carries this extension host's mark (src/agent/processMark.ts), and when the window goes,
// after the group kill, every process that still carries it is ended. The scan and the sweep
// with a fake /proc and a fake `ps`; then real processes on Linux: a command run with `setsid`
// from a client terminal, ended by deactivate's shutdown and by the watchdog when the extension
// host is SIGKILLed, while unmarked processes (and another window's) are left alone.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isGroupPid } from '../../src/agent/groupSignals';
import { MARK_VARIABLE, ProcessMark, procTable, psCarriers } from '../../src/agent/processMark';
import type { ProcessTable } from '../../src/agent/processMark';
import { alive } from './helpers/processes';
import { until } from './helpers/streams';

const SLOW = { timeout: 30_000 };
const linux = process.platform === 'linux';
const COMPILED = path.resolve(__dirname, '../../src/agent');

describe('finding the marked processes', () => {
  test('/proc: an exact NAME=value entry of the environment, not a prefix or another value; unreadable entries are skipped', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'acp-proc-'));
    try {
      const proc = (pid: string, environ: string, stat = `${pid} (x) S 1 ${pid}`) => {
        mkdirSync(path.join(root, pid));
        writeFileSync(path.join(root, pid, 'environ'), environ);
        writeFileSync(path.join(root, pid, 'stat'), stat);
      };
      proc('100', 'PATH=/bin\0ACP_HOST_SCOPE=abc\0HOME=/h\0');
      proc('101', 'ACP_HOST_SCOPE=abcd\0');
      proc('102', 'ACP_HOST_SCOPE=ab\0');
      proc('103', 'OTHER=ACP_HOST_SCOPE=abc-no\0');
      proc('104', 'ACP_HOST_SCOPE=abc', '104 (a (b) c) S 77 104');
      mkdirSync(path.join(root, '105')); // no environ: another user's, or gone
      mkdirSync(path.join(root, 'self'));
      const table = procTable(root);
      assert.deepEqual(table.carriers('ACP_HOST_SCOPE=abc').sort(), [100, 104]);
      assert.equal(table.parent(104), 77, 'a command name with spaces and parentheses');
      assert.equal(table.parent(100), 1);
      assert.equal(table.parent(105), undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('ps -E (macOS): the pids whose line holds the entry as a word', () => {
    const output = ['  PID COMMAND', '  10 /bin/sleep 100 PATH=/bin ACP_HOST_SCOPE=abc HOME=/h', '11 sleep ACP_HOST_SCOPE=abcd', '12 echo xACP_HOST_SCOPE=abc', '  13 daemon ACP_HOST_SCOPE=abc'].join('\n');
    assert.deepEqual(psCarriers(output, 'ACP_HOST_SCOPE=abc'), [10, 13]);
  });
});

describe('the sweep', () => {
  /** A process table in memory: `live` pid → parent, `marked` the carriers; `spawnOnStop` what a stopped process starts just before it stops. */
  function fakeTable(parents: Record<number, number>, marked: number[], spawnOnStop: Record<number, number> = {}) {
    const carriers = new Set(marked);
    const calls: string[] = [];
    const table: ProcessTable = { carriers: () => [...carriers], parent: (pid) => parents[pid] };
    const kill = (pid: number, signal: NodeJS.Signals) => {
      calls.push(`${signal} ${pid}`);
      if (signal === 'SIGSTOP' && spawnOnStop[pid] !== undefined) carriers.add(spawnOnStop[pid]);
    };
    return { table, kill, calls };
  }

  test('every carrier is stopped (round after round, until none is new), then killed; this process and its ancestors never, nor pid 0 or 1', () => {
    // 50 is the extension host, 40 and 30 its ancestors (VS Code), all somehow marked.
    const { table, kill, calls } = fakeTable({ 50: 40, 40: 30, 30: 1 }, [1, 30, 40, 50, 200, 300], { 300: 301 });
    const mark = new ProcessMark({ value: 'abc', table, kill, self: 50 });
    assert.equal(mark.sweep(), 3);
    assert.deepEqual(calls, ['SIGSTOP 200', 'SIGSTOP 300', 'SIGSTOP 301', 'SIGKILL 200', 'SIGKILL 300', 'SIGKILL 301']);
  });

  test('a process gone meanwhile (or not ours to signal) is no error', () => {
    const table: ProcessTable = { carriers: () => [200, 201], parent: () => undefined };
    const calls: string[] = [];
    const mark = new ProcessMark({
      table,
      self: 50,
      kill: (pid, signal) => {
        calls.push(`${signal} ${pid}`);
        if (pid === 200) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      },
    });
    assert.equal(mark.sweep(), 1);
    assert.deepEqual(calls, ['SIGSTOP 200', 'SIGSTOP 201', 'SIGKILL 201'], 'each is tried once');
  });

  test('the mark goes over one inherited from another window, and is unique to each extension host', () => {
    const mark = new ProcessMark({ table: { carriers: () => [], parent: () => undefined } });
    assert.deepEqual(mark.on({ A: '1', [MARK_VARIABLE]: 'another window' }), { A: '1', [MARK_VARIABLE]: mark.value });
    assert.equal(mark.entry, `${MARK_VARIABLE}=${mark.value}`);
    assert.notEqual(new ProcessMark().value, mark.value);
  });
});

/**
 * A stand-in for the extension host: a client terminal (the real TerminalManager, with the real
 * mark and process groups) runs `setsid`, which leaves the terminal's group and session; the
 * sleeper prints its pid. Then, as told on stdin: "shutdown" runs deactivate's
 * processGroups.shutdown, or nothing (the test SIGKILLs it: the watchdog's case).
 */
const FAKE_HOST = `
const { TerminalManager } = require(${JSON.stringify(path.join(COMPILED, 'terminals.js'))});
const { processGroups } = require(${JSON.stringify(path.join(COMPILED, 'processGroups.js'))});
const manager = new TerminalManager({ baseEnv: () => ({ PATH: process.env.PATH }), defaultCwd: '/' });
manager.create({ command: "setsid sh -c 'echo $$; exec sleep 1000' & wait" }).then(async (id) => {
  let output = '';
  while (!/\\d+\\n/.test(output)) {
    await new Promise((r) => setTimeout(r, 20));
    output = manager.output(id).output;
  }
  console.log(JSON.stringify({ sleeper: Number(output.trim()), group: manager.pid(id), watchdog: processGroups.watchdogPid }));
  process.stdin.on('data', async (line) => {
    if (String(line).trim() !== 'shutdown') return;
    await processGroups.shutdown(500);
    console.log('done');
  });
});`;

/** Starts FAKE_HOST; resolves with what it reports once the sleeper runs. */
async function fakeHost() {
  const host = spawn(process.execPath, ['-e', FAKE_HOST], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buffered = '';
  host.stdout.on('data', (d: Buffer) => {
    buffered += String(d);
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  const first = await until('the fake host to report', () => lines[0], 10_000);
  const report = JSON.parse(first) as { sleeper: number; group: number; watchdog: number };
  return { host, lines, ...report };
}

/** A sleeper this test starts itself, in a session of its own, with `env`: never ACP Host's. */
function bystander(env: NodeJS.ProcessEnv): number {
  // `detached` is setsid(2) on POSIX.
  const child = spawn('sleep', ['1000'], { stdio: 'ignore', env, detached: true });
  child.unref();
  return child.pid!;
}

function sessionOf(pid: number): number {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

function cleanUp(pids: number[]): void {
  for (const pid of pids) if (isGroupPid(pid) && alive(pid)) process.kill(pid, 'SIGKILL');
}

describe('real processes that left their group', { skip: !linux }, () => {
  test('deactivate’s shutdown ends a `setsid` sleeper a terminal started; an unmarked process and another window’s are untouched', SLOW, async () => {
    const unmarked = bystander({ PATH: process.env.PATH });
    const otherWindow = bystander({ PATH: process.env.PATH, [MARK_VARIABLE]: 'another-window' });
    const { host, lines, sleeper, group, watchdog } = await fakeHost();
    try {
      assert.ok(alive(sleeper));
      // It left the terminal's session (and so its group): the group kill alone cannot reach it.
      assert.notEqual(sessionOf(sleeper), sessionOf(group));
      host.stdin.write('shutdown\n');
      await until('the shutdown', () => lines.includes('done') || undefined, 10_000);
      await until('the sleeper to be gone', () => !alive(sleeper) || undefined, 5000);
      assert.ok(alive(unmarked), 'an unmarked process is left alone');
      assert.ok(alive(otherWindow), 'another window’s process is left alone');
      assert.ok(alive(host.pid!), 'the extension host itself is not ended');
    } finally {
      host.kill('SIGKILL');
      cleanUp([sleeper, unmarked, otherWindow, watchdog]);
    }
  });

  test('the watchdog ends it too when the extension host is SIGKILLed (no deactivate, no exit handler)', SLOW, async () => {
    const unmarked = bystander({ PATH: process.env.PATH });
    const { host, sleeper, watchdog } = await fakeHost();
    try {
      assert.ok(isGroupPid(watchdog), 'the watchdog runs');
      host.kill('SIGKILL');
      await until('the sleeper and the watchdog to be gone', () => (!alive(sleeper) && !alive(watchdog)) || undefined, 10_000);
      assert.ok(alive(unmarked), 'an unmarked process is left alone');
    } finally {
      cleanUp([sleeper, unmarked, watchdog]);
    }
  });
});
