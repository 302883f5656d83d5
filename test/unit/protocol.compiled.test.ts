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
