// What waits on the user lives in the transcript (item 3 of the core issue): every request gets
// exactly one answer, whatever ends it; a choice that was not offered is refused; the end of a
// turn answers only what that turn asked.
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

test('the end of a turn cancels what it asked; what was asked between turns waits on until Stop (cancelWaiting)', async () => {
  const t = new Transcript();
  const forms = new Elicitations(t, 'Fake', silent);
  const formRequest = CreateElicitationRequestSchema.parse({ sessionId: 's', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
  const between = t.questions.askPermission({ toolCallId: 'between', status: 'pending' }, ALLOW);
  const betweenForm = forms.create(formRequest);
  const turn = t.beginTurn();
  const p1 = t.questions.askPermission({ toolCallId: 'a', status: 'in_progress' }, ALLOW);
  const p2 = t.questions.askPermission({ toolCallId: 'b', status: 'completed' }, ALLOW);
  const form = forms.create(formRequest);
  t.endTurn({ stopReason: 'end_turn' }, turn);
  assert.deepEqual(await p1, { outcome: { outcome: 'cancelled' } }, 'asked in the turn: answered with its end');
  assert.deepEqual(await p2, { outcome: { outcome: 'cancelled' } }, 'whatever the status of its call');
  assert.deepEqual(await form, { action: 'cancel' });
  assert.equal(await settled(between), 'pending', 'asked between turns: not the turn\'s to end');
  assert.equal(await settled(betweenForm), 'pending');
  const next = t.beginTurn();
  t.endTurn({ stopReason: 'end_turn' }, next);
  assert.equal(await settled(between), 'pending', 'nor the next turn\'s');
  t.questions.cancelWaiting();
  assert.deepEqual(await between, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(await betweenForm, { action: 'cancel' });
  const shown = t.entries.map((e) => (e.kind === 'tool' ? `${e.toolCallId}:${e.permission ? 'ask' : (e.permissionAnswer?.outcome ?? '-')}:${e.status}` : e.kind === 'elicitation' ? e.state : e.kind));
  assert.deepEqual(shown, ['between:cancelled:pending', 'cancelled', 'a:cancelled:unfinished', 'b:cancelled:completed', 'cancelled', 'turnEnd', 'turnEnd']);
  assert.equal(t.questions.waitingForms.length, 0);
});

test('an answered permission shows the option chosen; one question ends by its key (once), whatever it is', async () => {
  const t = new Transcript();
  const forms = new Elicitations(t, 'Fake', silent);
  const turn = t.beginTurn();
  const asked = t.questions.askPermission({ toolCallId: 'c1', title: 'Edit' }, ALLOW);
  assert.equal(t.questions.answerPermission('c1', 'yes'), true);
  t.endTurn({ stopReason: 'end_turn' }, turn);
  assert.deepEqual(await asked, { outcome: { outcome: 'selected', optionId: 'yes' } });
  const card = t.entries[0];
  assert.ok(card.kind === 'tool');
  assert.deepEqual(card.permissionAnswer, { outcome: 'selected', name: 'Allow', kind: 'allow_once' });
  assert.equal(card.status, 'unfinished', 'the agent never said it ran: the view shows the answer instead');

  const dismissed = t.questions.askPermission({ toolCallId: 'c2' }, ALLOW);
  const form = forms.create(CreateElicitationRequestSchema.parse({ sessionId: 's', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } }));
  const [requestKey] = t.questions.waitingForms;
  assert.deepEqual(t.questions.waiting, [{ permission: 'c2' }, { form: requestKey }]);
  assert.equal(t.questions.cancel({ permission: 'c2' }), true);
  assert.equal(t.questions.cancel({ permission: 'c2' }), false, 'answered once');
  assert.equal(t.questions.cancel({ form: requestKey }), true);
  assert.deepEqual(await dismissed, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(await form, { action: 'cancel' });
  const c2 = t.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'c2');
  assert.ok(c2?.kind === 'tool' && c2.permission === undefined && c2.permissionAnswer?.outcome === 'cancelled');
  assert.deepEqual(t.questions.waiting, []);
});

test('clearing the transcript (a load replays the session) answers what waited first', async () => {
  const t = new Transcript();
  const asked = t.questions.askPermission({ toolCallId: 'a' }, ALLOW);
  t.clear();
  assert.deepEqual(await asked, { outcome: { outcome: 'cancelled' } });
  assert.equal(t.questions.answerPermission('a', 'yes'), false);
});
