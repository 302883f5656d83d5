import assert from 'node:assert/strict';
import test from 'node:test';
import type * as z from 'zod/mini';
import * as p from '../../src/protocol';
import { officialSchema, specMessageErrors, specValidator } from './helpers/officialSchema';

// Where the official schema rejects a message and leniency has no business: required fields,
// wrong types, closed enums outside lists, and anything we send. Each case must be rejected by
// the official schema (so the case itself is right) and by our zod schema.

const sessionId = 'sess_1';
const text = { type: 'text', text: 'hi' };

const invalid: Array<[def: string, schema: z.ZodMiniType, sample: unknown, why: string]> = [
  ['SessionNotification', p.SessionNotificationSchema, { update: { sessionUpdate: 'plan', entries: [] } }, 'no sessionId'],
  ['SessionNotification', p.SessionNotificationSchema, { sessionId: 1, update: { sessionUpdate: 'plan', entries: [] } }, 'numeric sessionId'],
  ['SessionNotification', p.SessionNotificationSchema, { sessionId }, 'no update'],
  ['SessionNotification', p.SessionNotificationSchema, { sessionId, update: { sessionUpdate: 'tool_call', title: 'Read' } }, 'tool_call without toolCallId'],
  ['SessionNotification', p.SessionNotificationSchema, { sessionId, update: { sessionUpdate: 'usage_update', used: -1, size: 10 } }, 'negative usage'],
  ['SessionNotification', p.SessionNotificationSchema, { sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'image', data: 'x' } } }, 'image without mimeType'],
  ['PromptRequest', p.PromptRequestSchema, { prompt: [text] }, 'no sessionId'],
  ['PromptRequest', p.PromptRequestSchema, { sessionId, prompt: text }, 'prompt not an array'],
  ['PromptRequest', p.PromptRequestSchema, { sessionId, prompt: [{ type: 'video', url: 'x' }] }, 'we never send unknown block types'],
  ['PromptRequest', p.PromptRequestSchema, { sessionId, prompt: [{ type: 'text' }] }, 'text block without text'],
  ['PromptRequest', p.PromptRequestSchema, { sessionId, prompt: [{ type: 'resource', resource: { uri: 'file:///a' } }] }, 'resource without text or blob'],
  ['PromptResponse', p.PromptResponseSchema, { stopReason: 'done' }, 'unknown stop reason'],
  ['PromptResponse', p.PromptResponseSchema, {}, 'no stopReason'],
  ['NewSessionRequest', p.NewSessionRequestSchema, { cwd: '/p' }, 'mcpServers is required'],
  ['NewSessionRequest', p.NewSessionRequestSchema, { cwd: 7, mcpServers: [] }, 'numeric cwd'],
  ['NewSessionRequest', p.NewSessionRequestSchema, { cwd: '/p', mcpServers: [{ name: 'fs', command: '/bin/fs', args: [] }] }, 'stdio MCP without env'],
  ['NewSessionRequest', p.NewSessionRequestSchema, { cwd: '/p', mcpServers: [{ name: 'fs', command: '/bin/fs', env: [] }] }, 'stdio MCP without args'],
  ['NewSessionRequest', p.NewSessionRequestSchema, { cwd: '/p', mcpServers: [{ type: 'http', name: 'gh', url: 'https://x' }] }, 'http MCP without headers'],
  ['NewSessionResponse', p.NewSessionResponseSchema, { modes: null }, 'no sessionId'],
  ['LoadSessionRequest', p.LoadSessionRequestSchema, { cwd: '/p', mcpServers: [] }, 'no sessionId'],
  ['InitializeRequest', p.InitializeRequestSchema, { protocolVersion: '1' }, 'string protocol version'],
  ['InitializeRequest', p.InitializeRequestSchema, { protocolVersion: 70000 }, 'protocol version beyond uint16'],
  ['InitializeResponse', p.InitializeResponseSchema, { agentCapabilities: {} }, 'no protocolVersion'],
  ['AuthenticateRequest', p.AuthenticateRequestSchema, {}, 'no methodId'],
  ['ListSessionsResponse', p.ListSessionsResponseSchema, { nextCursor: 'x' }, 'no sessions'],
  ['SetSessionConfigOptionRequest', p.SetSessionConfigOptionRequestSchema, { sessionId, configId: 'model' }, 'no value'],
  ['SetSessionConfigOptionRequest', p.SetSessionConfigOptionRequestSchema, { sessionId, configId: 'model', value: 3 }, 'numeric value'],
  ['CancelNotification', p.CancelNotificationSchema, {}, 'no sessionId'],
  ['RequestPermissionRequest', p.RequestPermissionRequestSchema, { sessionId, toolCall: { toolCallId: 'c1' } }, 'no options'],
  ['RequestPermissionRequest', p.RequestPermissionRequestSchema, { sessionId, toolCall: {}, options: [] }, 'toolCall without toolCallId'],
  ['RequestPermissionRequest', p.RequestPermissionRequestSchema, { sessionId, toolCall: { toolCallId: 'c1' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_forever' }] }, 'unknown permission option kind'],
  ['RequestPermissionResponse', p.RequestPermissionResponseSchema, { outcome: { outcome: 'selected' } }, 'selected without optionId'],
  ['RequestPermissionResponse', p.RequestPermissionResponseSchema, { outcome: { outcome: 'maybe' } }, 'unknown outcome'],
  ['RequestPermissionResponse', p.RequestPermissionResponseSchema, { outcome: 'cancelled' }, 'outcome not nested'],
  ['ReadTextFileRequest', p.ReadTextFileRequestSchema, { sessionId }, 'no path'],
  ['ReadTextFileResponse', p.ReadTextFileResponseSchema, {}, 'no content'],
  ['WriteTextFileRequest', p.WriteTextFileRequestSchema, { sessionId, path: '/p/a' }, 'no content'],
  ['CreateTerminalRequest', p.CreateTerminalRequestSchema, { sessionId, args: ['-l'] }, 'no command'],
  ['CreateTerminalResponse', p.CreateTerminalResponseSchema, { terminalId: 5 }, 'numeric terminalId'],
  ['TerminalOutputRequest', p.TerminalOutputRequestSchema, { sessionId }, 'no terminalId'],
  ['TerminalOutputResponse', p.TerminalOutputResponseSchema, { output: '' }, 'no truncated'],
  ['KillTerminalRequest', p.KillTerminalRequestSchema, { terminalId: 't1' }, 'no sessionId'],
  ['CreateElicitationRequest', p.CreateElicitationRequestSchema, { sessionId, mode: 'form', message: 'Pick' }, 'form without requestedSchema'],
  ['CreateElicitationRequest', p.CreateElicitationRequestSchema, { sessionId, mode: 'url', message: 'Go', elicitationId: 'e1' }, 'url mode without url'],
  ['CreateElicitationRequest', p.CreateElicitationRequestSchema, { mode: 'url', message: 'Go', elicitationId: 'e1', url: 'https://x' }, 'neither session nor request scope'],
  ['CreateElicitationResponse', p.CreateElicitationResponseSchema, { action: 'accept', content: { a: { b: 1 } } }, 'non-primitive content value'],
  ['CreateElicitationResponse', p.CreateElicitationResponseSchema, {}, 'no action'],
  ['CompleteElicitationNotification', p.CompleteElicitationNotificationSchema, {}, 'no elicitationId'],
  ['CancelRequestNotification', p.CancelRequestNotificationSchema, {}, 'no requestId'],
  ['CancelRequestNotification', p.CancelRequestNotificationSchema, { requestId: { id: 1 } }, 'object requestId'],
  ['Error', p.JsonRpcErrorSchema, { code: 'oops', message: 'x' }, 'string code'],
];

for (const [def, schema, sample, why] of invalid) {
  test(`strict: ${def} is rejected when ${why}`, () => {
    assert.notDeepEqual(specValidator(def)(sample), [], 'the official schema accepts this case, so the case is wrong');
    const parsed = schema.safeParse(sample);
    assert.equal(parsed.success, false, `our schema accepted it as ${JSON.stringify(parsed.data)}`);
  });
}

test('what we send is typed strictly: fields the schema requires cannot be left out', () => {
  const complete: p.ParamsOf<typeof p.agentMethods.sessionNew> = {
    cwd: '/p',
    mcpServers: [{ name: 'fs', command: '/bin/fs', args: [], env: [] }],
  };
  // @ts-expect-error mcpServers is required, even when empty
  const noServers: p.ParamsOf<typeof p.agentMethods.sessionNew> = { cwd: '/p' };
  // @ts-expect-error a stdio MCP server needs env
  const noEnv: p.McpServerStdio = { name: 'fs', command: '/bin/fs', args: [] };
  // @ts-expect-error outcomes are nested under `outcome`
  const flatOutcome: p.ResultOf<typeof p.clientMethods.sessionRequestPermission> = { outcome: 'cancelled' };
  assert.deepEqual(specValidator('NewSessionRequest')(complete), []);
  for (const wrong of [noServers, noEnv, flatOutcome]) assert.ok(wrong);
});

test('formatZodError names the path and the problem of the first issues', () => {
  const parsed = p.SessionNotificationSchema.safeParse({
    sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } },
  });
  assert.ok(!parsed.success);
  assert.equal(p.formatZodError(parsed.error), 'update.content.text: Invalid input: expected string, received undefined');

  const many = p.PromptRequestSchema.safeParse({ prompt: [{ type: 'text' }, { type: 'text' }, { type: 'text' }] });
  assert.ok(!many.success);
  assert.match(p.formatZodError(many.error, 2), /^sessionId: .+; prompt\[0\]\.text: .+ \(and 2 more\)$/);
});

