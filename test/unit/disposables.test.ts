// The DisposableStore (the extension's lifetime, and each agent process's): everything added is
// disposed once, the last added first, and one failing dispose does not keep the others from theirs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { DisposableStore, toDisposable } from '../../src/base/disposables';

const recording = (log: string[], name: string) => ({ dispose: () => void log.push(name) });

test('disposed in reverse order of adding, once', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  const first = store.add(recording(log, 'log'));
  store.add(recording(log, 'sessions'));
  store.add(recording(log, 'commands'));
  assert.equal(typeof first.dispose, 'function', 'add returns what it was given');
  store.dispose();
  store.dispose();
  assert.deepEqual(log, ['commands', 'sessions', 'log']);
});

test('added after the store is disposed: disposed at once, not leaked', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.dispose();
  store.add(recording(log, 'late'));
  assert.deepEqual(log, ['late']);
});

test('a dispose that throws does not stop the rest; the error is thrown once all are disposed', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.add(recording(log, 'a'));
  store.add({
    dispose: () => {
      throw new Error('b broke');
    },
  });
  store.add(recording(log, 'c'));
  assert.throws(() => store.dispose(), /b broke/);
  assert.deepEqual(log, ['c', 'a']);
});

test('several failures are thrown together', () => {
  const store = new DisposableStore();
  for (const name of ['x', 'y'])
    store.add({
      dispose: () => {
        throw new Error(name);
      },
    });
  assert.throws(
    () => store.dispose(),
    (error: unknown) => error instanceof AggregateError && error.errors.map((e: Error) => e.message).join() === 'y,x',
  );
});

test('toDisposable runs its dispose once, however often it is disposed', () => {
  let runs = 0;
  const d = toDisposable(() => runs++);
  d.dispose();
  d.dispose();
  assert.equal(runs, 1);
});
