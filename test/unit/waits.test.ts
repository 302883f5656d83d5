// What waits on the user lives in the transcript (item 3 of the core issue): every request gets
// exactly one answer, whatever ends it; a choice that was not offered is refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Transcript } from '../../src/session/transcript';
import { Elicitations } from '../../src/session/elicitations';
import { CreateElicitationRequestSchema } from '../../src/protocol';

const ALLOW = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
];
const silent = { info() {}, warn() {}, error() {} };
const settled = <T>(p: Promise<T>) => Promise.race([p.then((v) => ({ value: v })), new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);

test('a second request for the same tool call answers the first cancelled; each gets one answer', async () => {
  const t = new Transcript();
  const first = t.questions.askPermission({ toolCallId: 'c1', title: 'Edit' }, ALLOW);
  const second = t.questions.askPermission({ toolCallId: 'c1' }, [ALLOW[0]]);
  assert.deepEqual(await first, { outcome: { outcome: 'cancelled' } });
  assert.equal(await settled(second), 'pending');
  assert.equal(t.questions.answerPermission('c1', 'yes'), true);
  assert.deepEqual(await second, { outcome: { outcome: 'selected', optionId: 'yes' } });
  assert.equal(t.questions.answerPermission('c1', 'yes'), false, 'answered once');
  const entry = t.entries[0];
  assert.ok(entry.kind === 'tool' && entry.permission === undefined, 'the card no longer asks');
});

test('an option that was not offered is refused and the request keeps waiting', async () => {
  const t = new Transcript();
  const asked = t.questions.askPermission({ toolCallId: 'c1' }, [ALLOW[0]]);
  assert.equal(t.questions.answerPermission('c1', 'no'), false, 'offered in another request, not this one');
  assert.equal(t.questions.answerPermission('c1', 'made-up'), false);
  assert.equal(t.questions.answerPermission('other', 'yes'), false, 'nothing asked there');
  assert.equal(await settled(asked), 'pending');
  const entry = t.entries[0];
  assert.ok(entry.kind === 'tool' && entry.permission?.length === 1, 'still shown');
  t.questions.answerPermission('c1', 'yes');
  assert.deepEqual(await asked, { outcome: { outcome: 'selected', optionId: 'yes' } });
});

test('cancelWaiting answers every permission and form; ending a turn answers what was asked on running calls', async () => {
  const t = new Transcript();
  const forms = new Elicitations(t, 'Fake', silent);
  const p1 = t.questions.askPermission({ toolCallId: 'a', status: 'in_progress' }, ALLOW);
  const p2 = t.questions.askPermission({ toolCallId: 'b', status: 'completed' }, ALLOW);
  const form = forms.create(CreateElicitationRequestSchema.parse({ sessionId: 's', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } }));
  t.endTurn('end_turn');
  assert.deepEqual(await p1, { outcome: { outcome: 'cancelled' } }, 'the running call was asked: answered with the turn');
  assert.equal(await settled(p2), 'pending');
  t.questions.cancelWaiting();
  assert.deepEqual(await p2, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(await form, { action: 'cancel' });
  assert.deepEqual(t.entries.map((e) => (e.kind === 'tool' ? `${e.toolCallId}:${e.permission ? 'ask' : '-'}` : e.kind === 'elicitation' ? e.state : e.kind)), ['a:-', 'b:-', 'cancelled', 'turnEnd']);
  assert.equal(t.questions.waitingForms.length, 0);
});

test('clearing the transcript (a load replays the session) answers what waited first', async () => {
  const t = new Transcript();
  const asked = t.questions.askPermission({ toolCallId: 'a' }, ALLOW);
  t.clear();
  assert.deepEqual(await asked, { outcome: { outcome: 'cancelled' } });
  assert.equal(t.questions.answerPermission('a', 'yes'), false);
});
