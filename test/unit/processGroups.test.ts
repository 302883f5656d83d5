// Nothing left running: the registry of live process groups (ProcessGroups), its bounded
// shutdown and synchronous SIGKILL fallback, with real children that ignore SIGTERM; the
// watchdog that ends them when the extension host is SIGKILLed; and how a group is signalled on
// each platform (taskkill /T /F on Windows), checked with a fake system so it runs on Linux.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { groupAlive, isGroupPid, signalGroup, treeKillCommand } from '../../src/agent/groupSignals';
import type { SignalSystem } from '../../src/agent/groupSignals';
import { AgentProcess } from '../../src/agent/process';
import { ProcessGroups } from '../../src/agent/processGroups';
import { alive } from './helpers/processes';
import { until } from './helpers/streams';

const SLOW = { timeout: 30_000 };
const posix = process.platform !== 'win32';
const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const COMPILED_REGISTRY = path.resolve(__dirname, '../../src/agent/processGroups.js');

/**
 * A process that ignores SIGTERM (and SIGINT, SIGHUP) and starts a child of its own that does
 * too, in its own process group; it prints "<pid> <child pid>" once both run.
 */
const STUBBORN = `
const ignore = "for (const s of ['SIGTERM','SIGINT','SIGHUP']) process.on(s, () => {});";
eval(ignore);
const child = require('child_process').spawn(process.execPath, ['-e', ignore + 'setInterval(() => {}, 1 << 30); console.log(process.pid)'], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.once('data', (d) => console.log(process.pid + ' ' + String(d).trim()));
setInterval(() => {}, 1 << 30);`;

/** Starts STUBBORN as a group of its own; resolves with [leader, child] once both run. */
function stubbornGroup(): Promise<number[]> {
  const leader = spawn(process.execPath, ['-e', STUBBORN], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  leader.unref();
  return new Promise((resolve, reject) => {
    leader.on('error', reject);
    leader.stdout.once('data', (d: Buffer) => {
      leader.stdout.destroy();
      resolve(String(d).trim().split(' ').map(Number));
    });
  });
}

/** Whatever a test left running goes (by pid: every pid here was checked to be one of ours). */
function cleanUp(pids: number[]): void {
  for (const pid of pids) if (isGroupPid(pid) && alive(pid)) process.kill(pid, 'SIGKILL');
}

function fakeSystem() {
  const calls: string[] = [];
  const system: SignalSystem = {
    kill: (pid, signal) => void calls.push(`kill ${pid} ${signal}`),
    run: (file, args, onError) => {
      calls.push(`run ${file} ${args.join(' ')}`);
      if (file === 'missing') onError();
    },
    runSync: (file, args) => void calls.push(`runSync ${file} ${args.join(' ')}`),
  };
  return { calls, system };
}

/** What a child process first writes to its stdout. */
function firstOutput(child: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', (d: Buffer) => resolve(String(d)));
  });
}

