// AcpConnection over an in-memory stream pair, with a scripted agent on the far end: typed
// requests both ways, the error answers JSON-RPC owes, ids kept per direction, EOF, the trace.
// Every message the connection writes is also checked against the official ACP schema.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { Message } from 'vscode-jsonrpc/node';
import { AcpConnection } from '../../src/agent/connection';
import { ConnectionClosedError, InvalidResultError, RequestAbortedError } from '../../src/agent/connectionErrors';
import type { ConnectionOptions, TraceDirection } from '../../src/agent/connection';
import { agentMethods, clientMethods, ErrorCodes } from '../../src/protocol';
import type { SessionNotification } from '../../src/protocol';
import { FakePeer, recordingLog, settle, until } from './helpers/streams';
import type { WireMessage } from './helpers/streams';
import { specMessageErrors } from './helpers/officialSchema';

/** No test may hang the run (node:test has no default timeout). */
const TIMEOUT = { timeout: 10_000 };

const CWD = '/work/project';
const newSession = { cwd: CWD, mcpServers: [] };
const readRequest = (id: string | number, path = '/work/project/a.txt') => ({
  jsonrpc: '2.0',
  id,
  method: 'fs/read_text_file',
  params: { sessionId: 's1', path },
});
const permissionRequest = (id: string | number) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/request_permission',
  params: {
    sessionId: 's1',
    toolCall: { toolCallId: 'call-1', title: 'Edit a.txt', kind: 'edit', status: 'pending' },
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  },
});
const chunk = (text: string) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
});

function connect(options: Partial<ConnectionOptions> = {}) {
  const peer = new FakePeer();
  const log = recordingLog();
  const trace: Array<{ direction: TraceDirection; message: Message }> = [];
  const connection = new AcpConnection(peer.toClient, peer.fromClient, {
    log,
    onTrace: (direction, message) => trace.push({ direction, message }),
    ...options,
  });
  return { peer, log, trace, connection };
}

/**
 * Every message the connection wrote must be a valid ACP message from the client: requests and
 * notifications by their method's params, responses by the method of the agent request they answer.
 */
function assertWrittenSpecValid(peer: FakePeer): void {
  assert.ok(peer.written.length > 0, 'the test should have made the connection write something');
  const problems = peer.written.flatMap((message) => {
    const isResponse = !('method' in message);
    const requestMethod = isResponse ? peer.sentRequests.get(JSON.stringify(message.id)) : undefined;
    const errors = specMessageErrors(message, { from: 'client', requestMethod });
    return errors.length > 0 ? [`${JSON.stringify(message)}: ${errors.join('; ')}`] : [];
  });
  assert.deepEqual(problems, [], 'messages written by the connection that the official schema rejects');
}

/** Answers the connection's `nth` request for `method` (0-based) with a result. */
async function answer(peer: FakePeer, method: string, result: unknown, nth = 0): Promise<WireMessage> {
  const isRequest = (m: WireMessage) => m.method === method && 'id' in m;
  const request = await peer.waitFor(`request #${nth} for ${method}`, (m) => peer.written.filter(isRequest)[nth] === m);
  peer.send({ jsonrpc: '2.0', id: request.id, result });
  return request;
}

