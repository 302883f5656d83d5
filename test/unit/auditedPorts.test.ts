// What the audit log hears from the ports that serve an agent (src/runtime/auditedPorts.ts) and
// from a permission asked on a card (src/session/permissionAudit.ts), with fakes for VS Code.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { NewAuditEvent } from '../../src/audit/auditEvent';
import { RpcError } from '../../src/protocol/errors';
import { auditReads, auditTerminals, auditWrites } from '../../src/runtime/auditedPorts';
import type { AuditRecorder } from '../../src/runtime/auditedPorts';
import type { TerminalPort } from '../../src/runtime/ports';
import { ResolvedPath } from '../../src/runtime/resolvedPath';
import { askAudited } from '../../src/session/permissionAudit';
import type { ToolEntry } from '../../src/session/model';
import { Transcript } from '../../src/session/transcript';

function recorder() {
  const events: Omit<NewAuditEvent, 'agent'>[] = [];
  const record: AuditRecorder = (e) => void events.push(e);
  return { events, record };
}

const read = { sessionId: 's1', path: '/w/a.ts' };
/** `/w` does not exist: its paths resolve as named. */
const at = (path: string) => ResolvedPath.resolve(path, ['/w']);

describe('reads', () => {
  test('from disk: recorded, with the range asked for; from an open buffer: not recorded', async () => {
    const { events, record } = recorder();
    const fromDisk = auditReads(async (_r, _t, onSource) => (onSource('disk'), 'text'), record);
    assert.equal(await fromDisk({ ...read, line: 3, limit: 10 }, await at(read.path)), 'text');
    const fromBuffer = auditReads(async (_r, _t, onSource) => (onSource('buffer'), 'unsaved'), record);
    assert.equal(await fromBuffer(read, await at(read.path)), 'unsaved');
    assert.deepEqual(events, [{ kind: 'read', sessionId: 's1', target: '/w/a.ts', decision: 'allowed', by: 'default', detail: '10 lines from line 3' }]);
  });

  test('refused (not a regular file): denied; missing on disk: failed; the error goes on to the agent; a path that resolved elsewhere is recorded beside its name', async () => {
    const { events, record } = recorder();
    const refused = auditReads(async () => Promise.reject(RpcError.invalidParams('"/w/fifo" is not a regular file')), record);
    await assert.rejects(refused({ ...read, path: '/w/fifo' }, await at('/w/fifo')), /not a regular file/);
    const missing = auditReads(async (_r, _t, onSource) => (onSource('disk'), Promise.reject(RpcError.notFound('File not found: /w/b.ts'))), record);
    await assert.rejects(missing({ ...read, path: '/w/x/../b.ts' }, await at('/w/x/../b.ts')), /File not found/);
    assert.deepEqual(
      events.map((e) => [e.target, e.resolved, e.decision, e.detail]),
      [
        ['/w/fifo', undefined, 'denied', '"/w/fifo" is not a regular file'],
        ['/w/x/../b.ts', '/w/b.ts', 'failed', 'File not found: /w/b.ts'],
      ],
    );
  });
});

describe('writes', () => {
  test('written: allowed, with its size; refused: denied; failed: failed, with the reason; errors go on', async () => {
    const { events, record } = recorder();
    const request = { sessionId: 's1', path: '/w/b.ts', content: 'hello' };
    const target = await at(request.path);
    await auditWrites(async () => undefined, record)(request, target);
    await assert.rejects(auditWrites(() => Promise.reject(RpcError.invalidParams('Refused path')), record)(request, target));
    await assert.rejects(auditWrites(() => Promise.reject(RpcError.internal('Could not write /w/b.ts: read-only')), record)(request, target));
    assert.deepEqual(
      events.map((e) => [e.kind, e.sessionId, e.target, e.decision, e.by, e.detail]),
      [
        ['write', 's1', '/w/b.ts', 'allowed', 'default', '5 characters'],
        ['write', 's1', '/w/b.ts', 'denied', 'default', 'Refused path'],
        ['write', 's1', '/w/b.ts', 'failed', 'default', 'Could not write /w/b.ts: read-only'],
      ],
    );
  });
});

describe('terminals', () => {
  function fakePort(fail?: Error) {
    const calls: string[] = [];
    const port: TerminalPort = {
      create: async (r) => (calls.push(`create ${r.command}`), fail ? Promise.reject(fail) : { terminalId: 't1' }),
      output: async () => (calls.push('output'), { output: '', truncated: false }),
      waitForExit: async () => (calls.push('wait'), { exitCode: 0, signal: null }),
      kill: async () => void calls.push('kill'),
      release: async () => void calls.push('release'),
      dispose: () => void calls.push('dispose'),
    };
    return { port, calls };
  }

  test('terminal/create is recorded: the command line, its cwd and the names (never the values) of its env', async () => {
    const { events, record } = recorder();
    const { port, calls } = fakePort();
    const audited = auditTerminals(port, record);
    const ref = { sessionId: 's1', terminalId: 't1' };
    assert.deepEqual(await audited.create({ sessionId: 's1', command: 'npm', args: ['run', 'test it'], cwd: '/w/pkg', env: [{ name: 'TOKEN', value: 'v4lue-not-shown' }] }), { terminalId: 't1' });
    await audited.create({ sessionId: 's1', command: 'ls -la | wc -l' });
    await audited.output(ref);
    await audited.waitForExit(ref);
    await audited.kill(ref);
    await audited.release(ref);
    audited.dispose!();
    assert.deepEqual(calls, ['create npm', 'create ls -la | wc -l', 'output', 'wait', 'kill', 'release', 'dispose'], 'every method reaches the port');
    assert.deepEqual(events, [
      { kind: 'terminal', sessionId: 's1', target: 'npm run "test it"', decision: 'allowed', by: 'default', detail: 'cwd /w/pkg; env TOKEN' },
      { kind: 'terminal', sessionId: 's1', target: 'ls -la | wc -l', decision: 'allowed', by: 'default' },
    ]);
    assert.ok(!JSON.stringify(events).includes('v4lue-not-shown'));
  });

  test('a refused cwd is denied, with the reason', async () => {
    const { events, record } = recorder();
    const { port } = fakePort(RpcError.invalidParams('Refused cwd "/": it is outside the workspace folders'));
    await assert.rejects(auditTerminals(port, record).create({ sessionId: 's1', command: 'echo', args: ['hi'], cwd: '/' }));
    assert.deepEqual(events, [{ kind: 'terminal', sessionId: 's1', target: 'echo hi', decision: 'denied', by: 'default', detail: 'Refused cwd "/": it is outside the workspace folders; cwd /' }]);
  });
});

