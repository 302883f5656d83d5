// elicitation/create (form mode): the requested schema as form fields, the answer's validation,
// and the transcript entry through its life (pending → accepted / declined / cancelled).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Elicitations } from '../../src/session/elicitations';
import type { AgentSession } from '../../src/session/agentSession';
import { elicitController as controller, lastAgentText, until } from './helpers/elicitAgent';
import { clientCapabilities } from '../../src/runtime/ports';
import { CreateElicitationRequestSchema } from '../../src/protocol';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../../src/protocol';
import { formFields } from '../../src/session/elicitation';
import { Transcript } from '../../src/session/transcript';
import { checkContent, fieldProblem } from '../../src/webview-protocol/elicitation';
import { EntryViewSchema } from '../../src/webview-protocol/entries';

const silent = { info() {}, warn() {}, error() {} };

const REQUEST = {
  sessionId: 's1',
  mode: 'form',
  message: 'Set up the database',
  requestedSchema: {
    type: 'object',
    title: 'Database',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2, maxLength: 10, pattern: '^[a-z]+$', default: 'app' },
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      engine: { type: 'string', oneOf: [{ const: 'pg', title: 'PostgreSQL' }, { const: 'lite', title: 'SQLite' }] },
      size: { type: 'string', enum: ['s', 'm', 'l'] },
      ratio: { type: 'number', minimum: 0, maximum: 1 },
      port: { type: 'integer', minimum: 1, maximum: 65535, default: 5432 },
      ssl: { type: 'boolean', default: true },
      extensions: { type: 'array', items: { anyOf: [{ const: 'gis', title: 'PostGIS' }, { const: 'vec', title: 'pgvector' }] }, minItems: 1, maxItems: 2 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
    },
    required: ['name', 'engine', 'port', 'extensions'],
  },
};

const parse = (raw: unknown): CreateElicitationRequest => CreateElicitationRequestSchema.parse(raw);

test('the requested schema becomes one field per property, in order, with its constraints and defaults', () => {
  const request = parse(REQUEST);
  assert.equal(request.mode, 'form');
  if (request.mode !== 'form') return;
  const { fields, unsupported } = formFields(request.requestedSchema);
  assert.deepEqual(unsupported, []);
  assert.deepEqual(fields.map((f) => [f.name, f.type, f.required]), [
    ['name', 'string', true], ['email', 'string', false], ['site', 'string', false], ['day', 'string', false], ['at', 'string', false],
    ['engine', 'choice', true], ['size', 'choice', false], ['ratio', 'number', false], ['port', 'integer', true], ['ssl', 'boolean', false],
    ['extensions', 'multiselect', true], ['tags', 'multiselect', false],
  ]);
  assert.deepEqual(fields[0], { name: 'name', title: 'Name', description: null, required: true, type: 'string', minLength: 2, maxLength: 10, pattern: '^[a-z]+$', default: 'app' });
  assert.equal(fields[1].title, 'email', 'no title: the property name');
  assert.deepEqual(fields[5].choices, [{ value: 'pg', title: 'PostgreSQL' }, { value: 'lite', title: 'SQLite' }]);
  assert.deepEqual(fields[6].choices, [{ value: 's', title: 's' }, { value: 'm', title: 'm' }, { value: 'l', title: 'l' }]);
  assert.deepEqual([fields[8].minimum, fields[8].maximum, fields[8].default], [1, 65535, 5432]);
  assert.deepEqual([fields[10].minItems, fields[10].maxItems], [1, 2]);
  for (const field of fields) EntryViewSchema.parse({ kind: 'elicitation', requestKey: 'k', agentName: 'A', message: 'm', title: null, toolCallId: null, fields: [field], state: 'pending' });
});

