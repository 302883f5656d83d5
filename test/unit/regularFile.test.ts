// What fs/read_text_file reads from disk (src/workspace/regularFile.ts), on real files: a FIFO (and
// a symlink to one), devices, a directory are refused without blocking; a file over the bound is
// refused by its size, before anything is read; a regular file within it is read whole.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeReadProblem, formatBytes, readProblem, readRegularFile } from '../../src/workspace/regularFile';

const posix = process.platform !== 'win32';
const MIB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-regular-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

test('the decision on stats: only a regular file, and only within the bound', { skip: !posix && 'no FIFOs or /dev here' }, () => {
  const pipe = fifo('decide.fifo');
  const small = path.join(dir, 'small.txt');
  fs.writeFileSync(small, 'abc');
  assert.deepEqual(readProblem(fs.statSync(pipe), MIB), { kind: 'notRegular', what: 'a FIFO (named pipe)' });
  assert.deepEqual(readProblem(fs.statSync('/dev/null'), MIB), { kind: 'notRegular', what: 'a character device' });
  assert.deepEqual(readProblem(fs.statSync(dir), MIB), { kind: 'notRegular', what: 'a directory' });
  assert.equal(readProblem(fs.statSync(small), 3), undefined);
  assert.deepEqual(readProblem(fs.statSync(small), 2), { kind: 'tooLarge', size: 3, maxBytes: 2 });
});

test('a FIFO with no writer, a symlink to it, and devices are refused at once; the thread pool stays free', { timeout: 10_000, skip: !posix && 'no FIFOs or /dev here' }, async () => {
  const pipe = fifo('agent.fifo');
  const link = path.join(dir, 'link-to-fifo');
  fs.symlinkSync(pipe, link);
  // More reads than the thread pool has threads (4): a blocking open would take them all.
  const reads = await Promise.all([...Array(6).fill(pipe), link, link, '/dev/zero', '/dev/random', '/dev/null', dir].map((p) => readRegularFile(p, MIB)));
  assert.deepEqual(
    reads.map((r) => (r.ok ? 'read' : r.problem.kind === 'notRegular' ? r.problem.what : r.problem.kind)),
    [...Array(8).fill('a FIFO (named pipe)'), 'a character device', 'a character device', 'a character device', 'a directory'],
  );
  // The pool still serves other reads.
  const small = path.join(dir, 'after.txt');
  fs.writeFileSync(small, 'still served');
  const after = await readRegularFile(small, MIB);
  assert.ok(after.ok && after.bytes.toString() === 'still served');
});

test('a file over the bound is refused by its size, naming both; within it, it is read whole', async () => {
  const big = path.join(dir, 'big.log');
  fs.closeSync(fs.openSync(big, 'w'));
  fs.truncateSync(big, 11 * MIB); // sparse: nothing written, 11 MiB long
  const refused = await readRegularFile(big, 10 * MIB);
  assert.deepEqual(refused, { ok: false, problem: { kind: 'tooLarge', size: 11 * MIB, maxBytes: 10 * MIB } });
  assert.ok(!refused.ok && refused.problem.kind === 'tooLarge');
  assert.equal(describeReadProblem('"/w/big.log"', refused.problem), 'Refused to read "/w/big.log": it is 11 MiB, over the limit of 10 MiB');

  const exact = path.join(dir, 'exact.txt');
  const text = 'é'.repeat(MIB / 2) + 'end';
  fs.writeFileSync(exact, text);
  const read = await readRegularFile(exact, MIB + 3);
  assert.ok(read.ok);
  assert.equal(read.bytes.toString('utf8'), text);
  assert.ok(!(await readRegularFile(exact, MIB + 2)).ok, 'one byte over');

  const empty = path.join(dir, 'empty.txt');
  fs.writeFileSync(empty, '');
  const none = await readRegularFile(empty, 0);
  assert.ok(none.ok && none.bytes.length === 0);
});

test('a missing file (or a path through a file) is missing; the form of sizes', async () => {
  assert.deepEqual(await readRegularFile(path.join(dir, 'nope.txt'), MIB), { ok: false, problem: { kind: 'missing' } });
  const file = path.join(dir, 'plain.txt');
  fs.writeFileSync(file, 'x');
  assert.deepEqual(await readRegularFile(path.join(file, 'below'), MIB), { ok: false, problem: { kind: 'missing' } });
  assert.deepEqual([formatBytes(512), formatBytes(1536), formatBytes(10 * MIB), formatBytes(52.44 * MIB), formatBytes(3 * 1024 * MIB)], ['512 B', '1.5 KiB', '10 MiB', '52.4 MiB', '3 GiB']);
});
