// A hostile agent as a real subprocess: 1,000,000 session/update notifications in one turn (and
// 250,000 notifications nobody handles), into
// AcpConnection → Transcript → ViewFeed (with a counting sink instead of the webview). Memory must
// stay bounded (the connection may not read ahead of what it has handled), requests both ways must
// be answered mid-flood, and every update must be applied.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startAgent } from '../../src/agent/launch';
import { currentEnv } from '../../src/agent/environment';
import { agentMethods, clientMethods } from '../../src/protocol';
import { SessionState } from '../../src/session/sessionState';
import { Transcript } from '../../src/session/transcript';
import { ViewFeed } from '../../src/view/viewFeed';
import type { FeedPost } from '../../src/view/viewFeed';
import type { HostToViewMessage, StatusView } from '../../src/webview-protocol/messages';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const COUNT = 1_000_000;
/** Retained heap (after a full GC) may grow this much at any point of the flood. */
const HEAP_BOUND = 64 * 1024 * 1024; // ~30-40 MiB measured with backpressure, 250 MiB without
/** How long the stand-in panel takes to render a post. */
const RENDER_MS = 4;

// node --test runs each file in its own process, so exposing gc here touches no other test.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/**
 * The panel's end of a ViewFeed: counts posts, rebuilds the first entry's text from snapshot +
 * appends, and answers each post `rendered` 4 ms later, as a fast webview would.
 */
function countingSink(rendered: (seq: number) => void) {
  const sink = { posts: 0, text: '', tools: new Map<number, string>() };
  const apply = (m: HostToViewMessage) => {
    if (m.type === 'append' && m.index === 0) sink.text += m.text;
    if (m.type === 'entry' && m.index === 0 && m.entry.kind === 'agent') sink.text = m.entry.text;
    if (m.type === 'entry' && m.entry.kind === 'tool') sink.tools.set(m.index, m.entry.title);
  };
  const post = (message: FeedPost) => {
    sink.posts++;
    if (message.type === 'batch') message.messages.forEach(apply);
    else if (message.type !== 'snapshot') apply(message);
    setTimeout(() => rendered(message.seq), RENDER_MS);
  };
  return { sink, post };
}

test('a flood of 1,000,000 session/updates: bounded memory, answered mid-flood both ways, every update applied', { timeout: 120_000 }, async () => {
  // Counted, not kept: 250,000 "Ignored notification" lines would be the test's own leak.
  const logged = { info: 0, warn: 0, error: 0 };
  const log = { info: () => logged.info++, warn: () => logged.warn++, error: () => logged.error++ };
  const transcript = new Transcript();
  const listeners = new Set<(s: StatusView) => void>();
  const { sink, post } = countingSink((seq) => feed.rendered(seq));
  const feed = new ViewFeed(post);
  feed.attach({
    transcript,
    session: new SessionState(),
    currentStatus: { agentName: 'Flood', phase: 'ready' } as StatusView,
    onStatus: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
  });

  let handled = 0;
  let peakGrowth = 0;
  let base = 0;
  let ourAnswerAt: number | undefined;
  let sessionId = '';
  let setMode: Promise<unknown> | undefined;
  const agent = await startAgent(
    { command: process.execPath, args: [path.join(FIXTURES, 'hostile-flood.js')], cwd: os.tmpdir(), env: { ...currentEnv(), FAKE_FLOOD_COUNT: String(COUNT) } },
    { name: 'Flood', clientInfo: { name: 't', version: '0' }, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false }, initializeTimeoutMs: 10_000, log },
    (connection) => {
      connection.onRequest(clientMethods.fsReadTextFile, () => ({ content: 'midway' }));
      connection.onNotification(clientMethods.sessionUpdate, (n) => {
        handled++;
        transcript.apply(n.update);
        if (handled % 100_000 === 0) peakGrowth = Math.max(peakGrowth, retained() - base);
        // Our own request, sent a third of the way in: it must not wait for the flood to end.
        if (handled === Math.floor(COUNT / 3)) {
          setMode = connection.request(agentMethods.sessionSetMode, { sessionId, modeId: 'plan' }).then(() => (ourAnswerAt = handled));
        }
      });
    },
  );
  try {
    sessionId = (await agent.connection.request(agentMethods.sessionNew, { cwd: os.tmpdir(), mcpServers: [] })).sessionId;
    base = retained();
    const started = Date.now();
    const { stopReason } = await agent.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: [{ type: 'text', text: 'flood' }] });
    const elapsed = Date.now() - started;
    await setMode;
    await new Promise((r) => setTimeout(r, 50)); // the feed's last post

    // The flood, the agent's thought about our answer, and set_mode's current_mode_update.
    assert.equal(handled, COUNT + 2, 'every notification was handled');
    assert.equal(stopReason, 'end_turn');
    const [text, ...rest] = transcript.entries;
    assert.equal(text.kind === 'agent' && text.text, '0123456789'.repeat(COUNT / 20), 'every chunk applied, in order');
    const tools = rest.filter((e) => e.kind === 'tool');
    assert.deepEqual(
      tools.map((e) => e.kind === 'tool' && e.title).sort(),
      Array.from({ length: 8 }, (_, k) => `step ${COUNT - 8 + k}`).sort(),
      'the last update of each tool call won',
    );
    // Both ways answered mid-flood: the agent's request, and ours.
    const thought = rest.find((e) => e.kind === 'thought');
    const answeredAfter = Number(/answered after (\d+)/.exec(thought?.kind === 'thought' ? thought.text : '')?.[1]);
    console.log(
      `flood: ${COUNT} updates in ${elapsed} ms, peak retained growth ${(peakGrowth / 2 ** 20).toFixed(1)} MiB, ` +
        `agent's request answered after ${answeredAfter}, ours after ${ourAnswerAt}, ${sink.posts} posts to the view, log ${JSON.stringify(logged)}`,
    );
    assert.ok(answeredAfter < COUNT * 0.6, `the agent's fs/read_text_file was answered only after ${answeredAfter} updates`);
    assert.ok(ourAnswerAt !== undefined && ourAnswerAt < COUNT * 0.45, `our session/set_mode was answered only after ${ourAnswerAt} updates`);
    assert.deepEqual(logged, { info: COUNT / 4, warn: 0, error: 0 }, 'each _hostile/noise notification is logged as ignored, nothing else');
    assert.ok(peakGrowth < HEAP_BOUND, `retained memory grew by ${(peakGrowth / 2 ** 20).toFixed(1)} MiB`);
    // The panel got the same text, in batches (one per answer at most) rather than a post per update.
    assert.equal(sink.text, text.kind === 'agent' ? text.text : undefined);
    assert.ok(sink.posts < elapsed / RENDER_MS + 50, `${sink.posts} posts in ${elapsed} ms`);
  } finally {
    feed.dispose();
    agent.connection.dispose();
    await agent.process.shutdown({ graceMs: 1000, termMs: 1000 });
  }
});