test('a property of an unknown type is left out, and listed', () => {
  const request = parse({ ...REQUEST, requestedSchema: { type: 'object', properties: { file: { type: 'file' }, ok: { type: 'boolean' } }, required: ['file'] } });
  if (request.mode !== 'form') throw new Error('form');
  const { fields, unsupported } = formFields(request.requestedSchema);
  assert.deepEqual(fields.map((f) => f.name), ['ok']);
  assert.deepEqual(unsupported, [{ name: 'file', required: true }]);
});

test('answers are checked against the form: types, required, lengths, pattern, formats, bounds, choices, no extra keys', () => {
  const request = parse(REQUEST);
  if (request.mode !== 'form') throw new Error('form');
  const { fields } = formFields(request.requestedSchema);
  const good = { name: 'db', engine: 'pg', port: 5432, extensions: ['gis'], ssl: false, ratio: 0.5, email: 'a@b.co', site: 'https://x.org', day: '2024-02-29', at: '2024-05-06T07:08:09Z', tags: [] };
  assert.deepEqual(checkContent(fields, good), { ok: true, content: good });
  const bad = checkContent(fields, {
    name: 'A',
    engine: 'mysql',
    port: 1.5,
    extensions: ['gis', 'vec', 'gis'],
    ratio: 2,
    email: 'nope',
    site: 'not a uri',
    day: '2023-02-29',
    at: 'yesterday',
    ssl: 'yes',
    extra: 1,
  });
  assert.equal(bad.ok, false);
  if (bad.ok) return;
  assert.deepEqual(Object.keys(bad.problems).sort(), ['', 'at', 'day', 'email', 'engine', 'extensions', 'name', 'port', 'ratio', 'site', 'ssl'].sort());
  assert.match(bad.problems.name, /At least 2 characters/);
  assert.match(bad.problems.port, /whole number/);
  assert.match(bad.problems[''], /extra/);
  const missing = checkContent(fields, {});
  assert.equal(missing.ok, false);
  if (!missing.ok) assert.deepEqual(Object.keys(missing.problems).sort(), ['engine', 'extensions', 'name', 'port']);
  assert.equal(fieldProblem(fields[0], 'abc1'), 'Must match the pattern ^[a-z]+$');
  assert.equal(fieldProblem(fields[0], 'abcdefghijk'), 'At most 10 characters');
  assert.equal(fieldProblem(fields[0], undefined), 'Required');
  assert.equal(fieldProblem(fields[1], undefined), undefined);
  assert.equal(fieldProblem(fields[7], -1), 'At least 0');
  assert.equal(fieldProblem(fields[10], []), 'Choose at least 1');
});

test('the transcript entry: pending, a refused answer keeps it pending with the reason, accept sends typed content', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  const answered = elicitations.create(parse({ ...REQUEST, toolCallId: 'call-1' }));
  const entry = () => transcript.entries.at(-1)!;
  assert.equal(entry().kind, 'elicitation');
  const view = entry() as Extract<ReturnType<typeof entry>, { kind: 'elicitation' }>;
  assert.equal(view.state, 'pending');
  assert.equal(view.toolCallId, 'call-1');
  assert.equal(view.agentName, 'Fake');
  assert.equal(view.title, 'Database');
  EntryViewSchema.parse(view);

  assert.equal(elicitations.answer(view.requestKey, 'accept', { name: 'db' }), false);
  const refused = entry() as typeof view;
  assert.equal(refused.state, 'pending');
  assert.match(refused.error ?? '', /engine: Required/);

  const content = { name: 'db', engine: 'lite', port: 1, extensions: ['vec'], ssl: true };
  assert.equal(elicitations.answer(view.requestKey, 'accept', content), true);
  assert.deepEqual(await answered, { action: 'accept', content });
  const done = entry() as typeof view;
  assert.equal(done.state, 'accepted');
  assert.equal(done.error, undefined);
  assert.deepEqual(done.content, content);
  assert.equal(elicitations.answer(view.requestKey, 'decline'), false, 'answered once');
});

