// The audit log on disk (src/host/audit/auditStore.ts): read lazily, appended in batches,
// compacted to the bound, surviving a new log over the same file (a window reload), a corrupt
// or cut-short file read back without losing its good lines.
import test, { afterEach, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuditLog } from '../../src/audit/auditLog';
import type { AuditLimits } from '../../src/audit/auditLog';
import type { NewAuditEvent } from '../../src/audit/auditEvent';
import { AuditStore } from '../../src/host/audit/auditStore';

const event = (n: number): NewAuditEvent => ({ agent: 'Codex', sessionId: 's', kind: 'terminal', target: `make step-${n}`, decision: 'allowed', by: 'default' });
const read = (n: number): NewAuditEvent => ({ agent: 'Codex', sessionId: 's', kind: 'read', target: `/w/read-${n}.ts`, decision: 'allowed', by: 'default' });
const targets = (log: AuditLog) => log.events().map((e) => e.target);
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

/** A log and its store over `file` (a fresh folder by default); disposed after the test. */
function open(file = path.join(tempDir(), 'storage', 'audit.jsonl'), limits: Partial<AuditLimits> = {}) {
  const log = new AuditLog({ limits });
  const reports: string[] = [];
  const store = new AuditStore(log, file, { log: (m) => reports.push(m) });
  cleanup.push(() => store.dispose());
  return { log, store, file, reports };
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-audit-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('AuditStore', () => {
  test('what one log wrote, a new log over the same file reads back (a window reload); the folder is made', async () => {
    const first = open();
    for (let i = 0; i < 3; i++) first.log.record(event(i));
    await first.store.flush();
    assert.equal(lines(first.file).length, 3);
    const second = open(first.file);
    await second.store.load();
    assert.deepEqual(second.log.events(), first.log.events());
  });

  test('nothing is read until needed; what was recorded meanwhile comes after what the file held, once each', async () => {
    const before = open();
    before.log.record(event(1));
    await before.store.flush();
    const after = open(before.file);
    after.log.record(event(2));
    assert.deepEqual(targets(after.log), ['make step-2'], 'the file is not read at construction');
    await after.store.flush();
    assert.deepEqual(targets(after.log), ['make step-1', 'make step-2']);
    await after.store.flush();
    const third = open(before.file);
    await third.store.load();
    assert.deepEqual(targets(third.log), ['make step-1', 'make step-2'], 'nothing read back twice');
  });

  test('a corrupt file: bad lines are skipped (and said), the good ones kept; a line cut short does not swallow the next event', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const good = JSON.stringify({ ...event(1), time: '2024-01-01T00:00:00.000Z' });
    writeFileSync(file, [good, '{"broken":', 'garbage', JSON.stringify({ ...event(2), time: '2024-01-01T00:00:01.000Z' }), good.slice(0, 30)].join('\n'));
    const { log, store, reports } = open(file);
    await store.load();
    assert.deepEqual(targets(log), ['make step-1', 'make step-2']);
    assert.equal(reports.length, 1);
    assert.match(reports[0], /3 unreadable lines; skipped \(the other 2 events are kept\)/);
    log.record(event(3));
    await store.flush();
    const reread = open(file);
    await reread.store.load();
    assert.deepEqual(targets(reread.log), ['make step-1', 'make step-2', 'make step-3']);
  });

  test('bounded: once the file holds half as many lines again as the log keeps (changes and reads), it is rewritten with what the log keeps', async () => {
    const { log, store, file } = open(undefined, { maxChanges: 10, maxReads: 2 });
    for (let i = 0; i < 100; i++) {
      log.record(event(i));
      if (i % 3 === 0) await store.flush();
      assert.ok(lines(file).length <= 18, `${lines(file).length} lines after ${i + 1} events`);
    }
    await store.flush();
    const reread = open(file, { maxChanges: 10, maxReads: 2 });
    await reread.store.load();
    assert.deepEqual(targets(reread.log), Array.from({ length: 10 }, (_, i) => `make step-${90 + i}`));
    assert.ok(!existsSync(`${file}.tmp`));
  });

  test('a file from a window with a larger bound is compacted at the next write', async () => {
    const big = open(undefined, { maxChanges: 100 });
    for (let i = 0; i < 50; i++) big.log.record(event(i));
    await big.store.flush();
    const small = open(big.file, { maxChanges: 5, maxReads: 1 });
    small.log.record(event(50));
    await small.store.flush();
    assert.deepEqual(lines(small.file).map((l) => JSON.parse(l).target), ['make step-46', 'make step-47', 'make step-48', 'make step-49', 'make step-50']);
  });

  test('reads past their bound never push a change out of the file: written, compacted, read back', async () => {
    const limits = { maxChanges: 5, maxReads: 10 };
    const first = open(undefined, limits);
    first.log.record(event(1));
    for (let i = 0; i < 100; i++) {
      first.log.record(read(i));
      if (i % 7 === 0) await first.store.flush();
    }
    await first.store.flush();
    assert.ok(lines(first.file).length <= 1.5 * 15, 'compacted');
    const second = open(first.file, limits);
    await second.store.load();
    assert.deepEqual(targets(second.log), ['make step-1', ...Array.from({ length: 10 }, (_, i) => `/w/read-${90 + i}.ts`)]);
  });

  test('a file of the earlier shape (one list of every kind, in the order recorded) loads, each event to its ring', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const time = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
    const earlier = [event(1), ...Array.from({ length: 30 }, (_, i) => read(i)), event(2)].map((e, i) => JSON.stringify({ ...e, time: time(i) }));
    writeFileSync(file, `${earlier.join('\n')}\n`);
    const { log, store, reports } = open(file, { maxChanges: 5, maxReads: 3 });
    await store.load();
    assert.deepEqual(targets(log), ['make step-1', '/w/read-27.ts', '/w/read-28.ts', '/w/read-29.ts', 'make step-2']);
    assert.deepEqual(reports, []);
  });

  test('a batch that could not be written after the file was read: the next write that can be made rewrites the file with what the log keeps', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const { log, store } = open(file, { maxChanges: 5, maxReads: 5 });
    await store.load();
    mkdirSync(file); // appending to a folder fails
    log.record(event(1));
    await store.flush();
    for (let i = 0; i < 20; i++) log.record(read(i));
    await store.flush();
    rmSync(file, { recursive: true });
    log.record(read(20));
    await store.flush();
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).target), ['make step-1', ...Array.from({ length: 5 }, (_, i) => `/w/read-${16 + i}.ts`)]);
  });

  test('dispose writes the last batch at once, even before the file was read (the window is closing)', () => {
    const first = open();
    first.log.record(event(7));
    first.store.dispose();
    assert.deepEqual(lines(first.file).map((l) => JSON.parse(l).target), ['make step-7']);
    first.log.record(event(8));
    first.store.dispose();
    assert.equal(lines(first.file).length, 1, 'a disposed store writes nothing more');
  });

  test('a file that cannot be written: said once, the events stay in memory', async () => {
    const blocker = path.join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, '');
    const { log, store, reports } = open(path.join(blocker, 'audit.jsonl'));
    log.record(event(1));
    await store.flush();
    log.record(event(2));
    await store.flush();
    assert.equal(reports.filter((r) => /could not be written/.test(r)).length, 1, reports.join('\n'));
    assert.deepEqual(targets(log), ['make step-1', 'make step-2']);
  });
});
