// The review model, tested by rendering the list the panel would show as text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { EditReview } from '../../src/session/editReview';
import type { CurrentText } from '../../src/session/editReview';

function render(review: EditReview, current: Record<string, CurrentText>): string {
  return review
    .list(new Map(Object.entries(current)))
    .map((f) => `${f.change} ${f.path} +${f.added} -${f.removed}`)
    .join('\n');
}

test('a modified, a created and a deleted file are listed by path with their line counts', () => {
  const review = new EditReview();
  review.record('/w/b.ts', 'one\ntwo\nthree\n');
  review.record('/w/a.ts', null);
  review.record('/w/c.ts', 'gone\nalso gone\n');
  const current = { '/w/a.ts': 'new\nfile\n', '/w/b.ts': 'one\nTWO\nthree\nfour\n', '/w/c.ts': null };
  assert.equal(render(review, current), ['created /w/a.ts +2 -0', 'modified /w/b.ts +2 -1', 'deleted /w/c.ts +0 -2'].join('\n'));
});

test('the first baseline wins until the file is kept; a file back at its baseline is not listed', () => {
  const review = new EditReview();
  assert.equal(review.record('/w/a.ts', 'v1\n'), true);
  assert.equal(review.record('/w/a.ts', 'v2\n'), false, 'a later (already changed) state does not replace it');
  assert.equal(render(review, { '/w/a.ts': 'v3\n' }), 'modified /w/a.ts +1 -1');
  assert.equal(render(review, { '/w/a.ts': 'v1\n' }), '', 'changed back: nothing to review');
  review.keep('/w/a.ts');
  assert.equal(review.has('/w/a.ts'), false);
  review.record('/w/a.ts', 'v3\n');
  assert.equal(render(review, { '/w/a.ts': 'v4\n' }), 'modified /w/a.ts +1 -1', 'after keep, the next change starts from the kept state');
});

test('a file created and deleted again, and files whose state is unreadable, are not listed', () => {
  const review = new EditReview();
  review.record('/w/tmp.txt', null);
  review.record('/w/x.ts', 'x\n');
  assert.equal(render(review, { '/w/tmp.txt': null }), '');
});

test('an unknown baseline is never listed and blocks a later (post-change) one', () => {
  const review = new EditReview();
  assert.equal(review.touch('/w/big.bin'), true);
  assert.equal(review.record('/w/big.bin', 'after the write'), false);
  assert.deepEqual(review.baseline('/w/big.bin'), { known: false });
  assert.equal(render(review, { '/w/big.bin': 'anything' }), '');
  assert.equal(review.touch('/w/a.ts') || review.record('/w/a.ts', 'ignored'), true);
});

test('keep without a path forgets everything; prune forgets only what equals the current state', () => {
  const review = new EditReview();
  review.record('/w/a.ts', 'a\n');
  review.record('/w/b.ts', 'b\n');
  review.record('/w/c.ts', null);
  review.prune(new Map<string, CurrentText>([['/w/a.ts', 'a\n'], ['/w/b.ts', 'B\n']]));
  assert.deepEqual(review.paths, ['/w/b.ts', '/w/c.ts'], 'c is kept: its state was not read');
  review.forget('/w/b.ts');
  assert.deepEqual(review.paths, ['/w/c.ts']);
  review.keep();
  assert.deepEqual(review.paths, []);
});

test('a line without a final newline, and an emptied file, count as a person reads them', () => {
  const review = new EditReview();
  review.record('/w/a.txt', 'same\nlast');
  review.record('/w/b.txt', 'x\ny\n');
  assert.equal(render(review, { '/w/a.txt': 'same\nlast\n', '/w/b.txt': '' }), ['modified /w/a.txt +1 -1', 'modified /w/b.txt +0 -2'].join('\n'));
});

test('earlier texts are kept within a budget: past it a changed file is not listed but counted, until kept', () => {
  const review = new EditReview(100);
  assert.equal(review.record('/w/a.ts', 'a'.repeat(60)), true);
  assert.equal(review.record('/w/big.ts', 'b'.repeat(50)), true, 'recorded, as unknown');
  assert.equal(review.record('/w/new.ts', null), true, 'a file that did not exist costs nothing');
  assert.equal(review.record('/w/c.ts', 'c'.repeat(40)), true);
  assert.equal(review.notKept, 1);
  assert.equal(render(review, { '/w/a.ts': 'x\n', '/w/big.ts': 'y\n', '/w/new.ts': 'n\n', '/w/c.ts': 'z\n' }), ['modified /w/a.ts +1 -1', 'modified /w/c.ts +1 -1', 'created /w/new.ts +1 -0'].join('\n'));
  // Kept or undone files give their share back.
  review.keep('/w/a.ts');
  assert.equal(review.record('/w/d.ts', 'd'.repeat(60)), true);
  assert.equal(render(review, { '/w/c.ts': 'z\n', '/w/d.ts': 'w\n' }), ['modified /w/c.ts +1 -1', 'modified /w/d.ts +1 -1'].join('\n'));
  review.keep();
  assert.equal(review.notKept, 0, 'Keep all clears what was not kept too');
  assert.equal(review.record('/w/e.ts', 'e'.repeat(100)), true);
  assert.equal(review.notKept, 0, 'the whole budget is free again');
});
