import assert from 'node:assert/strict';
import test from 'node:test';
import {
  agentMethods,
  clientMethods,
  ContentBlockOrUnknownSchema,
  CreateElicitationRequestSchema,
  CreateTerminalRequestSchema,
  InitializeResponseSchema,
  NewSessionRequestSchema,
  NewSessionResponseSchema,
  ReadTextFileRequestSchema,
  RequestPermissionRequestSchema,
  SessionNotificationSchema,
  SessionUpdateSchema,
  type RequestMethod,
  type SessionUpdate,
} from '../../src/protocol';
import { assertSpecValid } from './helpers/officialSchema';

// How we read what agents send: the spec and real agents need us to be lenient in the ways
// tested here, and strict everywhere else (see protocol.strict.test.ts).

const sessionId = 'sess_1';

function update(raw: Record<string, unknown>): SessionUpdate {
  return SessionNotificationSchema.parse({ sessionId, update: raw }).update;
}

test('an unknown session/update kind parses to the unknown variant, whatever its payload', () => {
  for (const kind of ['subagent_update', 'session_message', '_zed.dev/foo']) {
    const parsed = update({ sessionUpdate: kind, severity: 'info', title: 42, entries: 'nope' });
    assert.deepEqual(parsed, { sessionUpdate: 'unknown', kind });
  }
});

test('a known session/update kind with a bad payload is a validation error', () => {
  const bad = [
    { sessionUpdate: 'agent_message_chunk' },
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } },
    { sessionUpdate: 'tool_call', toolCallId: 'c1' },
    { sessionUpdate: 'tool_call_update' },
    { sessionUpdate: 'plan' },
    { sessionUpdate: 'usage_update', used: 'lots', size: 10 },
    { sessionUpdate: 'current_mode_update' },
    { sessionUpdate: 'available_commands_update' },
    { sessionUpdate: 'notice', severity: 'info', title: '' },
    { sessionUpdate: 'notice', title: 'no severity' },
    { sessionUpdate: 'compaction_update', compactionId: 'c1' },
    { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1' },
    { sessionUpdate: 'plan_update', plan: { type: 'items', entries: [] } },
    { sessionUpdate: 'plan_update', plan: { type: 'gantt', planId: 'p1' } },
    { sessionUpdate: 'plan_removed' },
  ];
  for (const raw of bad) {
    assert.equal(SessionNotificationSchema.safeParse({ sessionId, update: raw }).success, false, JSON.stringify(raw));
  }
});

test('a session/update without a string kind is a validation error, not an unknown kind', () => {
  assert.equal(SessionUpdateSchema.safeParse({ content: { type: 'text', text: 'hi' } }).success, false);
  assert.equal(SessionUpdateSchema.safeParse({ sessionUpdate: 7 }).success, false);
});

test('current_mode_update reads modeId (docs) as currentModeId (schema); currentModeId wins', () => {
  const fromDocs = update({ sessionUpdate: 'current_mode_update', modeId: 'code' });
  assert.deepEqual(fromDocs, { sessionUpdate: 'current_mode_update', currentModeId: 'code' });
  assert.ok(fromDocs.sessionUpdate === 'current_mode_update');
  const typedAsPresent: string = fromDocs.currentModeId;
  assert.equal(typedAsPresent, 'code');
  assertSpecValid('SessionUpdate', fromDocs);
  const both = update({ sessionUpdate: 'current_mode_update', currentModeId: 'ask', modeId: 'code' });
  assert.deepEqual(both, { sessionUpdate: 'current_mode_update', currentModeId: 'ask' });
});

test('an unknown content block type in a chunk keeps the notification and reads as an unknown block', () => {
  const parsed = update({ sessionUpdate: 'agent_message_chunk', content: { type: 'video', url: 'x' }, messageId: 'm1' });
  assert.deepEqual(parsed, {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'unknown', kind: 'video' },
    messageId: 'm1',
  });
  assert.equal(ContentBlockOrUnknownSchema.safeParse({ type: 'image', data: 'x' }).success, false);
});

