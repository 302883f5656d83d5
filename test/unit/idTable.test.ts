// The ids an agent chooses map to their entries through an IdTable (src/session/idTable.ts): it
// must answer as a Map<string, number> would, whatever the ids, their order and their hashes,
// before and after its young ids move to the old table (a small young table moves them often); it
// reads an id only when its hash matches; and ids made to collide must not make it slow (it
// hands itself over to a Map).
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdTable, seededHash } from '../../src/session/idTable';

type Op = { op: 'set'; id: string } | { op: 'get'; id: string } | { op: 'clear' };

const ops = (ids: fc.Arbitrary<string>) =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.record({ op: fc.constant('set' as const), id: ids }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant('get' as const), id: ids }) },
      { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
    ),
    { maxLength: 600 },
  );

/**
 * Runs `steps` on a table and on a Map, as a transcript uses its index: each set keeps the id at
 * the end of a list (an id set again moves to its new place), a clear empties the list. Every
 * get, and at the end every id the Map knows, reads the same from both.
 */
function sameAsMap(hash: ((id: string) => number) | undefined, steps: Op[], youngIds?: number): void {
  let kept: string[] = [];
  const table = new IdTable((at) => kept[at], hash, youngIds);
  const map = new Map<string, number>();
  for (const step of steps) {
    if (step.op === 'set') {
      kept.push(step.id);
      table.set(step.id, kept.length - 1);
      map.set(step.id, kept.length - 1);
    } else if (step.op === 'get') assert.equal(table.get(step.id), map.get(step.id));
    else {
      kept = [];
      table.clear();
      map.clear();
    }
  }
  for (const [id, at] of map) assert.equal(table.get(id), at);
}

// Few distinct ids, so that sets repeat and gets hit; any UTF-16 units, lone surrogates included.
const fewIds = fc.oneof(fc.constantFrom('__proto__', 'constructor', '', 'toolu_01'), fc.string({ maxLength: 3, unit: 'binary' }));
const manyIds = fc.oneof(fewIds, fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }));

// Young tables of 1,024 ids (the default: 600 steps never fill it), or of 1 to 8.
const youngIds = fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 8 }));

test('a table answers as a Map does: gets, sets again and clears, whatever the young table takes', () => {
  fc.assert(fc.property(ops(manyIds), youngIds, (steps, young) => sameAsMap(undefined, steps, young)), { numRuns: 400 });
});

test('as a Map does over many ids: each found in the old table, set again there, and a new id after each get that missed', () => {
  const kept: string[] = [];
  const table = new IdTable((at) => kept[at]);
  for (let i = 0; i < 50_000; i++) {
    assert.equal(table.get(`call_${i}`), undefined);
    kept.push(`call_${i}`);
    table.set(`call_${i}`, i);
  }
  for (let i = 0; i < 50_000; i += 7) assert.equal(table.get(`call_${i}`), i, `call_${i}`);
  // Set again: an old id keeps its new place, a young one too.
  kept.push('call_3', 'call_49999');
  table.set('call_3', 50_000);
  table.set('call_49999', 50_001);
  assert.equal(table.get('call_3'), 50_000);
  assert.equal(table.get('call_49999'), 50_001);
  assert.equal(table.get('call_50000'), undefined);
});

test('as a Map does when hashes collide: two slots, or one for all (the table then hands over to a Map)', () => {
  const hashes: Array<(id: string) => number> = [(id) => id.length, (id) => (id.charCodeAt(0) || 0) & 1, () => 7];
  for (const hash of hashes) fc.assert(fc.property(ops(fewIds), youngIds, (steps, young) => sameAsMap(hash, steps, young)), { numRuns: 100 });
  // Enough colliding ids to pass the hand-over, then more, sets again of ids from before it, a clear.
  const steps: Op[] = Array.from({ length: 700 }, (_, i) => ({ op: 'set', id: `call_${i % 650}` }));
  steps.push({ op: 'get', id: 'call_3' }, { op: 'get', id: 'call_700' }, { op: 'clear' }, { op: 'set', id: 'call_1' }, { op: 'get', id: 'call_2' });
  sameAsMap(() => 7, steps);
  // The same, with the run grown long while young ids move to the old table.
  sameAsMap(() => 7, steps, 100);
});

test('a new id is looked up without reading the ids kept: only a matching hash reads one', () => {
  const kept: string[] = [];
  let read = 0;
  const table = new IdTable((at) => {
    read++;
    return kept[at];
  });
  for (let i = 0; i < 20_000; i++) {
    assert.equal(table.get(`call_${i}`), undefined);
    kept.push(`call_${i}`);
    table.set(`call_${i}`, i);
  }
  assert.ok(read < 5, `${read} ids read for 20,000 new ones`);
  assert.equal(table.get('call_19999'), 19_999);
});

test('ids made to collide cost a bounded probe, then none: the table hands over to a Map', () => {
  let hashed = 0;
  const kept = Array.from({ length: 2000 }, (_, i) => `call_${i}`);
  const table = new IdTable(
    (at) => kept[at],
    () => {
      hashed++;
      return 0;
    },
  );
  kept.forEach((id, i) => table.set(id, i));
  const before = hashed;
  kept.forEach((id, i) => assert.equal(table.get(id), i));
  assert.ok(hashed < 300, `it stopped hashing at the long run (${hashed} hashes for 2,000 ids)`);
  assert.equal(hashed, before, 'and looks up in the Map');
});

test('the hash spreads ids that differ in one character over the low bits, which pick the slot', () => {
  // 20,480 ids as an agent numbers them, in 1,024 slots: about 20 each if the low bits are spread.
  const hash = seededHash(12345);
  const perSlot = new Array<number>(1024).fill(0);
  for (let i = 0; i < 20_480; i++) perSlot[hash(`call_${i}`) & 1023]!++;
  assert.ok(Math.min(...perSlot) >= 4 && Math.max(...perSlot) <= 45, `between ${Math.min(...perSlot)} and ${Math.max(...perSlot)} per slot`);
  // The seed moves every id: another seed puts them elsewhere.
  const other = seededHash(54321);
  let same = 0;
  for (let i = 0; i < 1000; i++) if ((hash(`call_${i}`) & 1023) === (other(`call_${i}`) & 1023)) same++;
  assert.ok(same < 20, `${same} of 1,000 ids in the same slot under two seeds`);
});