describe('permissions', () => {
  const options = [
    { optionId: 'yes', name: 'Allow once', kind: 'allow_once' as const },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
  ];

  function ask(transcript: Transcript, toolCallId: string, title?: string) {
    const events: NewAuditEvent[] = [];
    const answer = askAudited({ agent: 'Gemini', transcript, record: (e) => void events.push(e) }, { sessionId: 's9', toolCall: { toolCallId, ...(title ? { title } : {}) }, options });
    return { events, answer };
  }

  test('asked, then the user’s choice: allowed or denied by the option’s kind, by the user; the answer reaches the agent', async () => {
    const transcript = new Transcript();
    const allowed = ask(transcript, 'c1', 'Edit src/a.ts');
    assert.deepEqual(allowed.events, [{ agent: 'Gemini', sessionId: 's9', kind: 'permission', target: 'Edit src/a.ts', decision: 'asked', by: 'default', detail: 'options: Allow once, Reject' }]);
    assert.ok(transcript.questions.answerPermission('c1', 'yes'));
    assert.deepEqual(await allowed.answer, { outcome: { outcome: 'selected', optionId: 'yes' } });
    assert.deepEqual(allowed.events[1], { agent: 'Gemini', sessionId: 's9', kind: 'permission', target: 'Edit src/a.ts', decision: 'allowed', by: 'user', detail: 'chose "Allow once" (allow_once)' });

    const denied = ask(transcript, 'c2', 'Run rm -rf build');
    transcript.questions.answerPermission('c2', 'no');
    await denied.answer;
    assert.deepEqual(denied.events.map((e) => [e.decision, e.by, e.detail]).at(-1), ['denied', 'user', 'chose "Reject" (reject_once)']);
  });

  test('unanswered when the turn ends: cancelled, by the host; the title is the card’s when the request has none', async () => {
    const transcript = new Transcript();
    transcript.apply({ sessionUpdate: 'tool_call', toolCallId: 'c3', title: 'Fetch https://example.com', kind: 'fetch', status: 'pending' });
    const { events, answer } = ask(transcript, 'c3');
    transcript.questions.cancelWaiting();
    assert.deepEqual(await answer, { outcome: { outcome: 'cancelled' } });
    assert.deepEqual(
      events.map((e) => [e.target, e.decision, e.by]),
      [
        ['Fetch https://example.com', 'asked', 'default'],
        ['Fetch https://example.com', 'cancelled', 'auto'],
      ],
    );
  });

  test('withdrawn by the agent: the card drops its options and says so, the audit says why; a newer question under the same id stays', async () => {
    const transcript = new Transcript();
    const cancelled = new AbortController();
    const events: NewAuditEvent[] = [];
    const request = { sessionId: 's9', toolCall: { toolCallId: 'c5', title: 'Delete build' }, options };
    const answer = askAudited({ agent: 'Gemini', transcript, record: (e) => void events.push(e) }, request, cancelled.signal);
    cancelled.abort();
    assert.deepEqual(await answer, { outcome: { outcome: 'cancelled' } });
    const card = () => transcript.entries.find((e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === 'c5');
    assert.deepEqual([card()?.permission, card()?.permissionAnswer], [undefined, { outcome: 'withdrawn' }]);
    assert.deepEqual(events.map((e) => [e.decision, e.detail]).at(-1), ['cancelled', 'withdrawn by the agent before the user answered']);
    assert.equal(transcript.questions.answerPermission('c5', 'yes'), false);

    // Asked again on the same card: the options are back, and the old request's signal is spent.
    const older = new AbortController();
    const first = askAudited({ agent: 'Gemini', transcript, record: undefined }, request, older.signal);
    const second = askAudited({ agent: 'Gemini', transcript, record: undefined }, request);
    assert.deepEqual(await first, { outcome: { outcome: 'cancelled' } }, 'superseded');
    older.abort();
    assert.equal(card()?.permissionAnswer, undefined, 'asked again: no answer yet');
    assert.ok(transcript.questions.answerPermission('c5', 'no'));
    assert.deepEqual(await second, { outcome: { outcome: 'selected', optionId: 'no' } });
  });

  test('without an audit port the question is only asked', async () => {
    const transcript = new Transcript();
    const answer = askAudited({ agent: 'Gemini', transcript, record: undefined }, { sessionId: 's9', toolCall: { toolCallId: 'c4' }, options });
    assert.ok(transcript.questions.answerPermission('c4', 'yes'));
    assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'yes' } });
  });
});
