// A tool call's raw input and output on its card: masked, pretty-printed, clipped, patched only
// when present; and its programmatic name.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import { RAW_JSON_MAX, RAW_MASK, rawJson } from '../../src/session/rawJson';
import { Transcript } from '../../src/session/transcript';
import { entriesView } from '../../src/view/projection';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { fitEntry } from '../../src/host/sessions/savedTranscript';

function fold(updates: unknown[]): Transcript {
  const t = new Transcript();
  for (const u of updates) t.apply(SessionUpdateSchema.parse(u));
  return t;
}

function card(t: Transcript, index = 0) {
  const entry = t.entries[index];
  return entry?.kind === 'tool' ? entry : assert.fail(`entry ${index} is ${entry?.kind}`);
}

test('secret-looking keys are masked at any depth, in objects and in arrays; the rest is pretty-printed JSON', () => {
  const input = {
    command: 'curl https://api.example.com',
    password: 'hunter2',
    apiKey: 'sk-live-123',
    'api-key': 'k',
    nested: { deeper: { clientSecret: 's', Authorization: 'Bearer x', auth: { user: 'u' }, ok: 'visible' } },
    list: [{ token: 't1' }, { sessionId: 'sess-9', session_id: 'x', cookie: 'c=1' }, 'plain'],
    credentials: ['a', 'b'],
    private_key: '-----BEGIN',
    env: { HOME: '/home/u', OPENAI_API_KEY: 'sk-env' },
    maxTokens: 4096,
  };
  const text = rawJson(input);
  const parsed = JSON.parse(text) as typeof input;
  assert.equal(text, JSON.stringify(parsed, null, 2), 'pretty-printed, two spaces');
  assert.equal(parsed.command, input.command);
  for (const value of [parsed.password, parsed.apiKey, parsed['api-key'], parsed.nested.deeper.clientSecret, parsed.nested.deeper.Authorization, parsed.nested.deeper.auth, parsed.list[0], parsed.private_key, parsed.credentials]) {
    assert.ok(value === RAW_MASK || (typeof value === 'object' && JSON.stringify(value).includes(RAW_MASK)), JSON.stringify(value));
  }
  assert.deepEqual(parsed.list[0], { token: RAW_MASK });
  assert.deepEqual(parsed.list[1], { sessionId: RAW_MASK, session_id: RAW_MASK, cookie: RAW_MASK });
  assert.equal(parsed.list[2], 'plain');
  assert.deepEqual(parsed.env, { HOME: RAW_MASK, OPENAI_API_KEY: RAW_MASK }, 'everything under env, names kept');
  assert.equal(parsed.nested.deeper.ok, 'visible');
  assert.equal(parsed.maxTokens, 4096, 'a number under a secret-looking key is a count, not a secret');
  for (const secret of ['hunter2', 'sk-live-123', 'Bearer x', 't1', 'sess-9', 'c=1', '-----BEGIN', 'sk-env']) assert.ok(!text.includes(secret), secret);
  assert.equal(input.password, 'hunter2', 'the agent’s value itself is not changed');
});

test('any JSON value is shown: strings, numbers, arrays, null inside', () => {
  assert.equal(rawJson('just text'), '"just text"');
  assert.equal(rawJson(42), '42');
  assert.equal(rawJson([1, null, { a: true }]), '[\n  1,\n  null,\n  {\n    "a": true\n  }\n]');
});

test('a huge raw value is clipped at RAW_JSON_MAX characters, and says so', () => {
  const huge = { output: 'x'.repeat(1_000_000) };
  const text = rawJson(huge);
  assert.ok(text.length < RAW_JSON_MAX + 100, `${text.length} characters`);
  assert.ok(text.startsWith('{\n  "output": "xxx'));
  const full = JSON.stringify(huge, null, 2).length;
  assert.match(text, new RegExp(`clipped: ${full - RAW_JSON_MAX} of ${full} chars not shown`));
  const small = rawJson({ output: 'x'.repeat(100) });
  assert.doesNotMatch(small, /clipped/);
});

test('a tool call update patches only the raw fields present; null leaves them; name shows when sent', () => {
  const t = fold([
    { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run the tests', name: 'bash', kind: 'execute', rawInput: { command: 'npm test', token: 'abc' } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'in_progress' },
  ]);
  assert.equal(card(t).name, 'bash');
  assert.equal(card(t).rawInput, rawJson({ command: 'npm test', token: 'abc' }));
  assert.match(card(t).rawInput ?? '', /"token": "••••"/);
  assert.equal(card(t).rawOutput, undefined);

  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed', rawOutput: { exitCode: 0, stdout: 'ok' }, name: null, rawInput: null }));
  assert.equal(card(t).rawInput, rawJson({ command: 'npm test', token: 'abc' }), 'null leaves the input');
  assert.equal(card(t).name, 'bash', 'null leaves the name');
  assert.equal(card(t).rawOutput, rawJson({ exitCode: 0, stdout: 'ok' }));
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'a', name: 'sh', rawInput: 'npm test -- --watch' }));
  assert.equal(card(t).name, 'sh');
  assert.equal(card(t).rawInput, '"npm test -- --watch"');
  assert.equal(card(t).title, 'Run the tests', 'the title stays');

  const without = fold([{ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B' }]);
  assert.deepEqual(Object.keys(card(without)).filter((k) => ['name', 'rawInput', 'rawOutput'].includes(k)), [], 'nothing sent, nothing shown');
});

test('the panel gets the raw fields and the name as the view model, and they are saved bounded', () => {
  const t = fold([
    { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Fetch', name: 'web_fetch', rawInput: { url: 'https://example.com' }, rawOutput: { body: 'y'.repeat(500_000) } },
  ]);
  const [view] = entriesView(t.entries);
  assert.deepEqual(EntryViewSchema.parse(view), view);
  assert.ok(view.kind === 'tool' && view.rawOutput !== undefined && view.rawOutput.length < RAW_JSON_MAX + 100, 'what is posted is bounded');
  const saved = fitEntry(view);
  assert.deepEqual(saved.entry, view, 'saved as it is: already within the saved entry’s budget');
});
