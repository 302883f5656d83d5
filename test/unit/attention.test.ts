// Which open sessions need the user while they look elsewhere (session/attention.ts): a question
// asked or a turn ended while they did not look at that session marks it, looking at it or
// answering clears it, and the host is told to notify once per mark, never while they look.
import test from 'node:test';
import assert from 'node:assert/strict';
import { AttentionMarks } from '../../src/session/attention';
import type { TabInfo } from '../../src/session/sessionTabs';
import { Transcript } from '../../src/session/transcript';

const tab = (key: string): TabInfo => ({ key, label: key, agentName: 'A', phase: 'ready' });

function marks(): { rule: AttentionMarks; changes: () => number } {
  const rule = new AttentionMarks();
  let changes = 0;
  rule.onChange(() => changes++);
  return { rule, changes: () => changes };
}

test('nothing marked at first', () => {
  const { rule } = marks();
  assert.equal(rule.attention('s1'), null);
  assert.equal(rule.count, 0);
  assert.deepEqual(rule.mark([tab('s1')]), [{ ...tab('s1'), attention: null }]);
});

test('a question asked while the user looks elsewhere marks the session and notifies once; answering clears it', () => {
  const { rule, changes } = marks();
  rule.look(undefined);
  assert.equal(rule.questions('s1', 1), true, 'notify');
  assert.equal(rule.attention('s1'), 'waiting');
  assert.equal(rule.count, 1);
  assert.equal(changes(), 1);
  assert.equal(rule.questions('s1', 2), false, 'a second question of the same wait: no second notification');
  assert.equal(rule.questions('s1', 1), false);
  assert.equal(rule.attention('s1'), 'waiting', 'one still waits');
  assert.equal(rule.questions('s1', 0), false);
  assert.equal(rule.attention('s1'), null, 'every question answered: cleared');
  assert.equal(rule.count, 0);
  assert.equal(changes(), 2);
  assert.equal(rule.questions('s1', 1), true, 'a new wait after the last was answered notifies again');
});

test('nothing is marked or notified for the session the user looks at; another session is marked even then', () => {
  const { rule } = marks();
  rule.look('s1');
  assert.equal(rule.questions('s1', 1), false);
  assert.equal(rule.turnEnded('s1'), false);
  assert.equal(rule.attention('s1'), null);
  assert.equal(rule.questions('s2', 1), true, 'a background session asking is elsewhere too');
  assert.equal(rule.turnEnded('s3'), true);
  assert.deepEqual(rule.mark([tab('s1'), tab('s2'), tab('s3')]).map((t) => t.attention), [null, 'waiting', 'done']);
  assert.equal(rule.count, 2);
});

test('looking at a marked session clears it; looking away again does not bring the mark back', () => {
  const { rule } = marks();
  rule.questions('s1', 1);
  rule.turnEnded('s2');
  rule.look('s1');
  assert.equal(rule.attention('s1'), null, 'seen');
  assert.equal(rule.attention('s2'), 'done', 'not seen yet');
  rule.look(undefined);
  assert.equal(rule.attention('s1'), null, 'the question still waits, but the user has seen it');
  assert.equal(rule.questions('s1', 2), true, 'a new question after they looked is a new wait');
  rule.look('s2');
  assert.equal(rule.count, 1);
});

test('a turn end while elsewhere marks done, notified once until the user looks; a question outranks it', () => {
  const { rule } = marks();
  assert.equal(rule.turnEnded('s1'), true);
  assert.equal(rule.attention('s1'), 'done');
  assert.equal(rule.turnEnded('s1'), false, 'queued turns ending one after another: one notification');
  assert.equal(rule.questions('s1', 1), true);
  assert.equal(rule.attention('s1'), 'waiting');
  rule.questions('s1', 0);
  assert.equal(rule.attention('s1'), 'done', 'answered: the turn end is still unseen');
  rule.look('s1');
  assert.equal(rule.attention('s1'), null);
  rule.look(undefined);
  assert.equal(rule.turnEnded('s1'), true, 'after the user looked, the next turn end notifies');
});

test('a closed session is forgotten (and the badge count follows)', () => {
  const { rule, changes } = marks();
  rule.questions('s1', 1);
  rule.turnEnded('s2');
  const before = changes();
  rule.closed('s1');
  assert.equal(rule.attention('s1'), null);
  assert.equal(rule.count, 1);
  assert.equal(changes(), before + 1);
  rule.closed('never-open');
  assert.equal(changes(), before + 1, 'nothing to say for a session never marked');
});

test('what the host counts: every permission and form waiting, until answered, cancelled or withdrawn', async () => {
  const t = new Transcript();
  const options = [{ optionId: 'ok', name: 'OK', kind: 'allow_once' as const }];
  assert.equal(t.questions.waitingCount, 0);
  const permission = t.questions.askPermission({ toolCallId: 'c1', title: 'Run' }, options);
  t.questions.askPermission({ toolCallId: 'c2', title: 'Run' }, options);
  const form = t.questions.addElicitation({ requestKey: 'f1', agentName: 'A', message: 'Name?', title: null, toolCallId: null, fields: [] });
  assert.equal(t.questions.waitingCount, 3);
  assert.equal(t.questions.answerPermission('c1', 'ok'), true);
  assert.deepEqual(await permission, { outcome: { outcome: 'selected', optionId: 'ok' } });
  t.questions.withdraw({ permission: 'c2' });
  assert.equal(t.questions.waitingCount, 1);
  t.questions.cancel({ form: 'f1' });
  assert.deepEqual(await form, { action: 'cancel' });
  assert.equal(t.questions.waitingCount, 0);
});
