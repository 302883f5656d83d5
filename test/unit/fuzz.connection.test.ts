// Fuzzing a live AcpConnection: over 100,000 generated and mutated lines (bad JSON, wrong types,
// huge numbers, 10,000-deep nesting, unknown methods, stray responses, valid requests from the
// protocol corpus mutated) go into one connection per run, in randomly cut chunks. An oracle,
// written from JSON-RPC 2.0 and the reader's line rules rather than from the code, says what each
// line is owed; every request must get exactly that answer, once, and nothing else may be written.
// Reproduce a failure with ACP_FUZZ_SEED=<seed printed on failure>.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import { AcpConnection } from '../../src/agent/connection';
import { agentMethods, clientMethods, ErrorCodes } from '../../src/protocol';
import { FakePeer, recordingLog } from './helpers/streams';
import { specMethods } from './helpers/officialSchema';

const SEED = Number(process.env.ACP_FUZZ_SEED ?? 0x6acb2024);
const RUNS = 100;
const LINES_PER_RUN = 1050; // a few are left out as duplicates (see run), 100,000 go in

// ---- What the client serves: every client-side request of the spec, answered with a corpus result.

const corpusDir = path.resolve(__dirname, '../../../test/fixtures/protocol-corpus');
const corpus = new Map<string, unknown[]>(
  readdirSync(corpusDir).map((name) => {
    const file = JSON.parse(readFileSync(path.join(corpusDir, name), 'utf8')) as { def: string; samples: unknown[] };
    return [file.def, file.samples];
  }),
);

const served = specMethods
  .filter((m) => m.side === 'client' && m.kind === 'request' && corpus.has(m.paramsDef) && corpus.has(m.resultDef!))
  .map((m) => {
    const spec = Object.values(clientMethods).find((c) => c.method === m.method);
    assert.ok(spec && spec.kind === 'request', `clientMethods has no request ${m.method}`);
    return { spec, seeds: corpus.get(m.paramsDef)!, result: corpus.get(m.resultDef!)![0] };
  });
const servedByMethod = new Map<string, (typeof served)[number]>(served.map((s) => [s.spec.method, s]));
const notificationSeeds = corpus.get('SessionNotification')!.map((params) => ({ method: 'session/update', params }));

// ---- The oracle: what one line is owed.

type Id = string | number | null;
type Owed = { kind: 'nothing' } | { kind: 'update' } | { kind: 'error'; id: Id; code: number } | { kind: 'result'; id: Id };
const NOTHING: Owed = { kind: 'nothing' };
const error = (id: Id, code: number): Owed => ({ kind: 'error', id, code });

/** An id a response can carry back: JSON has no Infinity (1e400 parses to it), so it is not one. */
const usableId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function owed(line: string): Owed {
  // What the reader sees: the line as UTF-8 (lone surrogates become U+FFFD), trimmed.
  const text = Buffer.from(line, 'utf8').toString('utf8').trim();
  if (text === '') return NOTHING;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Only a line that tries to be JSON is owed a parse error; banners and noise are just logged.
    return text.startsWith('{') || text.startsWith('[') ? error(null, ErrorCodes.ParseError) : NOTHING;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return error(null, ErrorCodes.InvalidRequest);
  const m = value as Record<string, unknown>;
  if (!('method' in m)) return 'id' in m ? NOTHING : error(null, ErrorCodes.InvalidRequest); // a response is never answered
  const isRequest = 'id' in m;
  const answerTo = isRequest && usableId(m.id) ? m.id : null;
  const badParams = m.params !== undefined && (typeof m.params !== 'object' || m.params === null);
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || (isRequest && !usableId(m.id)) || badParams) {
    return error(answerTo, ErrorCodes.InvalidRequest);
  }
  // ACP params are named: positional (array) params are invalid params, whatever they hold.
  const validParams = (schema: z.ZodMiniType) => !Array.isArray(m.params) && schema.safeParse(m.params ?? {}).success;
  if (!isRequest) return m.method === 'session/update' && validParams(clientMethods.sessionUpdate.params) ? { kind: 'update' } : NOTHING;
  const serve = servedByMethod.get(m.method);
  if (!serve) return error(answerTo, ErrorCodes.MethodNotFound);
  if (!validParams(serve.spec.params)) return error(answerTo, ErrorCodes.InvalidParams);
  return { kind: 'result', id: answerTo };
}

// ---- Lines. Each generator takes a fresh number so that every usable id in a run is unique.

