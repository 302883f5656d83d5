import assert from 'node:assert/strict';
import test from 'node:test';
import { SessionUpdateSchema } from '../../src/protocol';
import type { Entry } from '../../src/session/model';
import { Transcript } from '../../src/session/transcript';

// Some agents echo the user's prompt back as user_message_chunks during the live turn: the
// prompt is on screen already, so the echo must not show it twice. A replay still shows them.

const userChunk = (text: string, messageId?: string) =>
  SessionUpdateSchema.parse({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text }, ...(messageId && { messageId }) });
const agentChunk = (text: string) => SessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

function texts(entries: readonly Entry[]): string[] {
  return entries.map((e) => (e.kind === 'user' || e.kind === 'agent' ? `${e.kind}: ${e.text}` : e.kind));
}

/** A live turn: the prompt shown, the turn begun, then what the agent sends. */
function liveTurn(prompt: string, updates: ReturnType<typeof userChunk>[], attachments = false): Transcript {
  const t = new Transcript();
  t.addUserPrompt(prompt, attachments ? [{ kind: 'file', label: 'a.ts' }] : []);
  t.beginTurn();
  for (const u of updates) t.apply(u);
  return t;
}

test('a prompt echoed whole is shown once', () => {
  const t = liveTurn('fix the bug', [userChunk('fix the bug'), agentChunk('Done.')]);
  assert.deepEqual(texts(t.entries), ['user: fix the bug', 'agent: Done.']);
});

test('a prompt echoed in several chunks is shown once', () => {
  const t = liveTurn('fix the bug\nin a.ts', [userChunk('fix '), userChunk('the bug\n'), userChunk('in a.ts'), agentChunk('Done.')]);
  assert.deepEqual(texts(t.entries), ['user: fix the bug\nin a.ts', 'agent: Done.']);
});

test('an echo with a messageId is shown once; a user message with another id after it is shown', () => {
  const t = liveTurn('fix it', [userChunk('fix ', 'u1'), userChunk('it', 'u1'), userChunk('and test it', 'u2')]);
  assert.deepEqual(texts(t.entries), ['user: fix it', 'user: and test it']);
});

test('the echo of an attached file goes with the echo of the prompt', () => {
  const resource = SessionUpdateSchema.parse({ sessionUpdate: 'user_message_chunk', content: { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'const a = 1;' } } });
  const t = liveTurn('look at this', [userChunk('look at this'), resource, agentChunk('Seen.')], true);
  assert.deepEqual(texts(t.entries), ['user: look at this', 'agent: Seen.']);
});

test('a user chunk that differs from the prompt is shown, with what looked like the start of an echo', () => {
  const t = liveTurn('fix the bug', [userChunk('fix '), userChunk('everything')]);
  assert.deepEqual(texts(t.entries), ['user: fix the bugfix everything']);
  const after = liveTurn('fix the bug', [agentChunk('On it.'), userChunk('fix the bug')]);
  assert.deepEqual(texts(after.entries), ['user: fix the bug', 'agent: On it.', 'user: fix the bug'], 'only right after the prompt');
});

test('a replay (session/load) shows the user messages: no prompt was shown to echo', () => {
  const t = new Transcript();
  for (const u of [userChunk('fix '), userChunk('the bug'), agentChunk('Done.'), userChunk('fix the bug')]) t.apply(u);
  assert.deepEqual(texts(t.entries), ['user: fix the bug', 'agent: Done.', 'user: fix the bug']);
});

test('after the turn ended, the same text from the agent is shown', () => {
  const t = liveTurn('again', []);
  t.endTurn();
  t.apply(userChunk('again'));
  // Joined to the prompt, as any user chunk without an id that follows a user entry.
  assert.deepEqual(texts(t.entries), ['user: againagain']);
});