describe('AcpConnection: our requests', () => {
  test('a request goes out as a spec-valid JSON-RPC request and resolves with the validated result', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'acp-host-tests', version: '0.0.0' },
    });
    const request = await answer(peer, 'initialize', {
      protocolVersion: 1,
      agentCapabilities: { loadSession: true },
      authMethods: [],
      agentInfo: { name: 'fake', version: '1.2.3' },
    });
    assert.equal(request.jsonrpc, '2.0');
    assert.equal(request.id, 0, 'our ids count from 0');
    assert.deepEqual(request.params.clientInfo, { name: 'acp-host-tests', version: '0.0.0' });
    const result = await pending;
    assert.equal(result.protocolVersion, 1);
    assert.equal(result.agentCapabilities?.loadSession, true);
    assert.equal(result.agentInfo?.version, '1.2.3');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an invalid result rejects with InvalidResultError naming the method and the field, and the connection still works', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const bad = connection.request(agentMethods.sessionNew, newSession);
    await answer(peer, 'session/new', { sessionId: 42 });
    const error = await bad.then(
      () => assert.fail('an invalid result must not resolve'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof InvalidResultError, String(error));
    assert.match(error.message, /session\/new/);
    assert.match(error.message, /sessionId/);

    const good = connection.request(agentMethods.sessionNew, newSession);
    await answer(peer, 'session/new', { sessionId: 's2' }, 1);
    assert.equal((await good).sessionId, 's2');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an error answer rejects with its code, message and data', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.sessionPrompt, { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] });
    const request = await peer.requestFor('session/prompt');
    peer.send({ jsonrpc: '2.0', id: request.id, error: { code: ErrorCodes.AuthRequired, message: 'log in first', data: { hint: 'x' } } });
    await assert.rejects(pending, (e: unknown) => {
      assert.ok(e instanceof ResponseError);
      assert.equal(e.code, -32000);
      assert.equal(e.message, 'log in first');
      assert.deepEqual(e.data, { hint: 'x' });
      return true;
    });
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an empty result sent as null reads as {}', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.authenticate, { methodId: 'agent-login' });
    await answer(peer, 'authenticate', null);
    assert.deepEqual(await pending, {});
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('notify sends a spec-valid notification (no id)', TIMEOUT, async () => {
    const { peer, connection } = connect();
    await connection.notify(agentMethods.sessionCancel, { sessionId: 's1' });
    const sent = await peer.waitFor('session/cancel', (m) => m.method === 'session/cancel');
    assert.equal('id' in sent, false);
    assert.deepEqual(sent.params, { sessionId: 's1' });
    assertWrittenSpecValid(peer);
    connection.dispose();
  });
});