type Line = (n: number) => string;

/** Ids of every shape; usable ones carry `n` so that no two lines share one. */
const idArb: fc.Arbitrary<(n: number) => unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constant((n: number) => n) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12, unit: 'binary' }).map((s) => (n: number) => `${s}#${n}`) },
  fc.constant((n: number) => -n - 1),
  fc.constant((n: number) => n + 0.5),
  fc.constant((n: number) => 2 ** 53 + 2 * n),
  fc.constantFrom(null, true, false, {}, [], [1], { id: 1 }, '').map((v) => () => v),
);

const METHOD_NAMES = [
  ...served.map((s) => s.spec.method),
  'session/update', 'session/prompt', 'initialize', 'fs/read_text_file ', 'FS/READ_TEXT_FILE', '_vendor/frobnicate', '$/cancelRequest',
  '$/cancel_request', '$/progress', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '', 'rpc.discover',
];
const methodArb = fc.oneof(fc.constantFrom<unknown>(...METHOD_NAMES.map(String)), fc.string({ maxLength: 20 }), fc.constantFrom<unknown>(42, null, ['fs/read_text_file'], {}));

const hugeNumber = fc.constantFrom('1e400', '-1e400', '1e308', '123456789012345678901234567890', '-0', '0.1e-400', '9007199254740993', '1.7976931348623157e309');

/** Puts a literal number into the JSON text where JSON.stringify cannot (Infinity, precision lost). */
const withRawNumber = (json: string, raw: string) => json.replace(/"__RAW_NUMBER__"/g, raw);

/** A path into a JSON value, and what to do there. */
interface Mutation {
  at: number;
  op: 'delete' | 'replace' | 'wrap' | 'stringify' | 'huge';
  value: unknown;
  raw: string;
}
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('delete', 'replace', 'replace', 'wrap', 'stringify', 'huge'),
  value: fc.jsonValue({ maxDepth: 2 }),
  raw: hugeNumber,
});

function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => pathsOf((value as Record<string | number, unknown>)[k], [...prefix, k]))];
}

function mutate(message: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const copy = structuredClone(message);
  for (const { at, op, value, raw } of mutations) {
    const paths = pathsOf(copy).filter((p) => p.length > 0);
    if (paths.length === 0) break; // everything was deleted
    const where = paths[at % paths.length];
    const parent = where.slice(0, -1).reduce<any>((o, k) => o[k], copy);
    const key = where[where.length - 1];
    const old = parent[key];
    if (op === 'delete') Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key];
    else if (op === 'replace') parent[key] = value;
    else if (op === 'wrap') parent[key] = [old];
    else if (op === 'stringify') parent[key] = JSON.stringify(old) ?? 'undefined';
    else parent[key] = raw === '-0' ? -0 : '__RAW_NUMBER__';
  }
  return copy;
}

const validRequest = fc.constantFrom(...served).chain((s) => fc.constantFrom(...s.seeds).map((params) => ({ method: s.spec.method, params })));

/** A corpus request, valid as it is. */
const validLine: fc.Arbitrary<Line> = validRequest.map(({ method, params }) => (n) => JSON.stringify({ jsonrpc: '2.0', id: n, method, params }));

/** A corpus request or notification with 1–4 structural mutations (ids included). */
const mutatedLine: fc.Arbitrary<Line> = fc
  .tuple(fc.oneof(validRequest, fc.constantFrom(...notificationSeeds)), fc.boolean(), fc.array(mutationArb, { minLength: 1, maxLength: 4 }), idArb, hugeNumber)
  .map(([seed, notification, mutations, id, raw]) => (n) => {
    const message = notification ? { jsonrpc: '2.0', ...seed } : { jsonrpc: '2.0', id: '__ID__', ...seed };
    const mutated = mutate(message, mutations);
    if (mutated.id === '__ID__') mutated.id = id(n);
    return withRawNumber(JSON.stringify(mutated), raw);
  });

/** Envelopes of every shape: wrong versions, methods, ids and params, responses to unknown ids. */
const envelopeLine: fc.Arbitrary<Line> = fc
  .record({
    jsonrpc: fc.option(fc.constantFrom<unknown>('2.0', '2.0', '2.0', '1.0', 2, '2.0 ', null), { nil: undefined }),
    method: fc.option(methodArb, { nil: undefined }),
    id: fc.option(idArb, { nil: undefined }),
    params: fc.option(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant({})), { nil: undefined }),
    result: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    error: fc.option(fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), fc.jsonValue({ maxDepth: 2 })), { nil: undefined }),
  })
  .map((r) => (n) => {
    const message: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(r)) if (value !== undefined) message[key] = key === 'id' ? (value as (n: number) => unknown)(n) : value;
    return JSON.stringify(message);
  });

