// Line numbers between ACP (1-based) and VS Code (0-based): the one conversion every caller uses
// (reading a window of a file, opening a location, following the agent, a selection's lines).
import test from 'node:test';
import assert from 'node:assert/strict';
import { lastHeldLine, sliceLines, toOneBasedLine, toZeroBasedLine } from '../../src/workspace/lines';

test('an ACP line becomes a 0-based line; 0, null, absent and negative lines are the first', () => {
  assert.deepEqual([1, 2, 40].map((line) => toZeroBasedLine(line)), [0, 1, 39]);
  assert.deepEqual([0, null, undefined, -3].map((line) => toZeroBasedLine(line)), [0, 0, 0, 0]);
});

test('with a line count, a line past the end is the last one (and an empty document has line 0)', () => {
  assert.equal(toZeroBasedLine(3, 10), 2);
  assert.equal(toZeroBasedLine(10, 10), 9);
  assert.equal(toZeroBasedLine(99, 10), 9);
  assert.equal(toZeroBasedLine(null, 10), 0);
  assert.equal(toZeroBasedLine(5, 0), 0);
});

test('a VS Code line becomes an ACP line, and back', () => {
  assert.equal(toOneBasedLine(0), 1);
  for (const line of [0, 1, 41]) assert.equal(toZeroBasedLine(toOneBasedLine(line)), line);
});

test('a range ending at the start of a line does not hold that line (unless it starts there too)', () => {
  assert.equal(lastHeldLine({ line: 1 }, { line: 3, character: 0 }), 2);
  assert.equal(lastHeldLine({ line: 1 }, { line: 3, character: 4 }), 3);
  assert.equal(lastHeldLine({ line: 3 }, { line: 3, character: 0 }), 3);
});

test('a window of a file starts at its ACP line; null line and limit mean from the start, to the end', () => {
  const file = 'one\ntwo\nthree\n';
  assert.equal(sliceLines(file, null, null), file);
  assert.equal(sliceLines(file, 2, null), 'two\nthree\n');
  assert.equal(sliceLines(file, 1, 2), 'one\ntwo\n');
  assert.equal(sliceLines(file, -1, 1), 'one\n');
});
