// The panel's message schemas (webview-protocol, on zod/mini so the webview bundle stays small)
// against a corpus of messages both ways: what they accept, what they return for it (unknown keys
// stripped, defaults filled in), and what they refuse, hostile shapes included. Both sides parse
// with these schemas, so a verdict changed here changes what crosses the webview boundary.
import test from 'node:test';
import assert from 'node:assert/strict';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { HostToViewSchema, ViewToHostSchema } from '../../src/webview-protocol/messages';
import { EMPTY_SESSION, SessionViewSchema } from '../../src/webview-protocol/session';
import { checkContent, fieldProblem } from '../../src/webview-protocol/elicitation';
import type { ElicitationFieldView } from '../../src/webview-protocol/elicitation';

type Schema = { safeParse(data: unknown): { success: true; data: unknown } | { success: false } };

/** `out`: what the schema returns when it differs from the input. */
function accepts(schema: Schema, cases: { input: unknown; out?: unknown }[]): void {
  for (const { input, out } of cases) {
    const parsed = schema.safeParse(input);
    assert.ok(parsed.success, `accepted: ${JSON.stringify(input)}`);
    assert.deepEqual(parsed.data, out ?? input);
  }
}

function refuses(schema: Schema, inputs: unknown[]): void {
  for (const input of inputs) assert.equal(schema.safeParse(input).success, false, `refused: ${JSON.stringify(input)}`);
}

const STATUS = { agentName: 'Demo', phase: 'ready' };
const TOOL = { kind: 'tool', toolCallId: 't1', title: 'Edit a.ts', toolKind: 'edit', status: 'completed', content: [], locations: [] };
const URL_ASK = { kind: 'urlElicitation', requestKey: 'k', agentName: 'A', message: 'Sign in', toolCallId: null, url: 'https://example.com/login', host: 'example.com', warnings: [], state: 'pending' };
const DIFF = { type: 'diff', path: '/w/a.ts', isNewFile: false, added: 1, removed: 0, preview: ['+x'], previewTruncated: false };
/** What JSON.parse (postMessage's structured clone keeps it) makes of a `__proto__` key: an own property. */
const PROTO = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;

test('entries: every kind the host makes is accepted as is, unknown keys are dropped', () => {
  accepts(EntryViewSchema, [
    { input: { kind: 'user', text: '<script>alert(1)</script>', attachments: [{ kind: 'image', label: 'shot.png' }] } },
    { input: { kind: 'agent', text: '[x](javascript:alert(1))' } },
    { input: { kind: 'thought', text: '' } },
    { input: { ...TOOL, content: [{ type: 'text', text: 'ok' }, DIFF, { type: 'terminal', terminalId: 'term', output: '$ ls', truncated: true, exitStatus: { exitCode: null, signal: 'SIGTERM' } }], locations: [{ path: '/w/a.ts', line: null }], permission: [{ optionId: 'o', name: 'Allow', kind: 'allow_once' }], permissionAnswer: { outcome: 'selected', name: 'Allow', kind: 'allow_once' } } },
    { input: { kind: 'plan', entries: [{ content: 'step', priority: 'high', status: 'pending' }] } },
    { input: { kind: 'planById', planId: 'p', content: null } },
    { input: { kind: 'planById', planId: 'p', content: { type: 'file', uri: 'file:///w/PLAN.md' } } },
    { input: { kind: 'turnEnd', stopReason: 'failed', error: { message: 'boom', code: -32603 }, usage: { tokens: { total: 3, input: 1, output: 2, thought: null, cachedRead: 0, cachedWrite: null }, cost: { amount: 0.01, currency: 'USD' }, quota: [{ label: 'used', value: 3 }] } } },
    { input: { kind: 'notice', severity: 'warning', title: 'T', description: null } },
    { input: { kind: 'compaction', compactionId: 'c', status: 'done', summary: 's', error: null } },
    { input: { kind: 'elicitation', requestKey: 'k', agentName: 'A', message: 'm', title: null, toolCallId: null, fields: [{ name: 'n', title: 'N', description: null, type: 'integer', required: true, minimum: 0, default: 3 }], state: 'accepted', content: { n: 3, tags: ['a'] } } },
    { input: URL_ASK },
    { input: { kind: 'note', message: 'Signed out' } },
    { input: { kind: 'agent', text: 'hi', onclick: 'alert(1)', html: '<img src=x onerror=alert(1)>' }, out: { kind: 'agent', text: 'hi' } },
    { input: { ...TOOL, ...PROTO }, out: TOOL },
  ]);
});

