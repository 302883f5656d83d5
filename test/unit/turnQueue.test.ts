// The turn queue on its own (no agent): one turn at a time, in order, removable, requeued for a
// sign-in, held while the session is blocked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TurnQueue } from '../../src/session/turnQueue';
import type { QueuedPrompt, TurnOutcome } from '../../src/session/turnQueue';

function queue(run: (p: QueuedPrompt) => Promise<TurnOutcome>, blocked = () => false) {
  const published: string[][] = [];
  const q = new TurnQueue(run, blocked, (waiting) => published.push(waiting.map((p) => p.text)));
  return { q, published };
}

test('turns run one at a time, in order; what waits is published as it changes', async () => {
  const ran: string[] = [];
  let running = 0;
  const { q, published } = queue(async (p) => {
    running++;
    assert.equal(running, 1, 'never two turns at once');
    await new Promise((r) => setTimeout(r, 5));
    ran.push(p.text);
    running--;
    return 'done';
  });
  await Promise.all([q.push('one', []), q.push('two', []), q.push('three', [])]);
  assert.deepEqual(ran, ['one', 'two', 'three']);
  assert.deepEqual(published.at(-1), []);
  assert.ok(published.some((w) => w.join() === 'two,three'), 'the queue was visible while the first turn ran');
});

test('a prompt removed before its turn never runs, and its caller is told it ended', async () => {
  const ran: string[] = [];
  let release!: () => void;
  const { q } = queue(async (p) => {
    if (p.text === 'one') await new Promise<void>((r) => (release = r));
    ran.push(p.text);
    return 'done';
  });
  const one = q.push('one', []);
  const two = q.push('two', []);
  const three = q.push('three', []);
  await new Promise((r) => setImmediate(r));
  q.remove(2);
  await two;
  release();
  await Promise.all([one, three]);
  assert.deepEqual(ran, ['one', 'three']);
});

test('requeue keeps the prompt at the head until drained again; a blocked session runs nothing; clear drops all', async () => {
  let blocked = false;
  let outcome: TurnOutcome = 'requeue';
  const ran: string[] = [];
  const { q, published } = queue(async (p) => {
    ran.push(p.text);
    return outcome;
  }, () => blocked);
  const first = q.push('first', []);
  const second = q.push('second', []);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ran, ['first']);
  assert.deepEqual(published.at(-1), ['first', 'second'], 'requeued at the head');
  blocked = true;
  await q.drain();
  assert.deepEqual(ran, ['first'], 'nothing runs while blocked');
  blocked = false;
  outcome = 'done';
  await q.drain();
  await Promise.all([first, second]);
  assert.deepEqual(ran, ['first', 'first', 'second']);
  blocked = true;
  const dropped = q.push('never', []);
  q.clear();
  await dropped;
  assert.deepEqual(published.at(-1), []);
  assert.deepEqual(ran, ['first', 'first', 'second']);
});

test('a turn that throws rejects its own caller only; the next one still runs', async () => {
  const { q } = queue(async (p) => {
    if (p.text === 'bad') throw new Error('boom');
    return 'done';
  });
  const bad = q.push('bad', []);
  const good = q.push('good', []);
  await assert.rejects(bad, /boom/);
  await good;
});