describe('signalling a group', () => {
  test('on Windows a tree is ended with taskkill /T /F /PID, whatever the signal; waited for when sync', () => {
    assert.deepEqual(treeKillCommand(4321), { file: 'taskkill', args: ['/T', '/F', '/PID', '4321'] });
    const { calls, system } = fakeSystem();
    signalGroup(4321, 'SIGTERM', { platform: 'win32', system });
    signalGroup(4321, 'SIGKILL', { platform: 'win32', system, sync: true });
    assert.deepEqual(calls, ['run taskkill /T /F /PID 4321', 'runSync taskkill /T /F /PID 4321']);
  });

  test('on Linux and macOS the signal goes to the whole group (a negative pid)', () => {
    const { calls, system } = fakeSystem();
    signalGroup(4321, 'SIGTERM', { platform: 'linux', system });
    signalGroup(4321, 'SIGKILL', { platform: 'darwin', system, sync: true });
    assert.deepEqual(calls, ['kill -4321 SIGTERM', 'kill -4321 SIGKILL']);
  });

  test('0, 1, negative and non-integer pids are never signalled (kill -1 would reach every process)', () => {
    const { calls, system } = fakeSystem();
    for (const pid of [0, 1, -1, -4321, 1.5, Number.NaN]) {
      for (const platform of ['linux', 'win32'] as const) signalGroup(pid, 'SIGKILL', { platform, system, sync: true });
    }
    assert.deepEqual(calls, []);
    const groups = new ProcessGroups({ platform: 'linux', system });
    for (const pid of [0, 1, -1, 2.5]) groups.add(pid, { end: () => undefined });
    assert.deepEqual(groups.pids(), []);
    assert.equal(groups.killAllSync(), 0);
    assert.deepEqual(calls, []);
  });

  test('the Windows registry ends each listed tree with a synchronous taskkill', () => {
    const { calls, system } = fakeSystem();
    const groups = new ProcessGroups({ platform: 'win32', system });
    groups.add(4321, { end: () => undefined });
    groups.add(4322, { end: () => undefined });
    assert.equal(groups.killAllSync(), 2);
    assert.deepEqual(calls, ['runSync taskkill /T /F /PID 4321', 'runSync taskkill /T /F /PID 4322']);
    assert.deepEqual(groups.pids(), []);
  });
});

describe('ProcessGroups with real processes', { skip: !posix }, () => {
  test('the synchronous fallback SIGKILLs a listed group that ignores SIGTERM, its child included', SLOW, async () => {
    const pids = await stubbornGroup();
    try {
      const groups = new ProcessGroups();
      groups.add(pids[0], { end: () => undefined });
      process.kill(-pids[0], 'SIGTERM');
      assert.ok(pids.every(alive), 'SIGTERM is ignored');
      assert.equal(groups.killAllSync(), 1);
      assert.deepEqual(groups.pids(), [], 'a killed group is unlisted');
      await until('the group to be gone', () => (pids.every((p) => !alive(p)) ? true : undefined), 5000);
    } finally {
      cleanUp(pids);
    }
  });

  test("shutdown: an owner's own stop counts as ended; what is left at the deadline is SIGKILLed", SLOW, async () => {
    // Stands for an agent that exits on EOF: one process, which its owner sees exit.
    const polite = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
    const stubborn = await stubbornGroup();
    try {
      const groups = new ProcessGroups();
      const politeListing = groups.add(polite.pid!, { end: () => polite.kill('SIGTERM') });
      polite.on('exit', () => politeListing.dispose());
      let asked = 0;
      groups.add(stubborn[0], { end: () => void asked++ });
      const report = await groups.shutdown(3000);
      assert.deepEqual(report, { ended: 1, killed: 1 });
      assert.equal(asked, 1, 'the stubborn owner was asked to stop first');
      assert.deepEqual(groups.pids(), []);
      await until('both groups to be gone', () => ([polite.pid!, ...stubborn].every((p) => !alive(p)) ? true : undefined), 5000);
    } finally {
      cleanUp([polite.pid!, ...stubborn]);
    }
  });

  test('a group that ended with nobody looking is dropped before the next is listed (its pid may be reused)', SLOW, async () => {
    const pids = await stubbornGroup();
    const groups = new ProcessGroups();
    groups.add(pids[0], { end: () => undefined });
    process.kill(-pids[0], 'SIGKILL');
    await until('the group to be gone', () => (!groupAlive(pids[0], true) ? true : undefined), 5000);
    const next = await stubbornGroup();
    try {
      groups.add(next[0], { end: () => undefined });
      assert.deepEqual(groups.pids(), [next[0]]);
    } finally {
      groups.killAllSync();
      cleanUp(next);
    }
  });

  test('an agent that ignores EOF and SIGTERM is listed while it runs, and ended by a shutdown with a short budget', SLOW, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-groups-'));
    const pidFile = path.join(dir, 'pids.json');
    const groups = new ProcessGroups();
    const agent = new AgentProcess({ command: process.execPath, args: [path.join(FIXTURES, 'ignore-eof.js')], cwd: dir, env: { ...currentEnv(), FAKE_PID_FILE: pidFile } }, undefined, groups);
    let pids: number[] = [];
    try {
      const recorded = await until('the pid file', () => {
        try {
          return JSON.parse(readFileSync(pidFile, 'utf8')) as { agent: number; child: number };
        } catch {
          return undefined;
        }
      }, 10_000);
      pids = [recorded.agent, recorded.child];
      assert.deepEqual(groups.pids(), [agent.pid]);
      // Its own stop would take 1 s + 1 s before SIGKILL: the deadline comes first.
      const report = await groups.shutdown(300);
      assert.deepEqual(report, { ended: 0, killed: 1 });
      assert.equal((await agent.exited).signal, 'SIGKILL');
      await until('the agent and its child to be gone', () => (pids.every((p) => !alive(p)) ? true : undefined), 5000);
    } finally {
      cleanUp(pids);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an agent that exits on EOF unlists its group by itself', SLOW, async () => {
    const groups = new ProcessGroups();
    const agent = new AgentProcess({ command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], cwd: os.tmpdir(), env: currentEnv() }, undefined, groups);
    assert.deepEqual(groups.pids(), [agent.pid]);
    const exit = await agent.shutdown({ graceMs: 5000, termMs: 1000 });
    assert.equal(exit.code, 0);
    assert.deepEqual(groups.pids(), []);
  });
});