describe('AcpConnection: requests from the agent', () => {
  test('bad params get -32602 with a readable message, and the handler is not called', TIMEOUT, async () => {
    const { peer, connection } = connect();
    let called = 0;
    connection.onRequest(clientMethods.fsReadTextFile, () => {
      called++;
      return { content: '' };
    });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's1', path: 17 } });
    const response = await peer.responseTo(1);
    assert.equal(response.error?.code, ErrorCodes.InvalidParams);
    assert.match(response.error.message, /fs\/read_text_file/);
    assert.match(response.error.message, /path/);
    assert.match(response.error.message, /string/);
    assert.equal(called, 0);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a request without params for a method that needs them gets -32602 too', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: '' }));
    peer.send({ jsonrpc: '2.0', id: 2, method: 'fs/read_text_file' });
    const response = await peer.responseTo(2);
    assert.equal(response.error?.code, ErrorCodes.InvalidParams);
    assert.match(response.error.message, /sessionId/);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an unknown or unserved method gets -32601 (also an _extension request)', TIMEOUT, async () => {
    const { peer, connection } = connect();
    peer.send({ jsonrpc: '2.0', id: 3, method: 'terminal/create', params: { sessionId: 's1', command: 'ls' } });
    peer.send({ jsonrpc: '2.0', id: 4, method: '_vendor/frobnicate', params: {} });
    assert.equal((await peer.responseTo(3)).error?.code, ErrorCodes.MethodNotFound);
    assert.equal((await peer.responseTo(4)).error?.code, ErrorCodes.MethodNotFound);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a handler error with a numeric code keeps its code, message and data', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => {
      throw Object.assign(new Error('No such file: /work/project/a.txt'), { code: ErrorCodes.ResourceNotFound, data: { path: '/work/project/a.txt' } });
    });
    connection.onRequest(clientMethods.fsWriteTextFile, async () => {
      throw new ResponseError(ErrorCodes.InvalidParams, 'outside the workspace');
    });
    peer.send(readRequest(5));
    peer.send({ jsonrpc: '2.0', id: 6, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/etc/passwd', content: '' } });
    const read = await peer.responseTo(5);
    assert.deepEqual(read.error, { code: -32002, message: 'No such file: /work/project/a.txt', data: { path: '/work/project/a.txt' } });
    const write = await peer.responseTo(6);
    assert.equal(write.error?.code, ErrorCodes.InvalidParams);
    assert.equal(write.error?.message, 'outside the workspace');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a handler throwing a plain Error (or a non-integer code) answers -32603 with its message', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => {
      throw new Error('disk on fire');
    });
    connection.onRequest(clientMethods.fsWriteTextFile, () => {
      throw Object.assign(new Error('weird'), { code: 'EACCES' });
    });
    peer.send(readRequest(7));
    peer.send({ jsonrpc: '2.0', id: 8, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/a', content: '' } });
    assert.deepEqual((await peer.responseTo(7)).error, { code: -32603, message: 'disk on fire' });
    assert.equal((await peer.responseTo(8)).error?.code, -32603);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a null (or undefined) result from a handler goes out as {}', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsWriteTextFile, () => null as unknown as Record<string, never>);
    connection.onRequest(clientMethods.terminalRelease, () => undefined as unknown as Record<string, never>);
    peer.send({ jsonrpc: '2.0', id: 9, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/a', content: 'x' } });
    peer.send({ jsonrpc: '2.0', id: 10, method: 'terminal/release', params: { sessionId: 's1', terminalId: 't1' } });
    const written = await peer.responseTo(9);
    assert.deepEqual(written, { jsonrpc: '2.0', id: 9, result: {} });
    assert.deepEqual((await peer.responseTo(10)).result, {});
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a valid request reaches the handler with parsed params and its result goes back', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const seen: unknown[] = [];
    connection.onRequest(clientMethods.fsReadTextFile, (params) => {
      seen.push(params);
      return { content: `contents of ${params.path}` };
    });
    peer.send({ jsonrpc: '2.0', id: 11, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/a', line: 2, limit: 5 } });
    assert.deepEqual((await peer.responseTo(11)).result, { content: 'contents of /a' });
    assert.deepEqual(seen, [{ sessionId: 's1', path: '/a', line: 2, limit: 5 }]);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });
});

describe('AcpConnection: broken input', () => {
  test('a malformed JSON line gets -32700 with id null, and the next request is still served', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    peer.sendRaw('{"jsonrpc":"2.0","id":12,"method":"fs/read_text_file",\n');
    peer.send(readRequest(13));
    const parseError = await peer.responseTo(null);
    assert.equal(parseError.error?.code, ErrorCodes.ParseError);
    assert.deepEqual((await peer.responseTo(13)).result, { content: 'ok' });
    assert.match(log.text('warn'), /Malformed JSON/);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a non-JSON line (a banner) is logged and not answered', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    peer.sendRaw('Welcome to Fake Agent v1!\n');
    peer.send(readRequest(14));
    await peer.responseTo(14);
    await settle();
    assert.equal(peer.written.length, 1, `only the answer to 14: ${JSON.stringify(peer.written)}`);
    assert.match(log.text('warn'), /Welcome to Fake Agent/);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an invalid envelope gets -32600 to the request id (or null), and the connection goes on', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    peer.send({ jsonrpc: '1.0', id: 15, method: 'fs/read_text_file', params: {} });
    peer.send({ jsonrpc: '2.0', id: 'req-16', method: 42 });
    peer.sendRaw('[{"jsonrpc":"2.0","id":17,"method":"fs/read_text_file"}]\n');
    peer.send(readRequest(18));
    const a = await peer.responseTo(15);
    assert.equal(a.error?.code, ErrorCodes.InvalidRequest);
    assert.match(a.error.message, /jsonrpc/);
    const b = await peer.responseTo('req-16');
    assert.equal(b.error?.code, ErrorCodes.InvalidRequest);
    const batch = await peer.responseTo(null);
    assert.equal(batch.error?.code, ErrorCodes.InvalidRequest);
    assert.deepEqual((await peer.responseTo(18)).result, { content: 'ok' });
    assert.equal(peer.written.some((m) => m.id === 17), false, 'a batch is answered once, with id null');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('an agent request with id null is answered, not silently dropped (the agent would wait forever)', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    peer.send({ jsonrpc: '2.0', id: null, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/a' } });
    peer.send(readRequest(19));
    await peer.responseTo(19);
    await settle();
    // Either served or refused with -32600; both are answers to id null.
    assert.ok(peer.written.some((m) => m.id === null), `no answer to the id-null request: ${JSON.stringify(peer.written)}`);
    connection.dispose();
  });

  test('an LSP-style $/cancelRequest without params does not break the stream (the request after it is served)', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    let thrown: unknown;
    try {
      peer.sendRaw(`{"jsonrpc":"2.0","method":"$/cancelRequest"}\n${JSON.stringify(readRequest(20))}\n`);
    } catch (error) {
      thrown = error; // on a child's stdout this would be an uncaught exception in the extension host
    }
    assert.equal(thrown, undefined, `reading the line threw: ${String(thrown)}`);
    assert.deepEqual((await peer.responseTo(20)).result, { content: 'ok' });
    connection.dispose();
  });
});

describe('AcpConnection: ids per direction', () => {
  test('agent requests with id 0 and a string id, while our request 0 is pending, each get the right answer', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, (p) => ({ content: `file ${p.path}` }));
    connection.onRequest(clientMethods.sessionRequestPermission, (p) => ({
      outcome: { outcome: 'selected' as const, optionId: p.options[0].optionId },
    }));
    const ours = connection.request(agentMethods.sessionNew, newSession);
    const ourRequest = await peer.requestFor('session/new');
    assert.equal(ourRequest.id, 0);

    let settled = false;
    void ours.then(() => (settled = true), () => (settled = true));
    const uuid = '9b2f6f1e-3c1d-4c55-8f0e-6f1f0d9b7a21';
    peer.send(readRequest(0, '/work/project/zero.txt'));
    const zero = await peer.responseTo(0);
    peer.send(permissionRequest(uuid));
    const byUuid = await peer.responseTo(uuid);
    assert.deepEqual(zero.result, { content: 'file /work/project/zero.txt' });
    assert.deepEqual(byUuid.result, { outcome: { outcome: 'selected', optionId: 'yes' } });
    await settle();
    assert.equal(settled, false, "the agent's request id 0 must not settle our request id 0");

    peer.send({ jsonrpc: '2.0', id: 0, result: { sessionId: 'from-agent' } });
    assert.equal((await ours).sessionId, 'from-agent');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('agent requests with ids 0 and "0" in one chunk are both answered, to their own ids', TIMEOUT, async () => {
    const { peer, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, (p) => ({ content: `file ${p.path}` }));
    peer.sendRaw(`${JSON.stringify(readRequest(0, '/number'))}\n${JSON.stringify(readRequest('0', '/string'))}\n`);
    await peer.waitFor('two answers', () => peer.written.length >= 2, 1000).catch(() => undefined);
    const resultFor = (id: string | number) => peer.written.find((m) => m.id === id)?.result as unknown;
    assert.deepEqual(
      { number: resultFor(0), string: resultFor('0') },
      { number: { content: 'file /number' }, string: { content: 'file /string' } },
    );
    connection.dispose();
  });

  // Run in a child process: if the connection never closes it may keep the event loop busy
  // forever, and this test must fail rather than hang the whole run.
  test('a response sent twice in one chunk (a buggy agent), then EOF: the connection still closes and rejects the rest', TIMEOUT, async () => {
    const script = `
      const { PassThrough } = require('node:stream');
      const { AcpConnection } = require(${JSON.stringify(path.resolve(__dirname, '../../src/agent/connection.js'))});
      const { ConnectionClosedError } = require(${JSON.stringify(path.resolve(__dirname, '../../src/agent/connectionErrors.js'))});
      const { agentMethods } = require(${JSON.stringify(path.resolve(__dirname, '../../src/protocol/index.js'))});
      const input = new PassThrough();
      const output = new PassThrough();
      const connection = new AcpConnection(input, output, { log: { info() {}, warn() {}, error() {} } });
      const params = { cwd: '/work/project', mcpServers: [] };
      const first = connection.request(agentMethods.sessionNew, params);
      const second = connection.request(agentMethods.sessionNew, params);
      const answer = (sessionId) => JSON.stringify({ jsonrpc: '2.0', id: 0, result: { sessionId } }) + '\\n';
      setTimeout(async () => {
        input.write(answer('first answer') + answer('second answer'));
        await first;
        input.end();
        const outcome = await Promise.race([
          second.then(() => 'resolved', (e) => (e instanceof ConnectionClosedError ? 'ConnectionClosedError' : String(e))),
          new Promise((r) => setTimeout(() => r('still pending 2 s after EOF'), 2000)),
        ]);
        process.stdout.write(outcome);
        process.exit(0);
      }, 20);`;
    const outcome = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['-e', script], { timeout: 8000, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
        resolve(error ? `${String(stdout)} (child failed: ${error.message} ${String(stderr)})` : String(stdout)),
      );
    });
    assert.equal(outcome, 'ConnectionClosedError');
  });

  test('a response to an id we never used is ignored without harm', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.sessionNew, newSession);
    await peer.requestFor('session/new');
    peer.send({ jsonrpc: '2.0', id: 99, result: { sessionId: 'stray' } });
    peer.send({ jsonrpc: '2.0', id: 'nope', error: { code: -32603, message: 'stray' } });
    peer.send({ jsonrpc: '2.0', id: '0', result: { sessionId: 'string zero is not our 0' } });
    await settle();
    peer.send({ jsonrpc: '2.0', id: 0, result: { sessionId: 'real' } });
    assert.equal((await pending).sessionId, 'real');
    assert.equal(peer.written.filter((m) => !('method' in m)).length, 0, 'responses are never answered');
    connection.dispose();
  });
});

