// The host→panel feed in plain Node: what reaches the panel is a snapshot, then batches (one
// in flight at a time) in which streamed text travels as the appended part only.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { ViewFeed } from '../../src/view/viewFeed';
import type { FeedSource } from '../../src/view/viewFeed';
import { HostToViewSchema } from '../../src/webview-protocol/messages';
import type { HostToView, StatusView } from '../../src/webview-protocol/messages';

function source(): FeedSource & { setStatus(s: StatusView): void } {
  const listeners = new Set<(s: StatusView) => void>();
  const src = {
    transcript: new Transcript(),
    session: new SessionState(),
    currentStatus: { agentName: 'Fake', phase: 'ready' } as StatusView,
    onStatus(l: (s: StatusView) => void) {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
    setStatus(s: StatusView) {
      src.currentStatus = s;
      listeners.forEach((l) => l(s));
    },
  };
  return src;
}

/** One turn of the event loop: the feed posts what changed from the next one. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
const chunk = (text: string) => SessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

/**
 * A feed and what it posted. With `answer`, each post is answered `rendered` as a panel does
 * (after it is handled, not inside the post call); without it, the test answers.
 */
function collect({ answer = true, timeoutMs = 60_000 } = {}): { posts: HostToView[]; feed: ViewFeed } {
  const posts: HostToView[] = [];
  const feed: ViewFeed = new ViewFeed((m) => {
    posts.push(HostToViewSchema.parse(m));
    if (answer) queueMicrotask(() => feed.rendered(m.seq));
  }, timeoutMs);
  return { posts, feed };
}
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seqOf = (m: HostToView | undefined): number => (m && 'seq' in m && m.seq !== undefined ? m.seq : NaN);
const withoutSeq = (m: HostToView): unknown => {
  const { seq: _seq, ...rest } = m as HostToView & { seq?: number };
  return rest;
};

test('attach posts a snapshot; changes made in one task are one post, with streamed text as appends', async () => {
  const src = source();
  src.transcript.addUserPrompt('hi');
  const { posts, feed } = collect();
  feed.attach(src);
  assert.equal(posts.length, 1);
  assert.equal(posts[0].type, 'snapshot');
  await turn(); // the panel answers the snapshot

  src.transcript.apply(chunk('Hel'));
  src.transcript.apply(chunk('lo'));
  await turn();
  src.transcript.apply(chunk(' world'));
  src.transcript.apply(chunk('!'));
  src.setStatus({ agentName: 'Fake', phase: 'prompting' });
  src.session.setQueue([{ id: 1, text: 'next' }]);
  await turn();
  assert.deepEqual(posts.slice(1).map(withoutSeq), [
    { type: 'batch', messages: [{ type: 'entry', index: 1, entry: { kind: 'agent', text: 'Hello' } }] },
    {
      type: 'batch',
      messages: [
        { type: 'append', index: 1, text: ' world!' },
        { type: 'status', status: { agentName: 'Fake', phase: 'prompting' } },
        { type: 'session', session: { ...src.session.view } },
      ],
    },
  ]);
  assert.deepEqual(posts.map(seqOf), [1, 2, 3], 'every post is numbered, in order');
  feed.dispose();
});

test('one post in flight: changes wait for the panel\'s rendered, then go as one batch; stale answers change nothing', async () => {
  const src = source();
  const { posts, feed } = collect({ answer: false });
  feed.attach(src);
  feed.rendered(seqOf(posts[0]));
  src.transcript.apply(chunk('a'));
  src.transcript.apply(chunk('b'));
  await turn();
  assert.deepEqual(posts.slice(1).map(withoutSeq), [{ type: 'batch', messages: [{ type: 'entry', index: 0, entry: { kind: 'agent', text: 'ab' } }] }], 'an idle panel gets the change at once');
  src.transcript.apply(chunk('c'));
  await wait(20);
  src.transcript.apply(chunk('d'));
  await wait(20);
  assert.equal(posts.length, 2, 'held while the previous post is not rendered');
  feed.rendered(seqOf(posts[0]));
  feed.rendered(seqOf(posts[1]) + 1);
  await turn();
  assert.equal(posts.length, 2, 'an answer for another post does not release the feed');
  feed.rendered(seqOf(posts[1]));
  await turn();
  assert.deepEqual(posts.slice(2).map(withoutSeq), [{ type: 'batch', messages: [{ type: 'append', index: 0, text: 'cd' }] }], 'what changed meanwhile, as one post');
  feed.rendered(seqOf(posts[2]));
  await turn();
  assert.equal(posts.length, 3, 'nothing changed: nothing is posted');
  feed.dispose();
});

test('a lost answer holds the feed only until the timeout; a snapshot goes at once whatever is in flight', async () => {
  const TIMEOUT = 40;
  const src = source();
  const { posts, feed } = collect({ answer: false, timeoutMs: TIMEOUT });
  feed.attach(src);
  src.transcript.apply(chunk('a'));
  await wait(TIMEOUT / 4);
  assert.equal(posts.length, 1, 'the snapshot is not answered yet');
  await wait(TIMEOUT * 2);
  assert.deepEqual(posts.slice(1).map(withoutSeq), [{ type: 'batch', messages: [{ type: 'entry', index: 0, entry: { kind: 'agent', text: 'a' } }] }], 'posted after the timeout');
  src.transcript.apply(chunk('b'));
  feed.snapshot(); // a reloaded panel asked with `ready`
  assert.equal(posts.at(-1)?.type, 'snapshot');
  assert.equal(posts.length, 3);
  feed.rendered(seqOf(posts[2]));
  await turn();
  assert.equal(posts.length, 3, 'what was pending went in the snapshot');
  feed.dispose();
});

test('an entry replaced in the same batch as appends is sent whole, once', async () => {
  const src = source();
  const { posts, feed } = collect();
  feed.attach(src);
  await turn();
  src.transcript.apply(chunk('a'));
  await turn();
  src.transcript.apply(chunk('b'));
  src.transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T' }));
  src.transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
  await turn();
  const last = posts.at(-1)!;
  assert.equal(last.type, 'batch');
  assert.deepEqual(last.type === 'batch' && last.messages.map((m) => (m.type === 'entry' ? `${m.index}:${m.entry.kind}` : m.type === 'append' ? `${m.index}+${m.text}` : m.type)), ['0+b', '1:tool']);
  assert.ok(last.type === 'batch' && last.messages[1].type === 'entry' && last.messages[1].entry.kind === 'tool' && last.messages[1].entry.status === 'completed');
  feed.dispose();
});

test('a cleared transcript reaches the panel as a snapshot, and a replayed feed rebuilds the same entries', async () => {
  const src = source();
  const { posts, feed } = collect();
  feed.attach(src);
  for (let i = 0; i < 50; i++) src.transcript.apply(chunk(`${i} `));
  src.transcript.addError('boom');
  await turn();
  src.transcript.clear();
  src.transcript.addUserPrompt('fresh');
  await turn();
  assert.equal(posts.at(-1)!.type, 'snapshot');
  // Replaying every post as the panel does gives the model's entries exactly.
  const mirror: unknown[] = [];
  const apply = (m: HostToView): void => {
    if (m.type === 'batch') return m.messages.forEach(apply);
    if (m.type === 'snapshot') mirror.splice(0, mirror.length, ...m.entries);
    if (m.type === 'entry') mirror[m.index] = m.entry;
    if (m.type === 'append') (mirror[m.index] as { text: string }).text += m.text;
  };
  posts.forEach(apply);
  assert.deepEqual(mirror, src.transcript.entries);
  feed.dispose();
});

test('after dispose nothing more is posted', async () => {
  const src = source();
  const { posts, feed } = collect();
  feed.attach(src);
  src.transcript.apply(chunk('a'));
  feed.dispose();
  src.transcript.apply(chunk('b'));
  await turn();
  assert.equal(posts.length, 1);
});