test('a pattern the host cannot check: the answer is accepted all the same, and the log says which field went unchecked and why', async () => {
  const transcript = new Transcript();
  const warnings: string[] = [];
  const elicitations = new Elicitations(transcript, 'Fake', { ...silent, warn: (m: string) => warnings.push(m) });
  const requestedSchema = {
    type: 'object',
    properties: { pair: { type: 'string', title: 'Pair', pattern: '^(.)\\1$' }, code: { type: 'string', pattern: '^(a+)+$' } },
    required: ['pair', 'code'],
  };
  const answered = elicitations.create(parse({ ...REQUEST, requestedSchema }));
  const [key] = transcript.questions.waitingForms;
  assert.equal(elicitations.answer(key, 'accept', { pair: 'xy', code: `${'a'.repeat(2_000)}b` }), false, 'the catastrophic pattern is checked, and refuses');
  assert.equal(elicitations.answer(key, 'accept', { pair: 'xy', code: 'aaa' }), true);
  assert.deepEqual(await answered, { action: 'accept', content: { pair: 'xy', code: 'aaa' } });
  assert.deepEqual(warnings.filter((w) => w.includes('without checking')), [`Elicitation ${key}: the answer to "Pair" was sent without checking its pattern (a backreference).`]);
});

test('decline and cancel answer at once; cancelling what waits answers every open form cancel', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  const first = elicitations.create(parse(REQUEST));
  const second = elicitations.create(parse(REQUEST));
  const third = elicitations.create(parse(REQUEST));
  const [k1] = transcript.questions.waitingForms;
  elicitations.answer(k1, 'decline');
  assert.deepEqual(await first, { action: 'decline' });
  transcript.questions.cancelWaiting();
  assert.deepEqual(await Promise.all([second, third]), [{ action: 'cancel' }, { action: 'cancel' }] satisfies CreateElicitationResponse[]);
  assert.deepEqual(transcript.entries.map((e) => (e.kind === 'elicitation' ? e.state : e.kind)), ['declined', 'cancelled', 'cancelled']);

  const unknown = await elicitations.create(parse({ ...REQUEST, requestedSchema: { type: 'object', properties: { f: { type: 'file' } }, required: ['f'] } }));
  assert.deepEqual(unknown, { action: 'decline' });
  assert.equal(transcript.entries.at(-1)?.kind, 'error', 'a form that cannot be shown says so');
  transcript.clear();
  assert.equal(elicitations.answer('elicitation-99', 'accept', {}), false);
});

test('a form the agent withdraws ($/cancel_request) shows withdrawn and takes no answer; the other forms wait on', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  const withdrawnByAgent = new AbortController();
  const first = elicitations.create(parse(REQUEST), withdrawnByAgent.signal);
  const second = elicitations.create(parse(REQUEST), new AbortController().signal);
  const [k1, k2] = transcript.questions.waitingForms;
  withdrawnByAgent.abort();
  assert.deepEqual(await first, { action: 'cancel' });
  assert.deepEqual(transcript.entries.map((e) => (e.kind === 'elicitation' ? e.state : e.kind)), ['withdrawn', 'pending']);
  for (const entry of transcript.entries) EntryViewSchema.parse(entry);
  assert.equal(elicitations.answer(k1, 'decline'), false);
  assert.deepEqual(transcript.questions.waitingForms, [k2]);
  assert.equal(elicitations.answer(k2, 'decline'), true);
  assert.deepEqual(await second, { action: 'decline' });
  // Cancelled before it was shown (the agent was quick): it is shown withdrawn at once.
  assert.deepEqual(await elicitations.create(parse(REQUEST), AbortSignal.abort()), { action: 'cancel' });
  const last = transcript.entries.at(-1);
  assert.equal(last?.kind === 'elicitation' && last.state, 'withdrawn');
});

test('form mode is advertised only when the panel shows forms (URL mode with it: urlElicitation.test.ts)', () => {
  const ports = { readTextFile: async () => '', log: silent, onTrace: () => undefined };
  assert.equal(clientCapabilities(ports).elicitation, undefined);
  assert.deepEqual(clientCapabilities({ ...ports, forms: true }).elicitation?.form, {});
});

