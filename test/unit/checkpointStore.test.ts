// The workspace's checkpoints (src/host/checkpoints/checkpointStore.ts) on a temp folder: what a
// restore puts back (the earliest state among the checkpoints since), contents kept once per hash,
// the byte and count bounds (oldest first), and the index read back after a reload, or refused.
import test, { afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore, DEFAULT_CHECKPOINT_LIMITS } from '../../src/host/checkpoints/checkpointStore';
import type { CheckpointLimits } from '../../src/host/checkpoints/checkpointStore';
import { ABSENT, UNKNOWN } from '../../src/session/restorePlan';
import type { Earlier } from '../../src/session/restorePlan';

const text = (t: string): Earlier => ({ kind: 'text', text: t });

/** A checkpoint's files as the assertions read them: those with a known earlier state (text, or null: absent), and the unknown ones. */
async function planOf(store: CheckpointStore, id: number) {
  const files = await store.files(id);
  return {
    files: files.flatMap(({ path, earlier }) => (earlier.kind === 'unknown' ? [] : [{ path, text: earlier.kind === 'text' ? earlier.text : null }])),
    unrestorable: files.flatMap(({ path, earlier }) => (earlier.kind === 'unknown' ? [path] : [])),
  };
}

const dirs: string[] = [];
const stores: CheckpointStore[] = [];
afterEach(async () => {
  // Their writes finish before their folders go.
  for (const store of stores.splice(0)) await store.flush();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-'));
  dirs.push(dir);
  return dir;
}

async function open(dir = tempDir(), limits: Partial<CheckpointLimits> = {}) {
  const logs: string[] = [];
  let evictions = 0;
  const store = await CheckpointStore.load(dir, () => ({ ...DEFAULT_CHECKPOINT_LIMITS, ...limits }), (m) => logs.push(m), () => evictions++);
  stores.push(store);
  return { store, dir, logs, evictions: () => evictions };
}
const blobs = (dir: string) => readdirSync(path.join(dir, 'blobs')).sort();

test('restoring a checkpoint puts back every file changed since, each as it was when that checkpoint began', async () => {
  const { store } = await open();
  const one = store.begin();
  store.record('/w/created.ts', ABSENT);
  store.record('/w/notes.txt', text('original notes\n'));
  store.record('/w/notes.txt', text('first edit\n')); // a second change in the same turn: not its earlier state
  const two = store.begin();
  store.record('/w/notes.txt', text('first edit\n'));
  store.record('/w/gone.txt', text('deleted in turn two\n'));
  store.record('/w/image.png', UNKNOWN);

  assert.deepEqual(await planOf(store, one), {
    files: [
      { path: '/w/created.ts', text: null },
      { path: '/w/gone.txt', text: 'deleted in turn two\n' },
      { path: '/w/notes.txt', text: 'original notes\n' },
    ],
    unrestorable: ['/w/image.png'],
  });
  assert.deepEqual(await planOf(store, two), {
    files: [
      { path: '/w/gone.txt', text: 'deleted in turn two\n' },
      { path: '/w/notes.txt', text: 'first edit\n' },
    ],
    unrestorable: ['/w/image.png'],
  });
  assert.equal(store.wants('/w/notes.txt'), false, 'recorded in the latest checkpoint already');
  assert.equal(store.wants('/w/other.txt'), true);
});

test('nothing is recorded before the first checkpoint, and an unknown id is refused in words', async () => {
  const { store } = await open();
  store.record('/w/a.txt', text('before any prompt'));
  assert.equal(store.wants('/w/a.txt'), false);
  assert.equal(store.oldest, null);
  await assert.rejects(planOf(store, 0), /no longer available/);
  const id = store.begin();
  assert.deepEqual(await planOf(store, id), { files: [], unrestorable: [] });
  await assert.rejects(planOf(store, id + 1), /no longer available/);
  await assert.rejects(planOf(store, 0.5), /no longer available/);
});

test('contents are kept once per hash, whatever the number of checkpoints and paths that hold them', async () => {
  const { store, dir } = await open();
  store.begin();
  store.record('/w/a.txt', text('same text\n'));
  store.record('/w/b.txt', text('same text\n'));
  store.begin();
  store.record('/w/a.txt', text('same text\n'));
  await store.flush();
  assert.equal(blobs(dir).length, 1);
  assert.equal(store.size, Buffer.byteLength('same text\n'));
});

test('past the byte budget the oldest checkpoints go first, their unshared contents with them; the latest always stays', async () => {
  const { store, dir, evictions } = await open(undefined, { maxBytes: 100 });
  const first = store.begin();
  store.record('/w/a.txt', text('a'.repeat(60)));
  const second = store.begin();
  store.record('/w/b.txt', text('b'.repeat(30)));
  assert.equal(store.oldest, first);
  const third = store.begin();
  store.record('/w/c.txt', text('c'.repeat(30))); // 120 bytes: the first checkpoint goes
  assert.equal(store.oldest, second);
  assert.equal(evictions(), 1);
  assert.equal(store.has(first), false);
  await assert.rejects(planOf(store, first), /no longer available.*maxMegabytes/);
  assert.equal(store.size, 60);
  await store.flush();
  assert.equal(blobs(dir).length, 2, 'the evicted content is removed from disk');

  store.record('/w/huge.txt', text('h'.repeat(150))); // more than the whole budget: not kept, named instead
  assert.equal(store.oldest, second, 'a content larger than the whole budget evicts nothing');
  const plan = await planOf(store, third);
  assert.deepEqual(plan.unrestorable, ['/w/huge.txt']);
  assert.ok(store.size <= 100);
});

test('a file over the size limit is named as not restorable; the count of checkpoints is bounded too', async () => {
  const { store } = await open(undefined, { maxFileBytes: 10, maxCheckpoints: 3 });
  const first = store.begin();
  store.record('/w/big.txt', text('x'.repeat(11)));
  assert.deepEqual((await planOf(store, first)).unrestorable, ['/w/big.txt']);
  store.begin();
  store.begin();
  store.begin();
  assert.equal(store.has(first), false);
  assert.equal(store.oldest, first + 1);
});

test('a reload reads the index back: the same plans, the same ids going on, and blobs nobody names cleaned up', async () => {
  const before = await open();
  const id = before.store.begin();
  before.store.record('/w/notes.txt', text('original\n'));
  before.store.record('/w/new.txt', ABSENT);
  const plan = await planOf(before.store, id);
  await before.store.flush();
  writeFileSync(path.join(before.dir, 'blobs', 'f'.repeat(64)), 'left over from a crash');

  const after = await open(before.dir);
  assert.deepEqual(await planOf(after.store, id), plan);
  assert.equal(after.store.begin(), id + 1, 'ids go on from where they were');
  assert.equal(blobs(before.dir).length, 1);
  assert.equal(after.store.size, Buffer.byteLength('original\n'));
});

test('an index that is not valid (bad JSON, a wrong shape, a hash nobody sized) starts afresh, said in the log', async () => {
  for (const bad of ['{not json', JSON.stringify({ version: 1, next: 1, checkpoints: [{ id: 0, files: [['/w/a', 'a'.repeat(64)]] }], blobs: [] }), JSON.stringify({ version: 2 })]) {
    const dir = tempDir();
    const { store } = await open(dir);
    store.begin();
    await store.flush();
    writeFileSync(path.join(dir, 'index.json'), bad);
    const reopened = await open(dir);
    assert.equal(reopened.store.oldest, null);
    assert.match(reopened.logs.join('\n'), /not valid.*start afresh/);
  }
});

test('a damaged saved copy is not restored from: the file is named as not restorable', async () => {
  const { store, dir, logs } = await open();
  const id = store.begin();
  store.record('/w/a.txt', text('original'));
  await store.flush();
  const [blob] = blobs(dir);
  writeFileSync(path.join(dir, 'blobs', blob), 'tampered');
  assert.deepEqual(await planOf(store, id), { files: [], unrestorable: ['/w/a.txt'] });
  assert.match(logs.join('\n'), /missing or damaged/);
  assert.equal(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).version, 1);
});