describe('AcpConnection: end of stream', () => {
  test('EOF rejects every pending request at once with ConnectionClosedError, and later calls fail fast', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = [
      connection.request(agentMethods.sessionNew, newSession),
      connection.request(agentMethods.sessionPrompt, { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }),
      connection.request(agentMethods.sessionSetMode, { sessionId: 's1', modeId: 'plan' }),
    ];
    await peer.waitFor('three requests', () => peer.written.length === 3);
    peer.end();
    const outcomes = await Promise.allSettled(pending);
    for (const [i, outcome] of outcomes.entries()) {
      assert.equal(outcome.status, 'rejected', `request ${i}`);
      if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof ConnectionClosedError, String(outcome.reason));
    }
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason.message), /session\/prompt/);
    await connection.closed;
    await assert.rejects(connection.request(agentMethods.sessionNew, newSession), ConnectionClosedError);
    const before = peer.written.length;
    await connection.notify(agentMethods.sessionCancel, { sessionId: 's1' });
    assert.equal(peer.written.length, before, 'nothing is written to a closed connection');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a response that arrives just before EOF still settles its request', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.sessionNew, newSession);
    const request = await peer.requestFor('session/new');
    // An agent that answers and exits: the answer and EOF are read in the same tick.
    peer.toClient.end(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { sessionId: 'last-words' } })}\n`);
    assert.equal((await pending).sessionId, 'last-words');
    connection.dispose();
  });

  test("a request whose write fails (the agent's stdin is gone) rejects, leaving no unhandled rejection behind", TIMEOUT, async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { peer, connection } = connect();
      peer.fromClient.destroy(); // EPIPE: the agent died, its stdout is still draining
      await assert.rejects(connection.request(agentMethods.sessionNew, newSession));
      await settle();
      assert.deepEqual(unhandled.map(String), []);
      connection.dispose();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('dispose() rejects pending requests and ends our output', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const pending = connection.request(agentMethods.sessionNew, newSession);
    await peer.requestFor('session/new');
    connection.dispose();
    await assert.rejects(pending, ConnectionClosedError);
    assert.equal(peer.fromClient.writableEnded, true);
  });
});

describe('AcpConnection: notifications from the agent', () => {
  test('valid notifications reach the handler parsed; invalid ones are dropped with a warning', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    const seen: SessionNotification[] = [];
    connection.onNotification(clientMethods.sessionUpdate, (n) => seen.push(n));
    peer.send(chunk('one'));
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } } } });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'no session' } } } });
    peer.send({ jsonrpc: '2.0', method: 'session/update' });
    peer.send(chunk('two'));
    await settle(12);
    const texts = seen.map((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '?'));
    assert.deepEqual(texts, ['one', 'two']);
    assert.equal(log.entries.filter((e) => /Dropped invalid session\/update/.test(e.message)).length, 3);
    assert.equal(peer.written.length, 0, 'notifications are never answered');
    connection.dispose();
  });

  test('a throwing notification handler is logged and does not stop later notifications', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    let calls = 0;
    connection.onNotification(clientMethods.sessionUpdate, () => {
      calls++;
      if (calls === 1) throw new Error('renderer exploded');
    });
    peer.send(chunk('a'));
    peer.send(chunk('b'));
    await settle(8);
    assert.equal(calls, 2);
    assert.match(log.text('error'), /renderer exploded/);
    connection.dispose();
  });

  test('unknown notifications are ignored (and $/ ones silently)', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    peer.send({ jsonrpc: '2.0', method: '_vendor/status', params: { busy: true } });
    peer.send({ jsonrpc: '2.0', method: '$/progress', params: { token: 3, value: {} } });
    await settle(8);
    assert.match(log.text(), /Ignored notification _vendor\/status/);
    assert.doesNotMatch(log.text(), /progress/);
    assert.equal(peer.written.length, 0);
    connection.dispose();
  });
});

describe('AcpConnection: $/cancel_request, both ways', () => {
  const cancelOf = (requestId: string | number) => ({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId } });
  const isLspCancel = (m: WireMessage) => m.method === '$/cancelRequest';

  test('the agent cancels a pending request: the handler is aborted and the request is answered -32800 once, at once', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    let signal: AbortSignal | undefined;
    let finish: (() => void) | undefined;
    connection.onRequest(clientMethods.sessionRequestPermission, (_params, s) => {
      signal = s;
      // Answers only when told: after the cancel, this late result must not reach the agent.
      return new Promise((resolve) => (finish = () => resolve({ outcome: { outcome: 'selected', optionId: 'yes' } })));
    });
    peer.send(permissionRequest('perm-7'));
    await until('the handler to run', () => signal);
    assert.equal(signal?.aborted, false);
    peer.send(cancelOf('perm-7'));
    const response = await peer.responseTo('perm-7');
    assert.equal(signal?.aborted, true);
    assert.deepEqual(response, { jsonrpc: '2.0', id: 'perm-7', error: { code: -32800, message: 'Request cancelled: session/request_permission was withdrawn by the agent' } });
    finish?.();
    peer.send(cancelOf('perm-7'));
    await settle(8);
    assert.equal(peer.written.filter((m) => m.id === 'perm-7').length, 1, 'answered exactly once');
    assert.match(log.text('info'), /Ignored \$\/cancel_request for "perm-7"/);
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a cancel for an id never seen, answered already, or of the other type (3 vs "3") changes nothing', TIMEOUT, async () => {
    const { peer, connection } = connect();
    const signals: AbortSignal[] = [];
    let release: (() => void) | undefined;
    connection.onRequest(clientMethods.fsReadTextFile, (params, signal) => {
      signals.push(signal);
      if (params.path.endsWith('a.txt')) return { content: 'quick' };
      return new Promise((resolve) => (release = () => resolve({ content: 'slow' })));
    });
    peer.send(readRequest(1));
    assert.equal((await peer.responseTo(1)).result?.content, 'quick');
    peer.send(readRequest(3, '/work/project/b.txt'));
    await until('the second handler', () => release);
    peer.send(cancelOf(1));
    peer.send(cancelOf('3'));
    peer.send(cancelOf(99));
    await settle(8);
    assert.deepEqual(signals.map((s) => s.aborted), [false, false]);
    release?.();
    assert.equal((await peer.responseTo(3)).result?.content, 'slow');
    assert.equal(peer.written.length, 2, 'one answer per request, nothing for the cancels');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test("the agent's LSP $/cancelRequest is not ACP's: the request goes on and gets its result", TIMEOUT, async () => {
    const { peer, connection } = connect();
    let signal: AbortSignal | undefined;
    let release: (() => void) | undefined;
    connection.onRequest(clientMethods.fsReadTextFile, (_params, s) => {
      signal = s;
      return new Promise((resolve) => (release = () => resolve({ content: 'done' })));
    });
    peer.send(readRequest(5));
    await until('the handler', () => release);
    peer.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 5 } });
    await settle(8);
    assert.equal(signal?.aborted, false);
    release?.();
    assert.deepEqual((await peer.responseTo(5)).result, { content: 'done' });
    connection.dispose();
  });

  test('we abandon a request: $/cancel_request with its id goes out (never $/cancelRequest), the call rejects at once, a late answer is dropped quietly', TIMEOUT, async () => {
    const { peer, log, connection } = connect();
    const first = new AbortController();
    const list = connection.request(agentMethods.sessionList, { cwd: CWD }, first.signal);
    const sent = await peer.requestFor('session/list');
    first.abort();
    await assert.rejects(list, (e: unknown) => e instanceof RequestAbortedError && /session\/list/.test((e as Error).message));
    const cancel = await peer.waitFor('the cancel', (m) => m.method === '$/cancel_request');
    assert.equal(peer.lines.at(-1), `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":${sent.id}}}`);
    assert.deepEqual(cancel.params, { requestId: sent.id });
    // The agent answers what it had started anyway: -32800, or (crossing the cancel) a result.
    peer.send({ jsonrpc: '2.0', id: sent.id, error: { code: -32800, message: 'Request cancelled' } });
    const second = new AbortController();
    const again = connection.request(agentMethods.sessionList, { cwd: CWD }, second.signal);
    const next = await answer(peer, 'session/list', { sessions: [] }, 1);
    assert.deepEqual(await again, { sessions: [] });
    second.abort(); // answered already: nothing more to say
    const late = new AbortController();
    const crossing = connection.request(agentMethods.sessionList, { cwd: CWD }, late.signal);
    const third = await peer.waitFor('the third list', (m) => m.method === 'session/list' && m.id !== sent.id && m.id !== next.id);
    late.abort();
    await assert.rejects(crossing, RequestAbortedError);
    peer.send({ jsonrpc: '2.0', id: third.id, result: { sessions: [] } });
    await settle(8);
    assert.equal(peer.written.filter((m) => m.method === '$/cancel_request').length, 2, 'one cancel per abandoned request');
    assert.equal(peer.written.filter(isLspCancel).length, 0);
    assert.equal(log.text('warn'), '', 'late answers are not strays');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });

  test('a signal aborted before the call sends nothing', TIMEOUT, async () => {
    const { peer, connection } = connect();
    await assert.rejects(connection.request(agentMethods.sessionList, { cwd: CWD }, AbortSignal.abort()), RequestAbortedError);
    await connection.notify(agentMethods.sessionCancel, { sessionId: 's1' });
    await peer.waitFor('session/cancel', (m) => m.method === 'session/cancel');
    assert.deepEqual(peer.written.map((m) => m.method), ['session/cancel']);
    connection.dispose();
  });
});

