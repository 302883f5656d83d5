// One agent process's scope: the routes of its sessions, and its connection and process, all
// ended at once (stop or exit), so what a restart starts with is new.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ProcessScope } from '../../src/runtime/processScope';
import type { SessionEndpoint } from '../../src/runtime/agentRuntime';
import type { RunningAgent } from '../../src/agent/launch';

const endpoint = (name: string) => ({ name }) as unknown as SessionEndpoint;

function fakeProcess(log: string[]): RunningAgent {
  return {
    connection: { dispose: () => log.push('connection disposed') },
    process: { shutdown: async () => void log.push('process shut down') },
  } as unknown as RunningAgent;
}

test('a call is routed to the session it names, else to the session being opened, else nowhere', () => {
  const scope = new ProcessScope();
  const a = endpoint('a');
  const opening = endpoint('opening');
  assert.equal(scope.route('s1'), undefined);
  scope.opening = opening;
  assert.equal(scope.route('s1'), opening, 'updates sent before session/new answers');
  scope.open('s1', a);
  assert.equal(scope.route('s1'), a);
  assert.equal(scope.routedTo('s2'), undefined);
  assert.ok(scope.inUse);
});

test('a route is forgotten only by the session it leads to', () => {
  const scope = new ProcessScope();
  const older = endpoint('older');
  const newer = endpoint('newer');
  scope.open('s1', older);
  scope.open('s1', newer);
  assert.equal(scope.forget('s1', older), false);
  assert.equal(scope.routedTo('s1'), newer);
  assert.equal(scope.forget('s1', newer), true);
  assert.equal(scope.inUse, false);
});

test('ending the scope returns its sessions once, forgets every route, disposes the connection and shuts the process down, once', async () => {
  const log: string[] = [];
  const scope = new ProcessScope();
  scope.hold(fakeProcess(log));
  const a = endpoint('a');
  const b = endpoint('b');
  scope.open('s1', a);
  scope.open('s2', a);
  scope.opening = b;
  scope.mcpWarnings.add('skipped http server');
  assert.deepEqual(scope.end(), [a, b]);
  await scope.ended;
  assert.deepEqual(log, ['connection disposed', 'process shut down']);
  assert.equal(scope.route('s1'), undefined, 'a late message of the old connection finds no session');
  assert.equal(scope.inUse, false);
  assert.deepEqual(scope.end(), [], 'a second end has nothing left to tell');
  assert.deepEqual(log, ['connection disposed', 'process shut down']);
});