// ---------------------------------------------------------------- through the controller, with a fake agent


const pendingForm = (c: AgentSession) => c.transcript.entries.find((e) => e.kind === 'elicitation' && e.state === 'pending') as Extract<ReturnType<typeof c.transcript.entries.at>, { kind: 'elicitation' }> | undefined;

test('controller: a form during a turn; an invalid answer is refused, a valid one reaches the agent typed', async () => {
  const c = controller();
  try {
    await c.start();
    const turn = c.prompt('form');
    const form = await until(() => pendingForm(c));
    assert.equal(form.fields.length, 7);
    assert.equal(c.answerElicitation(form.requestKey, 'accept', { name: 'BAD', engine: 'pg', port: 5432, extensions: ['gis'] }), false);
    assert.match(pendingForm(c)?.error ?? '', /Database name: Must match/);
    const content = { name: 'shop', engine: 'sqlite', port: 6543, ratio: 0.25, ssl: true, extensions: ['gis', 'vec'] };
    assert.equal(c.answerElicitation(form.requestKey, 'accept', content), true);
    await turn;
    assert.equal(lastAgentText(c), `answer: ${JSON.stringify({ action: 'accept', content })}`);
  } finally {
    await c.stop();
  }
});

test('controller: cancelling the turn answers a pending form `cancel`; without forms nothing is advertised', async () => {
  const c = controller();
  try {
    await c.start();
    const turn = c.prompt('tool form');
    const form = await until(() => pendingForm(c));
    assert.equal(form.toolCallId, 'setup-1');
    await c.cancel();
    await turn;
    assert.equal((c.transcript.entries.find((e) => e.kind === 'elicitation') as typeof form).state, 'cancelled');
    await c.prompt('__report__');
    const received = JSON.parse(lastAgentText(c) ?? '[]') as { id?: unknown; result?: unknown; method?: string }[];
    assert.ok(received.some((m) => m.method === 'session/cancel'));
    assert.ok(received.some((m) => m.method === undefined && JSON.stringify(m.result) === '{"action":"cancel"}'), 'the form was answered cancel');
  } finally {
    await c.stop();
  }
  const plain = controller(false);
  try {
    await plain.start();
    await plain.prompt('form');
    assert.equal(lastAgentText(plain), 'no form mode');
    await plain.prompt('url');
    assert.equal(lastAgentText(plain), 'no url mode');
  } finally {
    await plain.stop();
  }
});

test('controller: a question relayed as a permission request shows its option names and answers the chosen id', async () => {
  const c = controller();
  try {
    await c.start();
    const turn = c.prompt('question');
    const tool = await until(() => c.transcript.entries.find((e) => e.kind === 'tool' && e.permission) as Extract<ReturnType<typeof c.transcript.entries.at>, { kind: 'tool' }> | undefined);
    assert.equal(tool.title, 'Which database should I use?');
    assert.deepEqual(tool.permission?.map((o) => [o.name, o.kind]), [['Use PostgreSQL', 'allow_once'], ['Use SQLite', 'reject_once']]);
    c.choosePermission(tool.toolCallId, 'use-sqlite');
    await turn;
    assert.equal(lastAgentText(c), 'chose: {"outcome":"selected","optionId":"use-sqlite"}');
  } finally {
    await c.stop();
  }
});

test('a property named __proto__ is not offered (a required one declines the form)', () => {
  const schema = { type: 'object' as const, properties: JSON.parse('{"__proto__": {"type": "string"}, "ok": {"type": "boolean"}}') as Record<string, { type: 'string' }>, required: ['__proto__'] };
  const { fields, unsupported } = formFields(schema);
  assert.deepEqual(fields.map((f) => f.name), ['ok']);
  assert.deepEqual(unsupported, [{ name: '__proto__', required: true }]);
});
