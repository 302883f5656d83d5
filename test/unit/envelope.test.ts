// The JSON-RPC 2.0 envelope rules checked before vscode-jsonrpc sees a message: what is handed
// on, what is owed a -32600, and which id that answer goes to.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkEnvelope } from '../../src/agent/envelope';

function rejected(value: unknown): { problem: string; id: string | number | null } {
  const checked = checkEnvelope(value);
  assert.equal(checked.ok, false, `expected ${JSON.stringify(value)} to be rejected`);
  if (checked.ok) throw new Error('unreachable');
  return { problem: checked.problem, id: checked.id };
}

function accepted(value: unknown): unknown {
  const checked = checkEnvelope(value);
  assert.equal(checked.ok, true, `expected ${JSON.stringify(value)} to pass: ${checked.ok ? '' : checked.problem}`);
  if (!checked.ok) throw new Error('unreachable');
  return checked.message;
}

describe('checkEnvelope: not an object', () => {
  test('a JSON array (a batch) is rejected with id null and says batches are not supported', () => {
    const r = rejected([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }]);
    assert.equal(r.id, null);
    assert.match(r.problem, /batch/);
  });

  test('an empty array is rejected too', () => {
    assert.equal(rejected([]).id, null);
  });

  for (const value of [42, 'hello', true, null]) {
    test(`${JSON.stringify(value)} is rejected with id null`, () => {
      const r = rejected(value);
      assert.equal(r.id, null);
      assert.match(r.problem, /object/);
    });
  }

  test('an object with neither method nor id is rejected', () => {
    const r = rejected({ jsonrpc: '2.0', result: {} });
    assert.equal(r.id, null);
    assert.match(r.problem, /method or an id/);
  });
});

describe('checkEnvelope: requests and notifications', () => {
  test('a well-formed request passes unchanged', () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } };
    assert.deepEqual(accepted(message), message);
  });

  test('a request without params passes (params are optional in JSON-RPC)', () => {
    accepted({ jsonrpc: '2.0', id: 'abc', method: 'logout' });
  });

  test('a notification (no id) passes', () => {
    accepted({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: {} } });
  });

  test('string, integer and zero ids pass', () => {
    for (const id of ['a-uuid', '0', 0, 17]) accepted({ jsonrpc: '2.0', id, method: 'fs/read_text_file', params: {} });
  });

  test('a missing jsonrpc member is rejected, keeping the request id for the answer', () => {
    const r = rejected({ id: 5, method: 'fs/read_text_file', params: {} });
    assert.equal(r.id, 5);
    assert.match(r.problem, /jsonrpc/);
  });

  test('a wrong jsonrpc version is rejected, keeping a string id', () => {
    const r = rejected({ jsonrpc: '1.0', id: 'req-1', method: 'fs/read_text_file', params: {} });
    assert.equal(r.id, 'req-1');
    assert.match(r.problem, /2\.0/);
  });

  test('jsonrpc as the number 2 is rejected', () => {
    assert.match(rejected({ jsonrpc: 2, id: 1, method: 'x' }).problem, /jsonrpc/);
  });

  for (const method of [42, null, { name: 'x' }, ['fs/read_text_file']]) {
    test(`a non-string method (${JSON.stringify(method)}) is rejected with the request's id`, () => {
      const r = rejected({ jsonrpc: '2.0', id: 9, method, params: {} });
      assert.equal(r.id, 9);
      assert.match(r.problem, /method must be a string/);
    });
  }

  for (const id of [{ n: 1 }, [1], true, false]) {
    test(`an id of the wrong type (${JSON.stringify(id)}) is rejected, answered to id null`, () => {
      const r = rejected({ jsonrpc: '2.0', id, method: 'fs/read_text_file', params: {} });
      assert.equal(r.id, null);
      assert.match(r.problem, /id must be/);
    });
  }

  for (const params of ['text', 7, true, null]) {
    test(`params that are not structured (${JSON.stringify(params)}) are rejected with the request's id`, () => {
      const r = rejected({ jsonrpc: '2.0', id: 'p', method: 'fs/read_text_file', params });
      assert.equal(r.id, 'p');
      assert.match(r.problem, /params/);
    });
  }

  test('bad params on a notification are rejected too (the id is null: no answer is owed to anyone)', () => {
    const r = rejected({ jsonrpc: '2.0', method: 'session/update', params: 'x' });
    assert.equal(r.id, null);
  });
});

describe('checkEnvelope: responses are handed on', () => {
  test('a result response passes unchanged', () => {
    const message = { jsonrpc: '2.0', id: 0, result: { sessionId: 's' } };
    assert.deepEqual(accepted(message), message);
  });

  test('an error response passes unchanged', () => {
    const message = { jsonrpc: '2.0', id: 'x', error: { code: -32603, message: 'boom' } };
    assert.deepEqual(accepted(message), message);
  });

  test('a null result passes (empty results may be null)', () => {
    accepted({ jsonrpc: '2.0', id: 1, result: null });
  });

  test('a response is never answered: even without jsonrpc it is handed on for vscode-jsonrpc to settle or log', () => {
    accepted({ id: 1, result: {} });
  });

  test('a response with id null (the answer to something unparsable) passes', () => {
    accepted({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });
});