describe('AcpConnection: the protocol trace', () => {
  test('onTrace sees every message both ways, in order, including the error answers to broken lines', TIMEOUT, async () => {
    const { peer, trace, connection } = connect();
    connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'ok' }));
    connection.onNotification(clientMethods.sessionUpdate, () => undefined);
    const pending = connection.request(agentMethods.sessionNew, newSession);
    const received: WireMessage[] = [];
    const send = (m: WireMessage) => {
      received.push(m);
      peer.send(m);
    };
    await peer.requestFor('session/new');
    send(chunk('hello'));
    send(readRequest(1));
    await peer.responseTo(1);
    peer.sendRaw('{broken\n');
    await peer.responseTo(null);
    send({ jsonrpc: '2.0', id: 0, result: { sessionId: 's1' } });
    await pending;
    await connection.notify(agentMethods.sessionCancel, { sessionId: 's1' });
    await peer.waitFor('session/cancel', (m) => m.method === 'session/cancel');

    const sent = trace.filter((t) => t.direction === 'send').map((t) => JSON.parse(JSON.stringify(t.message)) as unknown);
    const got = trace.filter((t) => t.direction === 'receive').map((t) => t.message as unknown);
    assert.deepEqual(sent, peer.written, 'every written message, in order');
    assert.deepEqual(got, received, 'every received message, in order');
    assertWrittenSpecValid(peer);
    connection.dispose();
  });
});
