// The host→panel feed in plain Node: what reaches the panel is a snapshot, then per-frame
// batches in which streamed text travels as the appended part only.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { ViewFeed } from '../../src/host/viewFeed';
import type { FeedSource } from '../../src/host/viewFeed';
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
      return () => listeners.delete(l);
    },
    setStatus(s: StatusView) {
      src.currentStatus = s;
      listeners.forEach((l) => l(s));
    },
  };
  return src;
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 5));
const chunk = (text: string) => SessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

function collect(frameMs = 1): { posts: HostToView[]; feed: ViewFeed } {
  const posts: HostToView[] = [];
  const feed = new ViewFeed((m) => posts.push(HostToViewSchema.parse(m)), frameMs);
  return { posts, feed };
}
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('attach posts a snapshot; a frame of changes is one post, with streamed text as appends', async () => {
  const src = source();
  src.transcript.addUserPrompt('hi');
  const { posts, feed } = collect();
  feed.attach(src);
  assert.equal(posts.length, 1);
  assert.equal(posts[0].type, 'snapshot');

  src.transcript.apply(chunk('Hel'));
  src.transcript.apply(chunk('lo'));
  await frame();
  src.transcript.apply(chunk(' world'));
  src.transcript.apply(chunk('!'));
  src.setStatus({ agentName: 'Fake', phase: 'prompting' });
  src.session.setQueue([{ id: 1, text: 'next' }]);
  await frame();
  assert.deepEqual(posts.slice(1), [
    { type: 'entry', index: 1, entry: { kind: 'agent', text: 'Hello' } },
    {
      type: 'batch',
      messages: [
        { type: 'append', index: 1, text: ' world!' },
        { type: 'status', status: { agentName: 'Fake', phase: 'prompting' } },
        { type: 'session', session: { ...src.session.view } },
      ],
    },
  ]);
  feed.dispose();
});

test('after a quiet frame a change is posted at once; while changes keep coming, one post per frame', async () => {
  // Node runs due timers in the order they fall due, so these waits order reliably against the feed's.
  const FRAME = 60;
  const src = source();
  const { posts, feed } = collect(FRAME);
  feed.attach(src);
  await wait(FRAME + 5); // quiet since the snapshot
  src.transcript.apply(chunk('a'));
  src.transcript.apply(chunk('b'));
  await wait(5);
  assert.deepEqual(posts.slice(1), [{ type: 'entry', index: 0, entry: { kind: 'agent', text: 'ab' } }], 'leading edge: at once, the same task together');
  src.transcript.apply(chunk('c'));
  await wait(FRAME / 3);
  src.transcript.apply(chunk('d'));
  assert.equal(posts.length, 2, 'held until a frame after the last post');
  await wait(FRAME);
  assert.deepEqual(posts.slice(2), [{ type: 'append', index: 0, text: 'cd' }], 'trailing edge: one post for the frame');
  feed.dispose();
});

test('an entry replaced in the same frame as appends is sent whole, once', async () => {
  const src = source();
  const { posts, feed } = collect();
  feed.attach(src);
  src.transcript.apply(chunk('a'));
  await frame();
  src.transcript.apply(chunk('b'));
  src.transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T' }));
  src.transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
  await frame();
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
  await frame();
  src.transcript.clear();
  src.transcript.addUserPrompt('fresh');
  await frame();
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
  await frame();
  assert.equal(posts.length, 1);
});
