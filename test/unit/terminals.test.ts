// Client terminals (ACP terminal/*) with real processes: how a command is run (shell line or
// program + args), env and cwd, one output stream from stdout and stderr, outputByteLimit cut at
// a character boundary, exit codes and signals, killing a whole process tree, release, dispose,
// and throttled view updates that carry only the end of the output.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { currentEnv } from '../../src/agent/environment';
import { TerminalManager } from '../../src/agent/terminals';
import { commandLine } from '../../src/agent/terminalCommand';
import type { TerminalManagerOptions, TerminalSnapshot } from '../../src/agent/terminals';
import { cutFront, OutputBuffer, tailBytes, utf8Bytes } from '../../src/agent/terminalOutput';
import { alive } from './helpers/processes';

const NODE = process.execPath;
const SLOW = { timeout: 20_000 };
const posix = process.platform !== 'win32';

const managers: TerminalManager[] = [];
function manager(options: Partial<TerminalManagerOptions> = {}): TerminalManager {
  const m = new TerminalManager({ baseEnv: () => ({ ...currentEnv(), BASE_VAR: 'from-base' }), defaultCwd: os.tmpdir(), killGraceMs: 300, ...options });
  managers.push(m);
  return m;
}
test.afterEach(() => managers.splice(0).forEach((m) => m.dispose()));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}


const nodeLine = (script: string) => `"${NODE}" -e ${JSON.stringify(script)}`;