test('bare content blocks in tool call content are wrapped as {type: "content"}', () => {
  const bare = { type: 'text', text: 'Switch to code mode?' };
  const permission = RequestPermissionRequestSchema.parse({
    sessionId,
    toolCall: { toolCallId: 'c1', content: [bare] },
    options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
  });
  assert.deepEqual(permission.toolCall.content, [{ type: 'content', content: bare }]);
  assertSpecValid('RequestPermissionRequest', permission);

  const call = update({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Read', content: [bare] });
  assert.ok(call.sessionUpdate === 'tool_call');
  assert.deepEqual(call.content, [{ type: 'content', content: bare }]);
});

test('invalid tool call content and locations are dropped, the valid ones kept', () => {
  const diff = { type: 'diff', path: '/p/a.ts', newText: 'x' };
  const parsed = update({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'c1',
    content: [{ type: 'hologram', id: 1 }, diff, { type: 'diff', path: '/p/b.ts' }, { type: 'terminal', terminalId: 't1' }],
    locations: [{ path: '/p/a.ts', line: 3 }, { line: 4 }, 'nope'],
  });
  assert.ok(parsed.sessionUpdate === 'tool_call_update');
  assert.deepEqual(parsed.content, [diff, { type: 'terminal', terminalId: 't1' }]);
  assert.deepEqual(parsed.locations, [{ path: '/p/a.ts', line: 3 }]);
});

test('an unknown tool kind or status, or a wrongly typed optional field, reads as absent', () => {
  const call = update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'teleport', status: 'cancelled', content: 'x' });
  assert.ok(call.sessionUpdate === 'tool_call');
  assert.equal(call.kind, undefined);
  assert.equal(call.status, undefined);
  assert.equal(call.content, undefined);
  assertSpecValid('SessionUpdate', call);

  const patch = update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 42, kind: 'teleport', status: 'done' });
  assert.deepEqual(JSON.parse(JSON.stringify(patch)), { sessionUpdate: 'tool_call_update', toolCallId: 'c1' });
});

test('invalid items of lists are dropped: plan entries, commands, config options, sessions, auth methods', () => {
  const plan = update({
    sessionUpdate: 'plan',
    entries: [
      { content: 'a', priority: 'high', status: 'pending' },
      { content: 'b', priority: 'urgent', status: 'pending' },
      { content: 'c', priority: 'low', status: 'blocked' },
    ],
  });
  assert.ok(plan.sessionUpdate === 'plan');
  assert.deepEqual(plan.entries.map((e) => e.content), ['a']);

  const commands = update({
    sessionUpdate: 'available_commands_update',
    availableCommands: [{ name: 'review', description: 'Review' }, { name: 'nodesc' }],
  });
  assert.ok(commands.sessionUpdate === 'available_commands_update');
  assert.deepEqual(commands.availableCommands, [{ name: 'review', description: 'Review' }]);

  const session = NewSessionResponseSchema.parse({
    sessionId,
    configOptions: [
      { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      { id: 'temp', name: 'Temperature', type: 'slider', currentValue: 0.5 },
    ],
  });
  assert.deepEqual(session.configOptions?.map((o) => o.id), ['model']);

  const init = InitializeResponseSchema.parse({
    protocolVersion: 1,
    authMethods: [
      { id: 'login', name: 'Log in' },
      { type: 'env_var', id: 'key', name: 'API key', varName: 'API_KEY' },
      { type: 'terminal', id: 'cli', name: 'Terminal' },
      { id: 'no-name' },
    ],
  });
  // `env_var` is a client-side extension (not in the v1 schema) and is kept; a method without a name is dropped.
  assert.deepEqual(init.authMethods?.map((m) => m.id), ['login', 'key', 'cli']);
  assert.deepEqual(init.authMethods?.[1], { type: 'env_var', id: 'key', name: 'API key', vars: [{ name: 'API_KEY' }] });
  const other = InitializeResponseSchema.parse({
    protocolVersion: 1,
    authMethods: [
      { type: 'env_var', id: 'multi', name: 'Azure', vars: [{ name: 'AZURE_KEY', label: 'Key' }, { name: 'bad name' }, { name: 'AZURE_URL', optional: true }] },
      { type: 'env_var', id: 'none', name: 'No variable' },
      { type: 'env_var', id: 'evil', name: 'Evil', varName: 'A=B' },
      { type: 'oauth', id: 'browser', name: 'Browser' },
    ],
  });
  assert.deepEqual(other.authMethods, [
    { type: 'env_var', id: 'multi', name: 'Azure', vars: [{ name: 'AZURE_KEY', label: 'Key' }, { name: 'AZURE_URL', optional: true }] },
  ]);
});

test('invalid capabilities read as unsupported instead of failing initialize', () => {
  const init = InitializeResponseSchema.parse({
    protocolVersion: 1,
    agentCapabilities: { loadSession: 'yes', promptCapabilities: { image: true, audio: 'no' }, sessionCapabilities: { list: true, close: {} } },
    agentInfo: { name: 'agent' },
  });
  assert.equal(init.agentCapabilities?.loadSession, undefined);
  assert.equal(init.agentCapabilities?.promptCapabilities?.image, true);
  assert.equal(init.agentCapabilities?.promptCapabilities?.audio, undefined);
  assert.equal(init.agentCapabilities?.sessionCapabilities?.list, undefined);
  assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.close, {});
  assert.equal(init.agentInfo, undefined);
  assert.equal(InitializeResponseSchema.parse({ protocolVersion: 1, agentCapabilities: 'all' }).agentCapabilities, undefined);
});