test('entries: wrong kinds, types, numbers and URLs are refused', () => {
  refuses(EntryViewSchema, [
    null,
    'agent',
    [],
    {},
    { kind: 'html', html: '<script>alert(1)</script>' },
    { kind: 'toString', text: 'x' },
    { kind: '__proto__', text: 'x' },
    { kind: 'agent', text: 42 },
    { kind: 'user', text: 'x', attachments: [{ kind: 'script', label: 'x' }] },
    { ...TOOL, status: 'running' },
    { ...TOOL, locations: [{ path: '/w/a.ts', line: 1.5 }] },
    { ...TOOL, locations: [{ path: '/w/a.ts', line: Number.NaN }] },
    { ...TOOL, content: [{ ...DIFF, added: -1 }] },
    { ...TOOL, content: [{ ...DIFF, removed: Infinity }] },
    { ...TOOL, content: [{ ...DIFF, added: 2 ** 53 }] },
    { ...TOOL, content: [{ type: 'iframe', src: 'https://evil' }] },
    { ...TOOL, permission: [{ optionId: 'o', name: 'Allow', kind: 'allow_forever' }] },
    { ...TOOL, permissionAnswer: { outcome: 'selected', name: 'Allow' } },
    { kind: 'turnEnd', stopReason: 'done' },
    { kind: 'turnEnd', stopReason: 'end_turn', usage: { tokens: null, cost: null, quota: Array.from({ length: 17 }, () => ({ label: 'l', value: 1 })) } },
    { kind: 'turnEnd', stopReason: 'end_turn', usage: { tokens: null, cost: null, quota: [{ label: 'l'.repeat(101), value: 1 }] } },
    { kind: 'planById', planId: 'p', content: { type: 'html', text: '<b>' } },
    { kind: 'notice', severity: 'fatal', title: 'T', description: null },
    { ...URL_ASK, url: 'javascript:alert(1)' },
    { ...URL_ASK, url: 'data:text/html,<script>alert(1)</script>' },
    { ...URL_ASK, url: 'https://example.com/a b' },
    { ...URL_ASK, url: `https://example.com/${'a'.repeat(8192)}` },
    { ...URL_ASK, host: '' },
    { ...URL_ASK, warnings: ['phishing'] },
    { ...URL_ASK, state: 'open' },
  ]);
});

test('sessions: older snapshots get their defaults, bad shapes are refused', () => {
  const { reviewNote, attachments, attachmentNotice, canFork, forkOf, plan, ...older } = EMPTY_SESSION;
  assert.deepEqual([reviewNote, attachments, attachmentNotice, canFork, forkOf, plan], [null, [], null, false, null, null]);
  accepts(SessionViewSchema, [
    { input: EMPTY_SESSION },
    { input: older, out: EMPTY_SESSION },
    { input: { ...EMPTY_SESSION, usage: { used: 10, size: 100, cost: null } }, out: { ...EMPTY_SESSION, usage: { used: 10, size: 100, cost: null, quota: null } } },
    { input: { ...EMPTY_SESSION, configOptions: [{ type: 'boolean', id: 'b', name: 'B', description: null, category: null, currentValue: true }], queue: [{ id: -1, text: 'later' }] } },
  ]);
  refuses(SessionViewSchema, [
    { ...EMPTY_SESSION, follow: 'yes' },
    { ...EMPTY_SESSION, usage: { used: -1, size: 100, cost: null } },
    { ...EMPTY_SESSION, queue: [{ id: 1.5, text: 'x' }] },
    { ...EMPTY_SESSION, review: [{ path: 'a', change: 'renamed', added: 0, removed: 0 }] },
    { ...EMPTY_SESSION, configOptions: [{ type: 'slider', id: 'b', name: 'B', description: null, category: null, currentValue: 1 }] },
    { ...EMPTY_SESSION, attachments: [{ id: 'a', kind: 'file', label: 'a' }] },
    { ...EMPTY_SESSION, forkOf: { title: 7, note: null } },
    { ...EMPTY_SESSION, plan: { type: 'items', entries: [{ content: 'x', priority: 'urgent', status: 'pending' }] } },
    { ...EMPTY_SESSION, plan: { type: 'script', text: 'x' } },
  ]);
});

test('host to view: each message and batches of them; a bad one anywhere refuses the post', () => {
  const snapshot = { type: 'snapshot', seq: 0, status: STATUS, session: EMPTY_SESSION, entries: [{ kind: 'agent', text: 'hi' }] };
  accepts(HostToViewSchema, [
    { input: snapshot },
    { input: { type: 'entry', index: 0, entry: { kind: 'note', message: 'x' } } },
    { input: { type: 'append', index: 3, text: ' more' } },
    { input: { type: 'status', status: { ...STATUS, phase: 'auth', authMethods: [{ id: 'k', name: 'Key', description: null, type: 'env_var' }], sessions: [{ key: 's1', label: 'L', agentName: 'Demo', phase: 'idle', attention: 'waiting' }], sessionKey: 's1' } } },
    { input: { type: 'batch', seq: 4, messages: [{ type: 'append', index: 0, text: 'a' }, { type: 'session', session: EMPTY_SESSION }] } },
  ]);
  refuses(HostToViewSchema, [
    { type: 'eval', code: 'alert(1)' },
    { ...snapshot, seq: -1 },
    { ...snapshot, entries: [{ kind: 'agent' }] },
    { type: 'append', index: 0.5, text: 'x' },
    { type: 'status', status: { ...STATUS, phase: 'hacked' } },
    { type: 'status', status: { ...STATUS, sessions: [{ key: 'k'.repeat(201), label: 'L', agentName: 'Demo', phase: 'idle' }] } },
    { type: 'status', status: { ...STATUS, sessions: [{ key: 's1', label: 'L', agentName: 'Demo', phase: 'idle', attention: 'urgent' }] } },
    { type: 'batch', messages: [{ type: 'append', index: 0, text: 'a' }, { type: 'append', index: -1, text: 'b' }] },
    { type: 'batch', messages: [{ type: 'batch', messages: [] }] },
  ]);
});