test('formatZodError reports the closest branch of a failed union instead of "Invalid input"', () => {
  const parsed = p.NewSessionRequestSchema.safeParse({ cwd: '/p', mcpServers: [{ name: 'fs', command: '/bin/fs', args: [] }] });
  assert.ok(!parsed.success);
  assert.equal(p.formatZodError(parsed.error), 'mcpServers[0].env: Invalid input: expected array, received undefined');
});

test('the error codes are the ones the official schema names', () => {
  const errorCode = officialSchema.$defs.ErrorCode as { anyOf: Array<{ const?: number }> };
  const named = errorCode.anyOf.flatMap((variant) => (variant.const === undefined ? [] : [variant.const]));
  assert.deepEqual(Object.values(p.ErrorCodes).sort(), named.sort());
});

test('the protocol version is the one the official schema describes', () => {
  assert.equal(p.PROTOCOL_VERSION, 1);
  assert.deepEqual(specValidator('InitializeRequest')({ protocolVersion: p.PROTOCOL_VERSION }), []);
});

test('specMessageErrors catches what the envelope defs alone let through', () => {
  const newSession = { cwd: '/p', mcpServers: [] };
  assert.deepEqual(specMessageErrors({ jsonrpc: '2.0', id: 1, method: 'session/new', params: newSession }, { from: 'client' }), []);
  // Not JSON-RPC 2.0.
  assert.notDeepEqual(specMessageErrors({ jsonrpc: '1.0', id: 1, method: 'session/new', params: newSession }, { from: 'client' }), []);
  // Params of another method.
  assert.notDeepEqual(specMessageErrors({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: newSession }, { from: 'client' }), []);
  // A method the sender does not call.
  assert.notDeepEqual(specMessageErrors({ jsonrpc: '2.0', id: 1, method: 'session/new', params: newSession }, { from: 'agent' }), []);
  // A notification sent as a request.
  assert.notDeepEqual(specMessageErrors({ jsonrpc: '2.0', id: 1, method: 'session/cancel', params: { sessionId } }, { from: 'client' }), []);
  // A result that does not match the request it answers.
  assert.notDeepEqual(
    specMessageErrors({ jsonrpc: '2.0', id: 1, result: { sessionId: 5 } }, { from: 'agent', requestMethod: 'session/new' }),
    [],
  );
  // An error response.
  assert.deepEqual(specMessageErrors({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } }, { from: 'client' }), []);
});