test('every result and params made only of optional fields reads null (and a missing value) as {}', () => {
  const requests = [...Object.values(agentMethods), ...Object.values(clientMethods)].filter(
    (m): m is typeof m & RequestMethod => m.kind === 'request',
  );
  const optionalOnly = requests.flatMap((m) => [
    { label: `${m.method} params`, schema: m.params },
    { label: `${m.method} result`, schema: m.result },
  ]).filter(({ schema }) => schema.safeParse({}).success);
  assert.deepEqual(optionalOnly.map((e) => e.label).sort(), [
    'authenticate result',
    'fs/write_text_file result',
    'logout params',
    'logout result',
    'session/close result',
    'session/delete result',
    'session/list params',
    'session/load result',
    'session/resume result',
    // Agents answer null or {} for "applied, nothing else changed".
    'session/set_config_option result',
    'session/set_mode result',
    'terminal/kill result',
    'terminal/release result',
    'terminal/wait_for_exit result',
  ]);
  for (const { label, schema } of optionalOnly) {
    assert.deepEqual(schema.parse(null), {}, label);
    assert.deepEqual(schema.parse(undefined), {}, label);
  }
});

test('unknown fields are stripped at every level, _meta is kept', () => {
  const parsed = SessionNotificationSchema.parse({
    sessionId,
    vendorField: 1,
    _meta: { 'zed.dev/trace': 'abc' },
    update: {
      sessionUpdate: 'agent_message_chunk',
      extra: true,
      content: { type: 'text', text: 'hi', color: 'red', _meta: { k: 1 } },
    },
  });
  assert.deepEqual(parsed, {
    sessionId,
    _meta: { 'zed.dev/trace': 'abc' },
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', _meta: { k: 1 } } },
  });
  const badMeta = SessionNotificationSchema.parse({ sessionId, _meta: 'x', update: { sessionUpdate: 'plan', entries: [] } });
  assert.equal(badMeta._meta, undefined);
});

test('an explicit null reads as [] where the schema marks default-on-null', () => {
  const newSession = NewSessionRequestSchema.parse({
    cwd: '/p',
    mcpServers: null,
  });
  assert.deepEqual(newSession.mcpServers, []);
  const withStdio = NewSessionRequestSchema.parse({ cwd: '/p', mcpServers: [{ name: 'fs', command: '/bin/fs', args: null, env: null }] });
  assert.deepEqual(withStdio.mcpServers, [{ name: 'fs', command: '/bin/fs', args: [], env: [] }]);
  assertSpecValid('NewSessionRequest', withStdio);
  const terminal = CreateTerminalRequestSchema.parse({ sessionId, command: 'ls', args: null, env: null });
  assert.deepEqual([terminal.args, terminal.env], [[], []]);
  // A missing required array is still missing.
  assert.equal(NewSessionRequestSchema.safeParse({ cwd: '/p' }).success, false);
});

test('fs/read_text_file line 0 and null are accepted (both mean "from the start")', () => {
  for (const line of [0, null, 1, undefined]) {
    assert.equal(ReadTextFileRequestSchema.parse({ sessionId, path: '/p/a.ts', line }).line, line);
  }
});

test('open enums accept any string: config option category', () => {
  const session = NewSessionResponseSchema.parse({
    sessionId,
    configOptions: [
      { id: 'a', name: 'A', category: '_acme/effort', type: 'boolean', currentValue: true },
      { id: 'b', name: 'B', category: 'some_future_category', type: 'boolean', currentValue: false },
    ],
  });
  assert.deepEqual(session.configOptions?.map((o) => o.category), ['_acme/effort', 'some_future_category']);
});

test('an elicitation form field of unknown type reads as an unknown field; an unknown mode is rejected', () => {
  const request = CreateElicitationRequestSchema.parse({
    sessionId,
    mode: 'form',
    message: 'Pick',
    requestedSchema: { type: 'object', properties: { when: { type: 'time', title: 'When' }, name: { type: 'string' } } },
  });
  assert.ok(request.mode === 'form');
  assert.deepEqual(request.requestedSchema.properties, { when: { type: 'unknown', kind: 'time' }, name: { type: 'string' } });
  assert.equal(
    CreateElicitationRequestSchema.safeParse({ sessionId, mode: '_acme/qr', message: 'Scan', code: 'x' }).success,
    false,
  );
});