/** Text that is not JSON, or JSON cut or damaged somewhere. */
const brokenLine: fc.Arbitrary<Line> = fc.oneof(
  fc.string({ maxLength: 80, unit: 'binary' }).map((s) => () => s),
  fc.constantFrom('{', '[', '{}}', '{"jsonrpc":"2.0",', '[1,2', 'null', 'true', '42', '"str"', '\uFEFF{"jsonrpc":"2.0"}', ' \t\r', '\x1b[32mok\x1b[0m', 'undefined', "{'a':1}").map((s) => () => s),
  fc.tuple(validLine, fc.nat(), fc.string({ maxLength: 3, unit: 'binary' })).map(([line, at, junk]) => (n: number) => {
    const text = line(n);
    const cut = at % text.length;
    return text.slice(0, cut) + junk + text.slice(cut + (at % 3));
  }),
);

/** 10,000 levels of nesting: closed, unclosed, and inside an otherwise valid request. */
const deepLine: fc.Arbitrary<Line> = fc.constantFrom<Line>(
  () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  () => '['.repeat(10_000),
  () => `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  (n) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a', _meta: '__DEEP__' } }).replace('"__DEEP__"', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
  (n) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'terminal/output', params: '__DEEP__' }).replace('"__DEEP__"', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
);

const lineArb: fc.Arbitrary<Line> = fc.oneof(
  { weight: 30, arbitrary: validLine },
  { weight: 60, arbitrary: mutatedLine },
  { weight: 40, arbitrary: envelopeLine },
  { weight: 30, arbitrary: brokenLine },
  { weight: 10, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => () => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: deepLine },
);

/** The lines of a run, each without a newline inside (the generators may make one; it is a space then). */
const runArb = fc.record({
  lines: fc.array(lineArb, { minLength: LINES_PER_RUN, maxLength: LINES_PER_RUN }),
  cuts: fc.array(fc.nat(), { maxLength: 40 }),
});

// ---- One run: a fresh connection, the lines in random chunks, then the answers checked.

const key = (id: unknown) => `${typeof id}:${JSON.stringify(id)}`;
const totals = { lines: 0, runs: 0, byCode: new Map<string | number, number>(), logErrors: 0, logWarnings: 0 };

async function run(generated: string[], cuts: number[]): Promise<void> {
  const peer = new FakePeer();
  const log = recordingLog();
  const connection = new AcpConnection(peer.toClient, peer.fromClient, { log });
  for (const { spec, result } of served) connection.onRequest(spec as typeof clientMethods.fsReadTextFile, () => result as never);
  let updates = 0;
  connection.onNotification(clientMethods.sessionUpdate, () => updates++);

  // A damaged or mutated line may land on another line's id: such a line is left out (ids must
  // be unique for the answers to be told apart), as are the ids the test itself uses.
  const sentinelId = 'sentinel';
  const expected = new Map<string, Owed>([sentinelId, 'after'].map((id) => [key(id), NOTHING]));
  const lineOf = new Map<string, string>();
  /** What the answers to id null must be (they cannot be told apart, so compared as a multiset). */
  const nullOwed: (number | string)[] = [];
  let updatesOwed = 0;
  const lines = generated.filter((line) => {
    const o = owed(line);
    if (o.kind === 'update') updatesOwed++;
    if (o.kind !== 'error' && o.kind !== 'result') return true;
    if (o.id === null) return nullOwed.push(o.kind === 'error' ? o.code : 'result') > 0;
    if (expected.has(key(o.id))) return false;
    expected.set(key(o.id), o);
    lineOf.set(key(o.id), line);
    return true;
  });
  // The last line: a valid request; once it is answered, everything before it has been handled.
  const sentinel = JSON.stringify({ jsonrpc: '2.0', id: sentinelId, method: 'terminal/output', params: { sessionId: 's', terminalId: 't' } });
  const bytes = Buffer.from(`${[...lines, sentinel].join('\n')}\n`, 'utf8');
  const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
  [0, ...at].forEach((from, i) => peer.toClient.write(bytes.subarray(from, at[i] ?? bytes.length)));
  await peer.responseTo(sentinelId, 30_000);

  const answers = peer.written.filter((m) => !('method' in m) && m.id !== sentinelId);
  assert.equal(peer.written.filter((m) => 'method' in m).length, 0, 'the connection sent something other than answers');
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const answer of answers) {
    totals.byCode.set(answer.error?.code ?? 'result', (totals.byCode.get(answer.error?.code ?? 'result') ?? 0) + 1);
    if (answer.id === null) continue;
    const k = key(answer.id);
    const want = expected.get(k);
    if (seen.has(k)) problems.push(`answered twice: ${k}`);
    seen.add(k);
    if (!want) problems.push(`unexpected answer ${JSON.stringify(answer)}`);
    else if (want.kind === 'result' && !('result' in answer && !('error' in answer))) problems.push(`${lineOf.get(k)}: wanted a result, got ${JSON.stringify(answer)}`);
    else if (want.kind === 'error' && answer.error?.code !== want.code) problems.push(`${lineOf.get(k)}: wanted ${want.code}, got ${JSON.stringify(answer)}`);
  }
  for (const [k, want] of expected) if (want.kind !== 'nothing' && !seen.has(k)) problems.push(`never answered: ${lineOf.get(k)}`);
  if (updates !== updatesOwed) problems.push(`${updates} session/update notifications handled, ${updatesOwed} valid ones sent`);
  const nullGot = answers.filter((m) => m.id === null).map((m) => m.error?.code ?? 'result');
  const tally = (codes: (number | string)[]) => {
    const counts = new Map<string, number>();
    for (const c of codes) counts.set(String(c), (counts.get(String(c)) ?? 0) + 1);
    return JSON.stringify([...counts].sort());
  };
  if (tally(nullGot) !== tally(nullOwed)) problems.push(`answers to id null: ${tally(nullGot)}, owed ${tally(nullOwed)}`);
  assert.deepEqual(problems.slice(0, 10), []);

  // Still alive both ways: the agent's request is served, ours is answered.
  peer.send({ jsonrpc: '2.0', id: 'after', method: 'fs/read_text_file', params: { sessionId: 's', path: '/after' } });
  assert.ok('result' in (await peer.responseTo('after')));
  const ours = connection.request(agentMethods.sessionNew, { cwd: '/w', mcpServers: [] });
  const request = await peer.requestFor('session/new');
  peer.send({ jsonrpc: '2.0', id: request.id, result: { sessionId: 'still-here' } });
  assert.equal((await ours).sessionId, 'still-here');
  connection.dispose();

  totals.lines += lines.length + 1;
  totals.runs++;
  totals.logErrors += log.entries.filter((e) => e.level === 'error').length;
  totals.logWarnings += log.entries.filter((e) => e.level === 'warn').length;
}

test(`fuzz: ${RUNS} runs of ${LINES_PER_RUN} hostile lines into a live connection, every request answered once and right (seed ${SEED})`, { timeout: 120_000 }, async () => {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const started = Date.now();
  try {
    // fc.check rather than fc.assert: the counterexample is 1,000 closures; the error and the seed say more.
    const details = await fc.check(
      fc.asyncProperty(runArb, async ({ lines, cuts }) => {
        const texts = lines.map((line, n) => line(n).replace(/\n/g, ' '));
        await run(texts, cuts);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (details.failed) {
      const why = String((details.errorInstance as Error)?.stack ?? details.errorInstance).slice(0, 4000);
      assert.fail(`fuzzing failed with seed ${SEED}, path ${details.counterexamplePath} (rerun: ACP_FUZZ_SEED=${SEED}): ${why}`);
    }
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
  assert.deepEqual(crashes.map(String), [], 'no uncaught exception or unhandled rejection');
  assert.ok(totals.lines >= 100_000, `only ${totals.lines} lines were fuzzed`);
  const codes = Object.fromEntries([...totals.byCode].sort());
  // Every kind of answer must have been exercised, or the generators have gone blind.
  for (const code of ['result', -32700, -32600, -32601, -32602]) assert.ok((totals.byCode.get(code) ?? 0) > 100, `too few ${code}: ${JSON.stringify(codes)}`);
  console.log(`fuzz: ${totals.lines} lines in ${totals.runs} runs, ${Date.now() - started} ms; answers ${JSON.stringify(codes)}; log ${totals.logErrors} errors, ${totals.logWarnings} warnings`);
});
