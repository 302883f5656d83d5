import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import test from 'node:test';
import type * as z from 'zod/mini';
import * as protocol from '../../src/protocol';
import { agentMethods, clientMethods, formatZodError, protocolMethods, type Method } from '../../src/protocol';
import { assertSpecMessage, assertSpecValid, specMethods, type Sender } from './helpers/officialSchema';

// test/fixtures/protocol-corpus holds one file per official `$defs` type, each sample valid
// against the official schema and written the way a conforming peer sends it.
interface CorpusFile {
  def: string;
  note?: string;
  samples: unknown[];
}

const corpusDir = path.resolve(__dirname, '../../../test/fixtures/protocol-corpus');
const corpus: readonly CorpusFile[] = readdirSync(corpusDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(path.join(corpusDir, name), 'utf8')) as CorpusFile);

function samplesOf(def: string): unknown[] {
  const file = corpus.find((f) => f.def === def);
  if (!file) throw new Error(`No corpus file for ${def}`);
  return file.samples;
}

/** Where our export name differs from the `$defs` name (`Error` would shadow the global). */
const renamed: Record<string, string> = { Error: 'JsonRpcError' };

/** Our zod schema for a `$defs` type, by the naming convention `<Def>Schema`. */
function zodSchemaFor(def: string): z.ZodMiniType {
  const schema = (protocol as Record<string, unknown>)[`${renamed[def] ?? def}Schema`];
  if (!schema) throw new Error(`src/protocol exports no schema for $defs/${def}`);
  return schema as z.ZodMiniType;
}

const ourMethods = new Map<string, Method>(
  [...Object.values(agentMethods), ...Object.values(clientMethods), ...Object.values(protocolMethods)].map((m) => [
    m.method,
    m,
  ]),
);

function assertParsesToItself(schema: z.ZodMiniType, sample: unknown, label: string): void {
  const parsed = schema.safeParse(sample);
  assert.ok(parsed.success, `${label}: ${parsed.success || formatZodError(parsed.error)}`);
  // Nothing the spec defines is dropped or altered by our schema.
  assert.deepStrictEqual(parsed.data, sample, label);
}

for (const { def, samples } of corpus) {
  test(`corpus ${def}: each sample is spec-valid, parses to itself, and what we would re-send is spec-valid`, () => {
    assert.ok(samples.length > 0);
    const schema = zodSchemaFor(def);
    samples.forEach((sample, i) => {
      const label = `${def} sample #${i}`;
      assertSpecValid(def, sample);
      assertParsesToItself(schema, sample, label);
      assertSpecValid(def, schema.parse(sample));
    });
  });
}

test('the method table has exactly the stable methods of the official schema, each with its kind', () => {
  assert.deepEqual([...ourMethods.keys()].sort(), specMethods.map((m) => m.method).sort());
  for (const spec of specMethods) assert.equal(ourMethods.get(spec.method)?.kind, spec.kind, spec.method);
});

test("each method's params and result schemas read the corpus of the method's official types", () => {
  for (const spec of specMethods) {
    const ours = ourMethods.get(spec.method);
    assert.ok(ours, spec.method);
    samplesOf(spec.paramsDef).forEach((s, i) => assertParsesToItself(ours.params, s, `${spec.method} params #${i}`));
    if (spec.resultDef) {
      assert.equal(ours.kind, 'request');
      samplesOf(spec.resultDef).forEach((s, i) => assertParsesToItself(ours.result, s, `${spec.method} result #${i}`));
    }
  }
});

test('corpus samples in JSON-RPC envelopes are valid messages from the right side', () => {
  for (const spec of specMethods) {
    const callers: Sender[] = spec.side === 'protocol' ? ['client', 'agent'] : [spec.side === 'agent' ? 'client' : 'agent'];
    for (const from of callers) {
      samplesOf(spec.paramsDef).forEach((params, id) => {
        const message =
          spec.kind === 'request'
            ? { jsonrpc: '2.0', id, method: spec.method, params }
            : { jsonrpc: '2.0', method: spec.method, params };
        assertSpecMessage(message, { from });
      });
      if (spec.resultDef) {
        const callee: Sender = from === 'client' ? 'agent' : 'client';
        samplesOf(spec.resultDef).forEach((result, id) =>
          assertSpecMessage({ jsonrpc: '2.0', id, result }, { from: callee, requestMethod: spec.method }),
        );
      }
    }
  }
});