describe('how a command runs', () => {
  test('a whole shell line goes through the shell; a bare program or program + args is spawned directly', () => {
    const env = { SHELL: '/bin/zsh' };
    assert.deepEqual(commandLine({ command: 'npm test 2>&1 | tail -5' }, env, 'linux'), { file: '/bin/zsh', args: ['-c', 'npm test 2>&1 | tail -5'], shell: true });
    assert.deepEqual(commandLine({ command: 'ls -la', args: [] }, {}, 'linux'), { file: '/bin/sh', args: ['-c', 'ls -la'], shell: true });
    assert.deepEqual(commandLine({ command: 'ls' }, env, 'linux'), { file: 'ls', args: [], shell: false });
    assert.deepEqual(commandLine({ command: 'git', args: ['log', '-1; rm -rf /'] }, env, 'linux'), { file: 'git', args: ['log', '-1; rm -rf /'], shell: false });
    assert.deepEqual(commandLine({ command: 'dir /b' }, { ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, 'win32'), {
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"dir /b"'],
      shell: true,
    });
  });

  test('shell line, and program + args (whose shell characters stay literal)', SLOW, async () => {
    const m = manager();
    const line = await m.create({ command: 'echo "a b" | tr a-z A-Z; echo $((2+3))' });
    assert.deepEqual(await m.waitForExit(line), { exitCode: 0, signal: null });
    assert.equal(m.output(line).output, 'A B\n5\n');

    const direct = await m.create({ command: NODE, args: ['-e', 'console.log(process.argv.slice(1).join("|"))', '$HOME', 'a;b', 'x y'] });
    await m.waitForExit(direct);
    assert.equal(m.output(direct).output, '$HOME|a;b|x y\n');
  });

  test('env goes over the base env; cwd defaults to the manager’s and can be set', SLOW, async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-term-')));
    try {
      const m = manager({ defaultCwd: dir });
      const a = await m.create({ command: 'echo "$BASE_VAR $EXTRA $HOME_OVERRIDE"; pwd', env: [{ name: 'EXTRA', value: 'x=1 y' }, { name: 'HOME_OVERRIDE', value: 'é' }] });
      await m.waitForExit(a);
      assert.equal(m.output(a).output, `from-base x=1 y é\n${dir}\n`);
      const b = await m.create({ command: 'pwd', args: [], cwd: os.tmpdir(), env: [{ name: 'BASE_VAR', value: 'overridden' }] });
      await m.waitForExit(b);
      assert.equal(m.output(b).output, `${realpathSync(os.tmpdir())}\n`);
      const c = await m.create({ command: 'echo $BASE_VAR', env: [{ name: 'BASE_VAR', value: 'overridden' }] });
      await m.waitForExit(c);
      assert.equal(m.output(c).output, 'overridden\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('stdout and stderr are one output, in arrival order; stdin is closed', SLOW, async () => {
    const m = manager();
    const id = await m.create({
      command: NODE,
      args: ['-e', 'const w=(s,t)=>new Promise(r=>setTimeout(()=>{s.write(t);r()},40)); (async()=>{await w(process.stdout,"out1\\n");await w(process.stderr,"err1\\n");await w(process.stdout,"out2\\n");await w(process.stderr,"err2\\n")})()'],
    });
    assert.equal(m.output(id).exitStatus, null, 'running: no exit status yet');
    await m.waitForExit(id);
    assert.equal(m.output(id).output, 'out1\nerr1\nout2\nerr2\n');
    const cat = await m.create({ command: 'cat' });
    assert.deepEqual(await m.waitForExit(cat), { exitCode: 0, signal: null });
  });

  test('a command that cannot start ends with 127 and says why', SLOW, async () => {
    const m = manager();
    const id = await m.create({ command: 'acp-host-no-such-command-xyz' });
    assert.deepEqual(await m.waitForExit(id), { exitCode: 127, signal: null });
    assert.match(m.output(id).output, /Could not start acp-host-no-such-command-xyz: it was not found on PATH/);
    const line = await m.create({ command: 'acp-host-no-such-command-xyz --flag' });
    assert.deepEqual(await m.waitForExit(line), { exitCode: 127, signal: null }, 'the shell says the same');
  });
});

describe('output', () => {
  test('a multi-byte character split across chunks is decoded whole', SLOW, async () => {
    const m = manager();
    const script = 'const b=Buffer.from("é😀");(async()=>{for(const x of b){process.stdout.write(Buffer.from([x]));await new Promise(r=>setTimeout(r,15))}})()';
    const id = await m.create({ command: NODE, args: ['-e', script] });
    await m.waitForExit(id);
    assert.equal(m.output(id).output, 'é😀');
  });

  test('outputByteLimit keeps the end, cut at a character boundary, and reports truncated', SLOW, async () => {
    const m = manager();
    const text = 'é'.repeat(10) + '😀'.repeat(3); // 20 + 12 bytes
    const run = async (limit: number) => {
      const id = await m.create({ command: NODE, args: ['-e', `process.stdout.write(${JSON.stringify(text)})`], outputByteLimit: limit });
      await m.waitForExit(id);
      return m.output(id);
    };
    assert.deepEqual(await run(32), { output: text, truncated: false, exitStatus: { exitCode: 0, signal: null } });
    assert.deepEqual((await run(13)).output, '😀😀😀', '13 bytes: no half é, 12 kept');
    assert.deepEqual((await run(15)).output, 'é😀😀😀');
    const seven = await run(7);
    assert.equal(seven.output, '😀', 'never half an emoji');
    assert.equal(seven.truncated, true);
    assert.equal((await run(3)).output, '', 'a limit below one character keeps nothing');
  });

  test('OutputBuffer: whatever the chunks and the limit, a suffix of the text, within the limit, at most 3 bytes under', () => {
    const chars = fc.constantFrom('a', 'é', '€', '😀', '\n', 'ß', '中');
    fc.assert(
      fc.property(fc.array(fc.array(chars, { maxLength: 20 }).map((c) => c.join('')), { maxLength: 30 }), fc.integer({ min: 0, max: 120 }), (chunks, limit) => {
        const buffer = new OutputBuffer(limit);
        chunks.forEach((c) => buffer.append(c));
        const full = chunks.join('');
        const kept = buffer.output;
        assert.ok(full.endsWith(kept));
        assert.ok(!/^[\udc00-\udfff]/.test(kept), 'no half surrogate pair at the start');
        assert.equal(buffer.byteLength, utf8Bytes(kept));
        assert.ok(utf8Bytes(kept) <= limit);
        assert.equal(buffer.truncated, utf8Bytes(full) > limit);
        if (buffer.truncated) assert.ok(utf8Bytes(kept) > limit - 4);
        const tail = buffer.tail(10);
        assert.ok(kept.endsWith(tail.output) && utf8Bytes(tail.output) <= 10);
        assert.equal(tail.truncated, buffer.truncated || tail.output !== kept);
      }),
      { numRuns: 300 },
    );
    assert.deepEqual(cutFront('é😀a', 3), { index: 3, dropped: 6 });
    assert.deepEqual(tailBytes('aé😀', 5), { text: '😀', bytes: 4, cut: true });
    const unbounded = new OutputBuffer();
    unbounded.append('x'.repeat(100_000));
    assert.equal(unbounded.output.length, 100_000);
    assert.equal(unbounded.truncated, false);
  });
});

describe('exit, kill, release, dispose', () => {
  test('waitForExit gives the exit code, or the signal that ended the process', SLOW, async () => {
    const m = manager();
    const three = await m.create({ command: 'echo bye; exit 3' });
    assert.deepEqual(await m.waitForExit(three), { exitCode: 3, signal: null });
    assert.deepEqual(m.output(three), { output: 'bye\n', truncated: false, exitStatus: { exitCode: 3, signal: null } });
    const killed = await m.create({ command: NODE, args: ['-e', 'process.kill(process.pid, "SIGKILL")'] });
    assert.deepEqual(await m.waitForExit(killed), { exitCode: null, signal: 'SIGKILL' });
  });

  test('kill ends the whole tree (a child that ignores SIGTERM too); the id stays valid', { ...SLOW, skip: !posix }, async () => {
    const m = manager({ killGraceMs: 500 });
    const child = nodeLine('process.on("SIGTERM",()=>{});console.log("child",process.pid);setInterval(()=>{},1000)');
    const id = await m.create({ command: `${child} & echo shell $$; wait` });
    const out = await until('both pids', () => /child (\d+)/.test(m.output(id).output) && m.output(id).output);
    const childPid = Number(/child (\d+)/.exec(out)![1]);
    const shellPid = Number(/shell (\d+)/.exec(out)![1]);
    assert.equal(shellPid, m.pid(id));
    assert.ok(alive(childPid));
    m.kill(id);
    assert.deepEqual(await m.waitForExit(id), { exitCode: null, signal: 'SIGTERM' });
    assert.ok(alive(childPid), 'the child ignored SIGTERM…');
    await until('the child to be killed', () => !alive(childPid), 3000);
    assert.equal(m.output(id).exitStatus?.signal, 'SIGTERM', 'output still readable after kill');
    m.kill(id); // again: harmless
    m.release(id);
  });

  test('release kills a running command and forgets the id: -32002 after', SLOW, async () => {
    const m = manager();
    const id = await m.create({ command: 'sleep 30' });
    const pid = m.pid(id)!;
    m.release(id);
    const unknown = { code: -32002, message: /Unknown terminal "term-1"/ };
    assert.throws(() => m.output(id), unknown);
    assert.throws(() => m.kill(id), unknown);
    assert.throws(() => m.release(id), unknown);
    assert.throws(() => m.waitForExit(id), unknown);
    await until('sleep to be gone', () => !alive(pid), 3000);
    assert.throws(() => m.output('term-99'), { code: -32002 });
  });

  test('dispose kills every terminal, also what a finished command left in the background', { ...SLOW, skip: !posix }, async () => {
    const m = manager();
    const a = await m.create({ command: 'sleep', args: ['30'] });
    const b = await m.create({ command: 'sleep 31' });
    const c = await m.create({ command: 'sleep 32 & echo $!' });
    await m.waitForExit(c);
    const orphan = Number(m.output(c).output.trim());
    const pids = [m.pid(a)!, m.pid(b)!, orphan];
    assert.ok(pids.every(alive));
    m.dispose();
    await until('all gone', () => pids.every((p) => !alive(p)), 3000);
    assert.throws(() => m.output(a), { code: -32002 });
    const again = await m.create({ command: 'echo still usable' });
    await m.waitForExit(again);
    assert.equal(m.output(again).output, 'still usable\n');
  });
});

describe('the number of terminals a session holds', () => {
  test('past maxTerminals a create is refused, naming the limit and the setting; a release (not an exit or a kill) frees a slot', SLOW, async () => {
    let max = 2;
    const m = manager({ maxTerminals: () => max });
    const first = await m.create({ command: NODE, args: ['-e', ''] });
    const second = await m.create({ command: NODE, args: ['-e', 'setTimeout(() => {}, 30000)'] });
    await m.waitForExit(first);
    m.kill(second);
    await m.waitForExit(second);
    const refused = { code: -32603, data: { refused: true }, message: /holds 2 terminals, the most acpHost\.maxTerminalsPerSession allows \(2\)/ };
    await assert.rejects(m.create({ command: NODE, args: ['-e', ''] }), refused);
    m.release(first);
    const third = await m.create({ command: NODE, args: ['-e', ''] });
    assert.ok(m.has(third));
    await assert.rejects(m.create({ command: NODE, args: ['-e', ''] }), refused);
    // Read at each create: a lowered setting holds at once.
    max = 1;
    m.release(third);
    await assert.rejects(m.create({ command: NODE, args: ['-e', ''] }), { message: /holds 1 terminal, the most acpHost\.maxTerminalsPerSession allows \(1\)/ });
  });

  test('concurrent creates cannot pass the limit together', SLOW, async () => {
    const m = manager({ maxTerminals: () => 3 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => m.create({ command: NODE, args: ['-e', ''] })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
  });
});

describe('updates for views', () => {
  test('throttled (at most one per interval, then a final one at exit), each with a bounded tail', SLOW, async () => {
    const m = manager({ updateIntervalMs: 50, updateTailBytes: 1000 });
    const updates: Array<{ at: number; id: string; state: TerminalSnapshot }> = [];
    const data: string[] = [];
    m.onUpdate((id, state) => updates.push({ at: Date.now(), id, state }));
    m.onData((_id, event) => 'data' in event && data.push(event.data));
    const script = '(async()=>{for(let i=0;i<400;i++){process.stdout.write("line "+i+"\\n");if(i%10===0)await new Promise(r=>setTimeout(r,5))}})()';
    const id = await m.create({ command: NODE, args: ['-e', script], outputByteLimit: 100_000 });
    await m.waitForExit(id);
    const full = m.output(id).output;
    assert.equal(full.split('\n').length, 401);
    assert.equal(data.join(''), full, 'data events carry everything');
    assert.ok(updates.length >= 2, `${updates.length} updates`);
    assert.ok(updates.length < data.length, `fewer updates (${updates.length}) than chunks (${data.length})`);
    for (let i = 1; i < updates.length - 1; i++) assert.ok(updates[i].at - updates[i - 1].at >= 40, 'at most one per interval');
    for (const u of updates) {
      assert.equal(u.id, id);
      assert.ok(utf8Bytes(u.state.output) <= 1000);
      assert.ok(full.startsWith(u.state.output) || full.includes(u.state.output));
    }
    const last = updates.at(-1)!.state;
    assert.deepEqual(last.exitStatus, { exitCode: 0, signal: null });
    assert.ok(full.endsWith(last.output) && last.output.endsWith('line 399\n'));
    assert.equal(last.truncated, true, 'the tail is not all of it');
    assert.equal(m.output(id).truncated, false, 'but the agent’s output is');
    assert.equal(updates.slice(0, -1).filter((u) => u.state.exitStatus).length, 0);
  });

  test('a released terminal still sends its final update (cards keep showing it)', SLOW, async () => {
    const m = manager();
    const finals: TerminalSnapshot[] = [];
    m.onUpdate((_id, state) => state.exitStatus && finals.push(state));
    const id = await m.create({ command: 'echo started; sleep 30' });
    await until('output', () => m.output(id).output === 'started\n');
    m.release(id);
    await until('the final update', () => finals[0]);
    assert.deepEqual(finals[0], { output: 'started\n', truncated: false, exitStatus: { exitCode: null, signal: 'SIGTERM' } });
  });
});
