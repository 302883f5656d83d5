// The session updates the panel shows because the client advertises them (notice, compaction,
// id-addressed plans), and what a turn's answer says it cost: read with zod, folded into the
// transcript by id (never by a search), projected to what the panel validates, and advertised
// in initialize exactly as the official schemas define it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { metaUsage, PromptResponseSchema, SessionNotificationSchema, SessionUpdateSchema } from '../../src/protocol';
import type { PromptResponse } from '../../src/protocol';
import { clientCapabilities } from '../../src/runtime/ports';
import { COMPACTION_SUMMARY_MAX, Compactions } from '../../src/session/compactions';
import type { Entry } from '../../src/session/model';
import { countingList } from './helpers/countingList';
import { Plans } from '../../src/session/plans';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { turnUsage } from '../../src/session/usage';
import { entriesView, sessionView } from '../../src/view/projection';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { SessionViewSchema } from '../../src/webview-protocol/session';
import { assertSpecValid, assertUnstableSpecValid } from './helpers/officialSchema';

function fold(updates: unknown[], t = new Transcript()): Transcript {
  for (const u of updates) t.apply(SessionUpdateSchema.parse(u));
  return t;
}

const say = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const item = (content: string, status = 'pending') => ({ content, status, priority: 'medium' });

test('initialize advertises notices, compaction and id-addressed plans, valid against the stable and the unstable schema', () => {
  const caps = clientCapabilities({ readTextFile: async () => '', log: { info() {}, warn() {}, error() {} }, onTrace: () => undefined });
  assert.deepEqual(caps.session, { configOptions: { boolean: {} }, notices: {}, compaction: {} });
  assert.deepEqual(caps.plan, {});
  assertSpecValid('ClientCapabilities', caps);
  assertUnstableSpecValid('ClientCapabilities', caps);
  assertUnstableSpecValid('InitializeRequest', { protocolVersion: 1, clientCapabilities: caps });
});

