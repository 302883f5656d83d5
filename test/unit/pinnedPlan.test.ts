// The plan pinned above the prompt box: the transcript's current plan (the live plan the agent
// changed last, legacy `plan` or id-addressed), kept as a reference as plans change, never
// searched for in the entries; it reaches the session view model, which the panel validates.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import type { Entry } from '../../src/session/model';
import { Plans } from '../../src/session/plans';
import { countingList } from './helpers/countingList';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { sessionView } from '../../src/view/projection';
import { SessionViewSchema } from '../../src/webview-protocol/session';
import { assertSpecValid, assertUnstableSpecValid } from './helpers/officialSchema';

const item = (content: string, status = 'pending') => ({ content, status, priority: 'medium' });
const step = (content: string, status: 'pending' | 'in_progress' | 'completed' = 'pending') => ({ content, status, priority: 'medium' as const });

/** A transcript wired to a session state as AgentSession wires them. */
function session(): { transcript: Transcript; state: SessionState; fold: (...updates: unknown[]) => void } {
  const transcript = new Transcript();
  const state = new SessionState();
  transcript.onPlan(() => state.setPlan(transcript.plan));
  const fold = (...updates: unknown[]) => {
    for (const u of updates) transcript.apply(SessionUpdateSchema.parse(u));
  };
  return { transcript, state, fold };
}

test('a new session has no pinned plan', () => {
  const { state } = session();
  assert.equal(state.view.plan, null);
  assert.equal(SessionViewSchema.parse(sessionView(state.view)).plan, null);
});

test('the legacy plan is pinned, replaced wholesale; the transcript keeps its entry as it was', () => {
  const { transcript, state, fold } = session();
  const first = { sessionUpdate: 'plan', entries: [item('read'), item('write')] };
  assertSpecValid('SessionNotification', { sessionId: 's', update: first });
  fold(first, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('read'), step('write')] });
  fold({ sessionUpdate: 'plan', entries: [item('read', 'completed'), item('write', 'in_progress')] });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('read', 'completed'), step('write', 'in_progress')] });
  assert.deepEqual(
    transcript.entries.map((e) => e.kind),
    ['plan', 'agent'],
  );
  const view = SessionViewSchema.parse(sessionView(state.view));
  assert.deepEqual(view.plan, state.view.plan);
});

test('a legacy plan with no steps pins nothing', () => {
  const { state, fold } = session();
  fold({ sessionUpdate: 'plan', entries: [item('a')] }, { sessionUpdate: 'plan', entries: [] });
  assert.equal(state.view.plan, null);
});

test('id-addressed plans: the one changed last is pinned; its removal pins the live one changed before it, then none', () => {
  const { state, fold } = session();
  const updates = [
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a')] } },
    { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: '# Steps' } },
  ];
  for (const u of updates) assertUnstableSpecValid('SessionUpdate', u);
  fold(...updates);
  assert.deepEqual(state.view.plan, { type: 'markdown', text: '# Steps' });
  fold({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a', 'completed')] } });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('a', 'completed')] }, 'p1 changed last');
  fold({ sessionUpdate: 'plan_removed', planId: 'p1' });
  assert.deepEqual(state.view.plan, { type: 'markdown', text: '# Steps' }, 'p2 is the live plan left');
  fold({ sessionUpdate: 'plan_removed', planId: 'never-sent' });
  assert.deepEqual(state.view.plan, { type: 'markdown', text: '# Steps' }, 'an unknown id changes nothing');
  fold({ sessionUpdate: 'plan_removed', planId: 'p2' });
  assert.equal(state.view.plan, null, 'every plan removed: nothing pinned');
});

test('the legacy plan and id-addressed plans take turns being current', () => {
  const { state, fold } = session();
  fold(
    { sessionUpdate: 'plan', entries: [item('legacy')] },
    { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'f', uri: 'file:///w/PLAN.md' } },
  );
  assert.deepEqual(state.view.plan, { type: 'file', uri: 'file:///w/PLAN.md' });
  fold({ sessionUpdate: 'plan', entries: [item('legacy', 'completed')] });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('legacy', 'completed')] });
  fold({ sessionUpdate: 'plan_removed', planId: 'f' });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('legacy', 'completed')] }, 'removing another plan leaves the current one');
});

test('a cleared transcript pins nothing; a restored one pins its last live plan', () => {
  const { transcript, state, fold } = session();
  fold({ sessionUpdate: 'plan', entries: [item('x')] });
  transcript.clear();
  assert.equal(state.view.plan, null);
  const saved: Entry[] = [
    { kind: 'planById', planId: 'p1', content: { type: 'items', entries: [step('one')] } },
    { kind: 'plan', entries: [step('legacy')] },
    { kind: 'planById', planId: 'p2', content: null },
    { kind: 'agent', text: 'done' },
  ];
  transcript.restore(saved);
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('legacy')] }, 'p2 was removed: the legacy plan is the last live one');
  fold({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('one', 'completed')] } });
  assert.deepEqual(state.view.plan, { type: 'items', entries: [step('one', 'completed')] }, 'found by id after the restore');
  assert.equal(transcript.entries.length, saved.length, 'updated in place');
});

test('the current plan is read without a search, however long the transcript', () => {
  const { list, reads } = countingList(50_000);
  const plans = new Plans(list);
  const pinned = () => plans.current?.type;
  const before = reads();
  for (let i = 0; i < 100; i++) {
    plans.set([{ content: `legacy ${i}`, priority: 'low', status: 'pending' }]);
    assert.equal(pinned(), 'items');
    plans.update({ type: 'markdown', planId: `p${i}`, content: `step ${i}` });
    assert.equal(pinned(), 'markdown');
    plans.remove(`p${i}`);
    assert.equal(pinned(), 'items');
  }
  assert.ok(reads() - before <= 1000, `${reads() - before} reads for 300 folds and 300 reads of the current plan over 50,000 entries`);
});
