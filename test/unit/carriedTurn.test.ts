// The rule for a turn the agent carries on after session/load (session/carriedTurn.ts), on a fake
// clock (node:test's mock timers): it begins with a replayed call still running or the first
// transcript update after the load's answer; it ends when the agent went quiet (no update for the
// quiet period, no call of it running, no question waiting), on Stop, or with the process.
import test from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import { CarriedTurn } from '../../src/session/carriedTurn';
import { Transcript } from '../../src/session/transcript';

const QUIET = 1000;

function carried(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const transcript = new Transcript();
  const running: boolean[] = [];
  let released = 0;
  const turn = new CarriedTurn({ transcript, setRunning: (r) => running.push(r), released: () => released++ }, QUIET);
  /** The agent sends an update: folded, then told to the carried turn (as the session's endpoint does). */
  const update = (raw: object) => {
    const parsed = SessionUpdateSchema.parse(raw);
    turn.updated(transcript.apply(parsed) ? 'transcript' : 'state');
  };
  const ends = () => transcript.entries.flatMap((e) => (e.kind === 'turnEnd' ? [e.stopReason] : []));
  return { transcript, running, turn, update, ends, released: () => released, tick: (ms: number) => t.mock.timers.tick(ms) };
}

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

test('begins with the first transcript update after the load; ends once quiet, not while a call of it runs', (t) => {
  const c = carried(t);
  c.turn.loaded();
  assert.equal(c.turn.active, false, 'nothing replayed runs');
  c.update({ sessionUpdate: 'available_commands_update', availableCommands: [] });
  assert.equal(c.turn.active, false, 'session state is not a turn');
  c.update(chunk('still'));
  assert.equal(c.turn.active, true);
  assert.deepEqual(c.running, [true]);
  c.tick(QUIET - 1);
  c.update({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', status: 'in_progress' });
  c.tick(QUIET * 5);
  assert.equal(c.turn.active, true, 'its call runs: the agent is working, not done');
  c.update({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed' });
  c.tick(QUIET - 1);
  assert.equal(c.turn.active, true);
  c.tick(1);
  assert.equal(c.turn.active, false);
  assert.deepEqual(c.running, [true, false]);
  assert.deepEqual(c.ends(), ['quiet']);
});

test('a call the replay left running begins it at once, belongs to it, and a question it asks holds it', async (t) => {
  const c = carried(t);
  c.update({ sessionUpdate: 'tool_call', toolCallId: 'replayed', title: 'Build', status: 'in_progress' });
  assert.equal(c.turn.active, false, 'the replay, before the answer, is not watched');
  c.turn.loaded();
  assert.equal(c.turn.active, true);
  const asked = c.transcript.questions.askPermission({ toolCallId: 'ask' }, [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]);
  c.update({ sessionUpdate: 'tool_call_update', toolCallId: 'replayed', status: 'completed' });
  c.tick(QUIET * 3);
  assert.equal(c.turn.active, true, 'the agent waits on the user');
  c.transcript.questions.answerPermission('ask', 'ok');
  c.tick(QUIET);
  assert.equal(c.turn.active, false);
  assert.deepEqual(c.ends(), ['quiet']);
  assert.deepEqual(await asked, { outcome: { outcome: 'selected', optionId: 'ok' } });
  const [replayed, question] = c.transcript.entries;
  assert.ok(replayed.kind === 'tool' && replayed.status === 'completed');
  assert.ok(question.kind === 'tool' && question.status === 'unfinished' && question.permissionAnswer?.outcome === 'selected', 'pending, never run: the view shows its answer');
});

test('a call the replay left pending, never started, is history: nothing carries on', (t) => {
  const c = carried(t);
  c.update({ sessionUpdate: 'tool_call', toolCallId: 'asked-once', title: 'Which?', status: 'pending' });
  c.turn.loaded();
  assert.equal(c.turn.active, false);
});

test('Stop ends it cancelled, its running calls unfinished, and what the agent still sends starts nothing', (t) => {
  const c = carried(t);
  c.turn.loaded();
  c.update({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', status: 'in_progress' });
  c.turn.cancel();
  const card = c.transcript.entries.find((e) => e.kind === 'tool');
  assert.ok(card?.kind === 'tool' && card.status === 'unfinished');
  assert.deepEqual(c.ends(), ['cancelled']);
  c.update(chunk('late'));
  assert.equal(c.turn.active, false);
  assert.deepEqual(c.running, [true, false]);
});

test('our own prompt ends the watch: what comes next is its turn', (t) => {
  const c = carried(t);
  c.turn.loaded();
  c.turn.prompting();
  c.update(chunk('our turn'));
  assert.equal(c.turn.active, false);
  assert.deepEqual(c.running, []);
});

test('the process going away ends it without a marker, and leaves the phase to the stop or the crash', (t) => {
  const d = carried(t);
  d.turn.loaded();
  d.update(chunk('carrying on'));
  d.turn.gone();
  assert.equal(d.turn.active, false);
  assert.deepEqual(d.ends(), []);
  assert.deepEqual(d.running, [true], 'not set back to ready: the lifecycle says idle or crashed');
  d.tick(QUIET * 2);
  assert.deepEqual(d.ends(), [], 'no timer left behind');
});

test('it holds prompts only while the agent visibly works (a call of it in progress, a question of it waiting), and our prompt ends it', (t) => {
  const c = carried(t);
  c.turn.loaded();
  c.update(chunk('welcome back'));
  assert.equal(c.turn.active, true, 'shown as running');
  assert.equal(c.turn.holding, false, 'a message alone holds nothing');
  c.update({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', status: 'in_progress' });
  assert.equal(c.turn.holding, true);
  const before = c.released();
  c.update({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed' });
  assert.equal(c.turn.holding, false);
  assert.equal(c.released(), before + 1, 'what queued behind the call may go');
  c.transcript.questions.askPermission({ toolCallId: 'ask' }, [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]);
  assert.equal(c.turn.holding, true, 'the agent waits on the user');
  c.transcript.questions.answerPermission('ask', 'ok');
  c.turn.prompting();
  assert.equal(c.turn.active, false);
  assert.deepEqual(c.ends(), [], 'no marker: the prompt shows it');
  assert.deepEqual(c.running, [true], 'the prompt sets the phase, not the carried turn');
  c.tick(QUIET * 2);
  assert.deepEqual(c.ends(), [], 'no timer left behind');
});