test('view to host: intents within their bounds; hostile or out-of-bounds ones are refused', () => {
  const image = { type: 'attachImage', mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png' };
  accepts(ViewToHostSchema, [
    { input: { type: 'ready' } },
    { input: { type: 'rendered', seq: 7 } },
    { input: { type: 'prompt', text: 'x'.repeat(1_000_000) } },
    { input: { type: 'elicitation', requestKey: 'k', action: 'accept', content: { n: 1, ok: true, tags: ['a'], s: 's' } } },
    { input: { type: 'setConfigOption', configId: 'c', value: false } },
    { input: { type: 'openLocation', path: '/w/a.ts', line: null } },
    { input: { type: 'closeSession' } },
    { input: image },
    { input: { type: 'prompt', text: 'hi', ...PROTO }, out: { type: 'prompt', text: 'hi' } },
  ]);
  refuses(ViewToHostSchema, [
    { type: 'prompt', text: '' },
    { type: 'prompt', text: 'x'.repeat(1_000_001) },
    { type: 'rendered', seq: -1 },
    { type: 'unqueue', id: 1.5 },
    { type: 'elicitation', requestKey: 'k', action: 'accept', content: { n: { nested: true } } },
    { type: 'elicitation', requestKey: 'k', action: 'submit' },
    { type: 'setConfigOption', configId: 'c', value: 1 },
    { type: 'openDiff', index: 0, contentIndex: -1 },
    { type: 'openLink', href: `https://x/${'a'.repeat(8192)}` },
    { type: 'switchSession', key: 'k'.repeat(201) },
    { type: 'chooseAgent', name: '' },
    { type: 'detach', id: 'i'.repeat(101) },
    { ...image, mimeType: 'image/svg+xml' },
    { ...image, data: '<svg onload=alert(1)>' },
    { ...image, name: '' },
    { type: 'attachRefused', name: 'a', reason: 'virus' },
    { type: 'runCommand', command: 'rm -rf /' },
    { type: 'constructor' },
  ]);
});

test('form fields: the messages the panel shows, and the whole answer checked again', () => {
  const field = (over: Partial<ElicitationFieldView>): ElicitationFieldView => ({ name: 'f', title: 'F', description: null, type: 'string', required: true, ...over });
  const tags = field({ name: 'tags', type: 'multiselect', choices: [{ value: 'a', title: 'A' }, { value: 'b', title: 'B' }], minItems: 1, maxItems: 1 });
  const verdicts: [ElicitationFieldView, unknown, string | undefined][] = [
    [field({ minLength: 1 }), '', 'At least 1 character'],
    [field({ format: 'email' }), 'a@b.co', undefined],
    [field({ format: 'uri' }), 'javascript', 'Enter a URI (e.g. https://example.com)'],
    [field({ format: 'date-time' }), '2024-13-01T00:00Z', 'Enter a date and time'],
    [field({}), 7, 'Enter text'],
    [field({ type: 'number', maximum: 1 }), Number.NaN, 'Enter a number'],
    [field({ type: 'number', maximum: 1 }), Infinity, 'Enter a number'],
    [field({ type: 'number', maximum: 1 }), 2, 'At most 1'],
    [field({ type: 'integer' }), 0.5, 'Enter a whole number'],
    [field({ type: 'boolean' }), 'true', 'Must be true or false'],
    [field({ type: 'choice', choices: [{ value: 'a', title: 'A' }] }), 'toString', 'Choose one of the options'],
    [tags, 'a', 'Choose options'],
    [tags, ['c'], 'Not one of the options'],
    [tags, ['a', 'b'], 'Choose at most 1'],
    [tags, ['a'], undefined],
  ];
  for (const [f, value, problem] of verdicts) assert.equal(fieldProblem(f, value as never), problem, `${f.type} ${JSON.stringify(value)}`);
  assert.deepEqual(checkContent([tags], { tags: ['a'], ...PROTO }), { ok: false, problems: { '': 'Not a field of this form: __proto__' } });
  assert.deepEqual(checkContent([field({ required: false })], {}), { ok: true, content: {} });
});