describe('when the extension host exits', { skip: !posix }, () => {
  // A stand-in for an extension host that runs its 'exit' handlers (VS Code ends it with
  // process.exit after deactivate), with the watchdog off: only the exit handler can act.
  const EXITING_HOST = `
const { ProcessGroups } = require(${JSON.stringify(COMPILED_REGISTRY)});
const groups = new ProcessGroups({ killOnExit: true });
const leader = require('child_process').spawn(process.execPath, ['-e', process.env.STUBBORN], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
leader.stdout.once('data', (d) => {
  groups.add(leader.pid, { end() {} });
  process.stdout.write(String(d).trim() + '\\n', () => process.exit(0));
});`;

  test('its exit handler SIGKILLs every listed group, synchronously, on the way out', SLOW, async () => {
    const host = spawn(process.execPath, ['-e', EXITING_HOST], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, STUBBORN } });
    let pids: number[] = [];
    try {
      const line = await firstOutput(host);
      pids = line.trim().split(' ').map(Number);
      assert.equal(pids.length, 2);
      if (host.exitCode === null) await new Promise((resolve) => host.once('exit', resolve));
      await until('the group to be gone', () => (pids.every((p) => !alive(p)) ? true : undefined), 5000);
    } finally {
      cleanUp(pids);
    }
  });
});

describe('the watchdog', { skip: !posix }, () => {
  // A stand-in for the extension host: it lists a stubborn group in the real registry (watchdog
  // on), prints the pids, and waits to be killed.
  const FAKE_HOST = `
const { processGroups } = require(${JSON.stringify(COMPILED_REGISTRY)});
const leader = require('child_process').spawn(process.execPath, ['-e', process.env.STUBBORN], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
leader.stdout.once('data', (d) => {
  processGroups.add(leader.pid, { end() {} });
  console.log(JSON.stringify({ group: String(d).trim().split(' ').map(Number), watchdog: processGroups.watchdogPid }));
});
setInterval(() => {}, 1 << 30);`;

  test('an extension host SIGKILLed (no deactivate, no exit handler) still takes its groups with it', SLOW, async () => {
    const host = spawn(process.execPath, ['-e', FAKE_HOST], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, STUBBORN } });
    let pids: number[] = [];
    try {
      const line = await firstOutput(host);
      const { group, watchdog } = JSON.parse(line) as { group: number[]; watchdog: number };
      pids = [...group, watchdog];
      assert.ok(isGroupPid(watchdog), 'the watchdog runs');
      assert.ok(pids.every(alive));
      host.kill('SIGKILL');
      await until('the group and the watchdog to be gone', () => (pids.every((p) => !alive(p)) ? true : undefined), 10_000);
    } finally {
      host.kill('SIGKILL');
      cleanUp(pids);
    }
  });
});
