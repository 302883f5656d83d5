// The connection checks notifications with zod's compiled parser (src/agent/connection.ts), for
// speed. It must accept and reject exactly what the regular parser does, with the same output:
// checked here on the corpus and on generated mutations of it, so a zod upgrade cannot quietly
// change what crosses the process boundary.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import * as z from 'zod/mini';
import { clientMethods } from '../../src/protocol/methods';
import { ContentBlockSchema, ToolCallContentSchema, ToolCallLocationSchema } from '../../src/protocol';
import { COMPILE_ITEMS_AFTER, lenientArray } from '../../src/protocol/schema/lenient';

const corpusDir = path.resolve(__dirname, '../../../test/fixtures/protocol-corpus');
const samples = (def: string): unknown[] => (JSON.parse(readFileSync(path.join(corpusDir, `${def}.json`), 'utf8')) as { samples: unknown[] }).samples;

/** `value` with the node at position `at` (in a depth-first walk) replaced by `replacement`. */
function mutate(value: unknown, at: number, replacement: unknown): unknown {
  let position = 0;
  const walk = (node: unknown): unknown => {
    if (position++ === at) return replacement;
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value);
}

const outcome = (result: z.util.SafeParseResult<unknown>) => (result.success ? { ok: true, data: result.data } : { ok: false, issues: result.error.issues });

for (const [name, def] of [
  ['sessionUpdate', 'SessionNotification'],
  ['elicitationComplete', 'CompleteElicitationNotification'],
] as const) {
  test(`${clientMethods[name].method}: the compiled parser agrees with zod's own on the corpus and 20,000 mutations of it`, () => {
    const schema = clientMethods[name].params as z.ZodMiniType;
    const fast = z.compile(schema);
    const corpus = samples(def);
    let rejected = 0;
    fc.assert(
      fc.property(fc.constantFrom(...corpus), fc.nat(60), fc.oneof(fc.anything(), fc.constantFrom(null, undefined, '', 0, -1, 1e400, [], {}, 'unknown_kind')), (sample, at, replacement) => {
        const input = mutate(sample, at, replacement);
        const frozen = JSON.stringify(input);
        const expected = outcome(schema.safeParse(input));
        assert.deepEqual(outcome(fast.safeParse(input)), expected);
        assert.equal(JSON.stringify(input), frozen, 'the input is not modified');
        if (!expected.ok) rejected++;
      }),
      { numRuns: 20_000, seed: 20261203 },
    );
    for (const sample of corpus) assert.equal(fast.safeParse(sample).success, true);
    assert.ok(rejected > 1000, `the mutations exercise rejection too (${rejected})`);
  });
}

// A lenientArray parses its items with the interpreter, then, once COMPILE_ITEMS_AFTER of them
// went through, with zod's compiled parser: which items it keeps, and what they read as, must
// not change at that point.
for (const [name, item, corpus] of [
  ['tool call content', ToolCallContentSchema, samples('ToolCallContent')],
  ['content blocks', ContentBlockSchema, samples('ContentBlock')],
  ['tool call locations', ToolCallLocationSchema, [{ path: '/w/a.ts' }, { path: '/w/b.ts', line: 3 }, { path: '/w/c.ts', line: null, _meta: { x: 1 } }]],
] as const) {
  test(`a lenientArray of ${name} keeps the same items, read the same, before and after it compiles their schema`, () => {
    const interpreted = (values: unknown[]) => values.flatMap((value) => {
      const result = (item as z.ZodMiniType).safeParse(value);
      return result.success ? [result.data] : [];
    });
    const array = lenientArray(item as z.ZodMiniType);
    const warmUp = Array.from({ length: COMPILE_ITEMS_AFTER }, (_, i) => corpus[i % corpus.length]);
    assert.deepEqual(array.parse(warmUp), interpreted(warmUp));
    let dropped = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...corpus), fc.nat(30), fc.oneof(fc.anything(), fc.constantFrom(null, undefined, '', 0, -1, [], {}, 'unknown_kind')))), (picks) => {
        const values = picks.map(([sample, at, replacement]) => mutate(sample, at, replacement));
        const expected = interpreted(values);
        assert.deepEqual(array.parse(values), expected);
        dropped += values.length - expected.length;
      }),
      { numRuns: 2_000, seed: 20261207 },
    );
    assert.ok(dropped > 100, `the mutations make items to drop (${dropped})`);
  });
}