test('notices: one entry each, in order; custom severities show as info; the description is optional', () => {
  const t = fold([
    say('hi'),
    { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limit near', description: '80% used' },
    { sessionUpdate: 'notice', severity: '_acme_tip', title: 'Tip', description: null },
    { sessionUpdate: 'notice', severity: 'error', title: 'Model unavailable' },
    { sessionUpdate: 'notice', severity: 'info', title: 'Switched model', description: 42 },
  ]);
  assert.deepEqual(t.entries.slice(1), [
    { kind: 'notice', severity: 'warning', title: 'Rate limit near', description: '80% used' },
    { kind: 'notice', severity: 'info', title: 'Tip', description: null },
    { kind: 'notice', severity: 'error', title: 'Model unavailable', description: null },
    { kind: 'notice', severity: 'info', title: 'Switched model', description: null },
  ]);
});

test('a compaction is upserted by id in place; chunks append to its summary; summary and error are patches', () => {
  const t = fold([
    say('before'),
    { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
    say('during'),
    { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'Fixed the ' } },
    { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'cart.' } },
  ]);
  assert.deepEqual(t.entries[1], { kind: 'compaction', compactionId: 'c1', status: 'in_progress', summary: 'Fixed the cart.', error: null });
  fold([{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }], t);
  assert.deepEqual(t.entries[1], { kind: 'compaction', compactionId: 'c1', status: 'completed', summary: 'Fixed the cart.', error: null }, 'absent summary: kept');
  fold([{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [{ type: 'text', text: 'New ' }, { type: 'bogus' }, { type: 'text', text: 'summary' }] }], t);
  assert.equal(t.entries[1].kind === 'compaction' && t.entries[1].summary, 'New summary', 'a summary replaces; an invalid block is skipped');
  fold([{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'failed', summary: null, error: 'timed out' }], t);
  assert.deepEqual(t.entries[1], { kind: 'compaction', compactionId: 'c1', status: 'failed', summary: '', error: 'timed out' });
  fold([{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: '_acme_paused', error: null, summary: [] }], t);
  assert.deepEqual(t.entries[1], { kind: 'compaction', compactionId: 'c1', status: '_acme_paused', summary: '', error: null }, 'null and [] clear; a custom status is kept');
  assert.deepEqual(t.entries.map((e) => e.kind), ['agent', 'compaction', 'agent'], 'its place is where it started');

  const started = fold([say('x'), { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c2', content: { type: 'text', text: 'first' } }]);
  assert.deepEqual(started.entries[1], { kind: 'compaction', compactionId: 'c2', status: 'in_progress', summary: 'first', error: null }, 'a chunk of a new id starts one');
});

test('a compaction summary is bounded: past COMPACTION_SUMMARY_MAX it is clipped with a note and later chunks are dropped', () => {
  const t = new Transcript();
  const chunk = 'y'.repeat(10_000);
  for (let i = 0; i < 20; i++) fold([{ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: chunk } }], t);
  const entry = t.entries[0];
  assert.ok(entry.kind === 'compaction');
  assert.ok(entry.summary.length > COMPACTION_SUMMARY_MAX && entry.summary.length < COMPACTION_SUMMARY_MAX + 100, `${entry.summary.length}`);
  assert.match(entry.summary, /clipped: \d+ of \d+ chars not shown/);
  const [view] = entriesView(t.entries);
  assert.deepEqual(EntryViewSchema.parse(view), view);
});

test('id-addressed plans: an update replaces that plan only; removal keeps its place with no content; the legacy plan is apart', () => {
  const t = fold([
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a'), item('b'), { content: 'bad' }] } },
    { sessionUpdate: 'plan', entries: [item('legacy')] },
    { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: '# Steps\n1. x' } },
    say('working'),
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a', 'completed')] } },
    { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p3', uri: 'file:///w/PLAN.md' } },
    { sessionUpdate: 'plan_removed', planId: 'p2' },
    { sessionUpdate: 'plan_removed', planId: 'never-sent' },
    { sessionUpdate: 'plan', entries: [item('legacy', 'completed')] },
  ]);
  assert.deepEqual(t.entries, [
    { kind: 'planById', planId: 'p1', content: { type: 'items', entries: [{ content: 'a', priority: 'medium', status: 'completed' }] } },
    { kind: 'plan', entries: [{ content: 'legacy', priority: 'medium', status: 'completed' }] },
    { kind: 'planById', planId: 'p2', content: null },
    { kind: 'agent', text: 'working' },
    { kind: 'planById', planId: 'p3', content: { type: 'file', uri: 'file:///w/PLAN.md' } },
  ]);
  for (const raw of [
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a')] } },
    { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: 'x' } },
    { sessionUpdate: 'plan_removed', planId: 'p2' },
  ]) {
    assertUnstableSpecValid('SessionUpdate', raw);
    assertUnstableSpecValid('SessionUpdate', SessionUpdateSchema.parse(raw));
  }
});

// A fold by id reads the entry it folds and no other; its index checks that entry's id first, so
// that is two reads of one entry at most.
test('folds by id read the entry they fold at most, however long the transcript', () => {
  const { list, reads } = countingList(50_000);
  const compactions = new Compactions(list);
  const plans = new Plans(list);
  compactions.update({ compactionId: 'c', status: 'in_progress' });
  plans.update({ type: 'items', planId: 'p', entries: [] });
  plans.set([]);
  const before = reads();
  for (let i = 0; i < 100; i++) {
    compactions.appendSummary({ compactionId: 'c', content: { type: 'text', text: 'more ' } });
    plans.update({ type: 'markdown', planId: 'p', content: `step ${i}` });
    plans.set([{ content: `legacy ${i}`, priority: 'low', status: 'pending' }]);
    plans.remove('unknown');
  }
  assert.ok(reads() - before <= 2 * 400, `${reads() - before} reads for 400 folds over 50,000 entries`);
});

test('a restored transcript finds its compactions and plans by id again', () => {
  const saved = fold([
    { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [item('a')] } },
    { sessionUpdate: 'plan', entries: [item('legacy')] },
    say('end'),
  ]);
  const t = new Transcript();
  t.restore(JSON.parse(JSON.stringify(saved.entries)) as Entry[]);
  fold([
    { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
    { sessionUpdate: 'plan_removed', planId: 'p1' },
    { sessionUpdate: 'plan', entries: [item('legacy', 'completed')] },
  ], t);
  assert.deepEqual(t.entries.map((e) => e.kind), ['compaction', 'planById', 'plan', 'agent'], 'updated in place, nothing added');
  assert.ok(t.entries[0].kind === 'compaction' && t.entries[0].status === 'completed');
  assert.ok(t.entries[1].kind === 'planById' && t.entries[1].content === null);
  assert.ok(t.entries[2].kind === 'plan' && t.entries[2].entries[0].status === 'completed');
  t.clear();
  fold([{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'failed' }], t);
  assert.deepEqual(t.entries.map((e) => e.kind), ['compaction'], 'after clear, an old id starts a new entry');
});

test('a turn’s usage and its _meta cost and quota go on the turn-end entry; nothing when the answer has none', () => {
  const response = PromptResponseSchema.parse({
    stopReason: 'end_turn',
    usage: { totalTokens: 1234, inputTokens: 1000, outputTokens: 234, thoughtTokens: 50, cachedReadTokens: null },
    _meta: { cost: { amount: 0.42, currency: 'USD' }, quota: { used: 10, limit: 100, resetsAt: '2025-06-01T00:00:00Z', plan: { name: 'pro', tier: 2 }, flag: true, long: 'z'.repeat(500) }, other: 1 },
  });
  assertUnstableSpecValid('PromptResponse', response);
  const usage = turnUsage(response);
  assert.deepEqual(usage, {
    tokens: { total: 1234, input: 1000, output: 234, thought: 50, cachedRead: null, cachedWrite: null },
    cost: { amount: 0.42, currency: 'USD' },
    quota: [
      { label: 'used', value: 10 },
      { label: 'limit', value: 100 },
      { label: 'resetsAt', value: '2025-06-01T00:00:00Z' },
      { label: 'plan.name', value: 'pro' },
      { label: 'plan.tier', value: 2 },
    ],
  });
  const t = new Transcript();
  // As session/turn.ts ends a turn: the usage only when the answer said something of it.
  const end = (answer: PromptResponse) => {
    const used = turnUsage(answer);
    t.endTurn(used ? { stopReason: answer.stopReason, usage: used } : { stopReason: answer.stopReason });
  };
  end(response);
  end(PromptResponseSchema.parse({ stopReason: 'end_turn', _meta: { cost: 'a lot', quota: { nested: { too: { deep: 1 } } } } }));
  end(PromptResponseSchema.parse({ stopReason: 'cancelled', usage: { totalTokens: -1 } }));
  assert.deepEqual(t.entries[1], { kind: 'turnEnd', stopReason: 'end_turn' }, 'unrecognised _meta shows nothing');
  assert.deepEqual(t.entries[2], { kind: 'turnEnd', stopReason: 'cancelled' }, 'an invalid usage reads as absent, the answer still counts');
  const views = entriesView(t.entries);
  assert.deepEqual(views.map((v) => EntryViewSchema.parse(v)), views);
});

test('usage_update: a cost only in _meta counts, the stated one wins, and the quota reaches the session view', () => {
  const state = new SessionState();
  const apply = (raw: Record<string, unknown>) => state.apply(SessionNotificationSchema.parse({ sessionId: 's', update: { sessionUpdate: 'usage_update', used: 10, size: 100, ...raw } }).update);
  apply({ _meta: { cost: { amount: 1.5, currency: 'EUR' }, quota: { remaining: 7 } } });
  assert.deepEqual(state.view.usage, { used: 10, size: 100, cost: { amount: 1.5, currency: 'EUR' }, quota: [{ label: 'remaining', value: 7 }] });
  apply({ cost: { amount: 2, currency: 'USD' }, _meta: { cost: { amount: 1.5, currency: 'EUR' } } });
  assert.deepEqual(state.view.usage, { used: 10, size: 100, cost: { amount: 2, currency: 'USD' }, quota: null });
  assert.deepEqual(SessionViewSchema.parse(sessionView(state.view)).usage, state.view.usage);
  assert.deepEqual(metaUsage(null), { cost: null, quota: null });
  assert.deepEqual(metaUsage({ quota: {} }), { cost: null, quota: null }, 'an empty quota is none');
});

test('every new kind projects to an entry the panel validates', () => {
  const t = fold([
    { sessionUpdate: 'notice', severity: 'warning', title: 'T', description: 'D' },
    { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'E', summary: [{ type: 'text', text: 'S' }] },
    { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [item('x')] } },
    { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: '**m**' } },
    { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'c', uri: 'file:///w/p.md' } },
    { sessionUpdate: 'plan_removed', planId: 'a' },
  ]);
  const views = entriesView(t.entries);
  assert.equal(views.length, 5);
  for (const view of views) assert.deepEqual(EntryViewSchema.parse(view), view);
});
