// The demo agent keeps its sessions on disk (ACP_DEMO_STATE_DIR), so a conversation comes back in
// a new agent process: session/load replays it before answering, session/resume answers without
// replay, and session/list, close and delete behave as advertised. Driven over the real stdio of
// the bundle (dist/demo-agent.js); every message it writes must be valid against the official schema.
import test, { after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DemoClient, serveFsAndPermission, type Message } from './helpers/demoClient';

const SLOW = { timeout: 60_000 };
const CAPS = { fs: { readTextFile: true, writeTextFile: true }, terminal: false, session: { configOptions: { boolean: {} } } };

const tmp = mkdtempSync(path.join(os.tmpdir(), 'acp-demo-sessions-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh state dir (not created: the agent makes it) and a workspace with a README. */
function setup(name: string): { stateDir: string; cwd: string } {
  const cwd = path.join(tmp, name, 'workspace');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(path.join(cwd, 'README.md'), '# Demo workspace\n');
  return { stateDir: path.join(tmp, name, 'state'), cwd };
}

/** Runs `fn` with an initialized agent, checks its messages against the schema, and stops it. */
async function withAgent<T>(stateDir: string, fn: (agent: DemoClient, init: Message) => Promise<T>, permission?: string | null): Promise<T> {
  const agent = new DemoClient({ stateDir, serve: serveFsAndPermission(permission === null ? undefined : (permission ?? 'allow_once')) });
  try {
    const init = await agent.result('initialize', { protocolVersion: 1, clientCapabilities: CAPS, clientInfo: { name: 'acp-host-tests', version: '0.0.0' } });
    const value = await fn(agent, init);
    assert.deepEqual(agent.schemaErrors(), []);
    return value;
  } finally {
    await agent.close();
  }
}

/** stderr and stdout are two pipes: a line the agent logged before an answer may arrive after it. */
async function logged(agent: DemoClient, line: RegExp): Promise<void> {
  for (const started = Date.now(); !line.test(agent.stderr) && Date.now() - started < 5000; ) await new Promise((r) => setTimeout(r, 10));
  assert.match(agent.stderr, line);
}

async function newSession(agent: DemoClient, cwd: string, ...prompts: string[]): Promise<string> {
  const { sessionId } = await agent.result('session/new', { cwd, mcpServers: [] });
  for (const text of prompts) await agent.result('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  return sessionId;
}

/** What session/load sent before its answer (the commands come after it). */
async function load(agent: DemoClient, sessionId: string, cwd: string): Promise<{ loaded: Message; replay: Message[] }> {
  const start = agent.fromAgent.length;
  const loaded = await agent.result('session/load', { sessionId, cwd, mcpServers: [] });
  const answerAt = agent.fromAgent.findIndex((m, i) => i >= start && 'result' in m);
  return { loaded, replay: agent.updates(undefined, start).slice(0, answerAt - start) };
}

async function listAll(agent: DemoClient, params: Message): Promise<{ pages: Message[][]; sessions: Message[] }> {
  const pages: Message[][] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.result('session/list', { ...params, ...(cursor ? { cursor } : {}) });
    pages.push(page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, sessions: pages.flat() };
}

describe('demo agent sessions kept on disk', () => {
  test('advertises load, list, close, delete and resume', async () => {
    const { stateDir } = setup('caps');
    const caps = await withAgent(stateDir, async (_agent, init) => init.agentCapabilities);
    assert.equal(caps.loadSession, true);
    assert.deepEqual(caps.sessionCapabilities, { list: {}, close: {}, delete: {}, resume: {} });
  });

  test('a new process loads a conversation: replayed before the answer, then it goes on', SLOW, async () => {
    const { stateDir, cwd } = setup('load');
    const prompt = 'Tell me about this workspace';
    const first = await withAgent(stateDir, async (agent) => {
      const sessionId = await newSession(agent, cwd);
      await agent.result('session/set_config_option', { sessionId, configId: 'mode', value: 'code' });
      await agent.result('session/set_config_option', { sessionId, configId: 'model', value: 'demo-sage' });
      await agent.result('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
      await agent.result('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/help' }] });
      return {
        sessionId,
        text: agent.updates('agent_message_chunk').map((u) => u.content.text).join(''),
        calls: agent.updates('tool_call').map((c) => [c.toolCallId, c.kind, c.title]),
        title: agent.updates('session_info_update')[0].title,
      };
    });
    assert.equal(first.title, prompt, 'the first prompt titles the session');
    assert.deepEqual(readdirSync(stateDir).filter((f) => !/^[0-9a-f]{16}\.json$/.test(f)), [], 'one file per workspace, no temp file left');

    await withAgent(stateDir, async (agent) => {
      const unknown = await agent.request('session/load', { sessionId: 'demo-nope', cwd, mcpServers: [] });
      assert.equal(unknown.error?.code, -32002);

      const start = agent.fromAgent.length;
      const loaded = await agent.result('session/load', { sessionId: first.sessionId, cwd, mcpServers: [] });
      const answerAt = agent.fromAgent.findIndex((m, i) => i >= start && 'result' in m);
      const late = agent.fromAgent.slice(answerAt + 1).filter((m) => m.method === 'session/update');
      assert.deepEqual(late.map((m) => m.params.update.sessionUpdate).filter((k) => k !== 'available_commands_update'), [], 'every replayed update comes before the answer');
      const replay = agent.fromAgent.slice(start, answerAt).map((m) => m.params.update);
      assert.ok(agent.fromAgent.slice(start, answerAt).every((m) => m.method === 'session/update' && m.params.sessionId === first.sessionId));

      assert.deepEqual(replay.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => u.content.text), [prompt, '/help']);
      assert.equal(replay.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join(''), first.text);
      const calls = replay.filter((u) => u.sessionUpdate === 'tool_call');
      assert.deepEqual(calls.map((c) => [c.toolCallId, c.kind, c.title]), first.calls);
      assert.ok(calls.every((c) => c.status === 'completed'), 'tool calls in their final state');
      assert.match(calls.find((c) => c.kind === 'edit').content[0].newText, /Tell me about this workspace/);
      assert.deepEqual(replay.at(-1), { sessionUpdate: 'session_info_update', title: prompt, updatedAt: replay.at(-1).updatedAt });
      assert.ok(!Number.isNaN(Date.parse(replay.at(-1).updatedAt)));
      assert.equal(replay[0].sessionUpdate, 'user_message_chunk', 'the conversation starts with the prompt');

      assert.equal(loaded.modes.currentModeId, 'code');
      assert.equal(loaded.configOptions.find((o: Message) => o.id === 'model').currentValue, 'demo-sage');

      // The conversation goes on: fresh tool call ids, no second title.
      const next = agent.fromAgent.length;
      await agent.result('session/prompt', { sessionId: first.sessionId, prompt: [{ type: 'text', text: 'again' }] });
      const ids = agent.updates('tool_call', next).map((c) => c.toolCallId);
      assert.ok(ids.length > 0 && ids.every((id) => !first.calls.some(([old]) => old === id)), `${ids} reuse none of ${first.calls}`);
      assert.deepEqual(agent.updates('session_info_update', next), []);
    });

    await withAgent(stateDir, async (agent) => {
      const start = agent.fromAgent.length;
      const resumed = await agent.result('session/resume', { sessionId: first.sessionId, cwd });
      assert.equal(resumed.modes.currentModeId, 'code');
      await agent.waitFor('the commands', (m) => m.params?.update?.sessionUpdate === 'available_commands_update');
      assert.deepEqual(agent.updates(undefined, start).map((u) => u.sessionUpdate), ['available_commands_update'], 'resume replays nothing');
      const { sessions } = await listAll(agent, { cwd });
      assert.equal(sessions[0].title, prompt);
    });
  });

  test('list: newest first, pages of 20 with a cursor, by cwd; empty sessions are not listed', SLOW, async () => {
    const { stateDir, cwd } = setup('list');
    const other = path.join(tmp, 'list', 'other');
    mkdirSync(other);
    await withAgent(stateDir, async (agent) => {
      const here: string[] = [];
      for (let i = 0; i < 23; i++) here.push(await newSession(agent, cwd, '/help'));
      const there = [await newSession(agent, other, '/plan a'), await newSession(agent, other, '/plan b')];
      await newSession(agent, cwd); // no prompt

      const mine = await listAll(agent, { cwd });
      assert.deepEqual(mine.pages.map((p) => p.length), [20, 3]);
      assert.deepEqual(mine.sessions.map((s) => s.sessionId).sort(), [...here].sort());
      assert.ok(mine.sessions.every((s) => s.cwd === cwd && s.title === '/help'));
      const times = mine.sessions.map((s) => s.updatedAt);
      assert.deepEqual(times, [...times].sort().reverse(), 'newest first');

      assert.deepEqual((await listAll(agent, { cwd: other })).sessions.map((s) => s.sessionId).sort(), [...there].sort());
      const everywhere = await listAll(agent, {});
      assert.deepEqual(everywhere.pages.map((p) => p.length), [20, 5]);
      assert.equal(new Set(everywhere.sessions.map((s) => s.sessionId)).size, 25);
      assert.equal((await agent.result('session/list')).sessions.length, 20, 'no params: the first page of all');

      const bad = await agent.request('session/list', { cwd, cursor: 'not-ours' });
      assert.equal(bad.error?.code, -32602);
      const relative = await agent.request('session/list', { cwd: 'workspace' });
      assert.equal(relative.error?.code, -32602);
    });
  });

  test('delete: gone from the list and from disk; an unknown id is no error', SLOW, async () => {
    const { stateDir, cwd } = setup('delete');
    const [kept, deleted] = await withAgent(stateDir, async (agent) => {
      const ids = [await newSession(agent, cwd, '/help'), await newSession(agent, cwd, '/help')];
      assert.deepEqual(await agent.result('session/delete', { sessionId: ids[1] }), {});
      assert.deepEqual(await agent.result('session/delete', { sessionId: 'demo-never-was' }), {});
      assert.deepEqual((await listAll(agent, { cwd })).sessions.map((s) => s.sessionId), [ids[0]]);
      const prompt = await agent.request('session/prompt', { sessionId: ids[1], prompt: [{ type: 'text', text: 'hello?' }] });
      assert.equal(prompt.error?.code, -32002, 'a deleted session is no longer open');
      return ids;
    });
    await withAgent(stateDir, async (agent) => {
      assert.equal((await agent.request('session/load', { sessionId: deleted, cwd, mcpServers: [] })).error?.code, -32002);
      assert.ok('result' in (await agent.request('session/load', { sessionId: kept, cwd, mcpServers: [] })));
    });
  });

  test('close ends a running turn as cancelled and forgets the session; it stays on disk', SLOW, async () => {
    const { stateDir, cwd } = setup('close');
    await withAgent(
      stateDir,
      async (agent) => {
        const sessionId = await newSession(agent, cwd);
        const turnStart = agent.fromAgent.length;
        const answer = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'close me' }] });
        const permission = await agent.waitFor('the permission request', (m) => m.method === 'session/request_permission');
        assert.deepEqual(await agent.result('session/close', { sessionId }), {});
        assert.equal((await answer).result?.stopReason, 'cancelled');
        agent.answer(permission, { outcome: { outcome: 'cancelled' } });
        await new Promise((resolve) => setTimeout(resolve, 100)); // anything sent late would show now
        const turn = agent.fromAgent.slice(turnStart);
        assert.equal(turn.findIndex((m) => m.result?.stopReason), turn.length - 1, 'nothing after the cancelled answer');
        const again = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still there?' }] });
        assert.equal(again.error?.code, -32002, 'closed: no longer open');

        const { replay } = await load(agent, sessionId, cwd);
        assert.deepEqual(replay.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => u.content.text), ['close me']);
        const edit = replay.find((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit');
        assert.equal(edit?.status, 'failed', 'a call cut off by the close is not replayed as still running');
      },
      null,
    );
  });

  test('a corrupt or odd state file is logged and the agent starts empty, then saves over it', SLOW, async () => {
    const { stateDir, cwd } = setup('corrupt');
    mkdirSync(stateDir, { recursive: true });
    const file = path.join(stateDir, `${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}.json`);
    writeFileSync(file, '{"version":1,"sessions":[{"sessionId":"demo-trunc');
    await withAgent(stateDir, async (agent) => {
      assert.deepEqual((await agent.result('session/list', { cwd })).sessions, []);
      await logged(agent, /corrupt state file/);
      const sessionId = await newSession(agent, cwd, '/help');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).sessions.map((s: Message) => s.sessionId), [sessionId]);
    });

    // Entries of the wrong shape are dropped, the rest is kept (bad history entries included).
    const good = { sessionId: 'demo-good', cwd, updatedAt: '2020-01-01T00:00:00.000Z', modeId: 'warp', history: [{ role: 'user', text: 'hi' }, { role: 'tool' }, 7] };
    writeFileSync(file, JSON.stringify({ version: 1, sessions: [{ sessionId: 42 }, good, null] }));
    await withAgent(stateDir, async (agent) => {
      assert.deepEqual((await agent.result('session/list', { cwd })).sessions, [{ sessionId: 'demo-good', cwd, updatedAt: good.updatedAt }]);
      const { loaded, replay } = await load(agent, 'demo-good', cwd);
      assert.equal(loaded.modes.currentModeId, 'ask', 'an unknown mode falls back to the default');
      assert.deepEqual(replay.map((u) => u.sessionUpdate), ['user_message_chunk', 'session_info_update']);
    });
  });
});
