// One session's lifecycle and its sign-in against a fake runtime (no process): start and open,
// bring back a saved conversation (load, resume, or re-attached without either), a load that
// fails, stop overtaking a start, a crash, and -32000 leading to the sign-in choices and back.
import test from 'node:test';
import assert from 'node:assert/strict';
import type { RunningAgent } from '../../src/agent/launch';
import type { AgentRuntime, SessionEndpoint } from '../../src/runtime/agentRuntime';
import type { AgentPorts } from '../../src/runtime/ports';
import type { SessionRoots } from '../../src/runtime/sessionRoots';
import { SessionLifecycle } from '../../src/session/lifecycle';
import { SessionState } from '../../src/session/sessionState';
import { SignIn } from '../../src/session/signIn';
import { Transcript } from '../../src/session/transcript';
import { SessionUpdateSchema } from '../../src/protocol';
import { agentMethods } from '../../src/protocol/methods';
import type { StatusView } from '../../src/webview-protocol/messages';

const silent = { info() {}, warn() {}, error() {} };
const AUTH_REQUIRED = Object.assign(new Error('Authentication required'), { code: -32000 });

function running(capabilities: object = {}, authMethods: object[] = [], request = async (..._: unknown[]): Promise<unknown> => ({})): RunningAgent {
  return { initialize: { protocolVersion: 1, agentCapabilities: capabilities, authMethods }, connection: { request }, process: {} } as unknown as RunningAgent;
}

/** A runtime that starts `agent` (after `gate`, when given), answers session/new from `openNew`, and load or resume from `reopen`. */
function fakeRuntime(agent: RunningAgent, options: { gate?: Promise<void>; openNew?: () => Promise<{ sessionId: string }>; reopen?: (how: string) => Promise<object> } = {}) {
  const calls: string[] = [];
  /** The cwd of the roots each opening was given. */
  const roots: string[] = [];
  let claims = 0;
  const runtime = {
    agent: { name: 'Fake', identity: 'test', launch: async () => ({ command: 'x', args: [], cwd: '/', env: {} }) },
    async start() {
      calls.push('start');
      await options.gate;
      return agent;
    },
    claim() {
      claims++;
      return () => claims--;
    },
    authenticate: (r: RunningAgent, _e: SessionEndpoint, methodId: string, signal: AbortSignal) => r.connection.request(agentMethods.authenticate, { methodId }, signal),
    openNew: async (_r: RunningAgent, _e: SessionEndpoint, r: SessionRoots) => (calls.push('new'), roots.push(r.cwd), (options.openNew ?? (async () => ({ sessionId: 'new-1' })))()),
    reopen: async (_r: RunningAgent, _e: SessionEndpoint, id: string, how: string, r: SessionRoots) => (calls.push(`${how} ${id}`), roots.push(r.cwd), (options.reopen ?? (async () => ({})))(how)),
    fork: async (_r: RunningAgent, _e: SessionEndpoint, from: string, r: SessionRoots) => (calls.push(`fork ${from}`), roots.push(r.cwd), { sessionId: 'fork-1' }),
    close: async () => void calls.push('close'),
    detach: () => void calls.push('detach'),
    stop: async () => void calls.push('stop'),
    get inUse() {
      return claims > 0;
    },
    scrub: (text: string) => text,
    addSecret: () => undefined,
  };
  return { runtime: runtime as unknown as AgentRuntime, calls, roots };
}

const ROOTS: SessionRoots = { cwd: '/w', additionalDirectories: ['/other'] };

function session(runtime: AgentRuntime, saved?: string, ports: Partial<AgentPorts> = {}, forkFrom?: string) {
  const transcript = new Transcript();
  const state = new SessionState();
  let status: StatusView = { agentName: 'Fake', phase: 'idle' };
  const phases: string[] = [];
  const allPorts = { readTextFile: async () => '', log: silent, onTrace: () => undefined, ...ports } as AgentPorts;
  const setStatus = (patch: Partial<StatusView>) => {
    status = { ...status, ...patch };
    phases.push(status.phase);
  };
  let lifecycle!: SessionLifecycle;
  const endpoint = {} as SessionEndpoint;
  const signIn = new SignIn(
    {
      agent: runtime.agent,
      runtime,
      endpoint,
      transcript,
      get running() {
        return lifecycle.running;
      },
      get sessionId() {
        return lifecycle.sessionId;
      },
      get phase() {
        return status.phase;
      },
      setStatus,
      restartProcess: () => lifecycle.restartProcess(),
      start: () => lifecycle.start(),
      reopen: (r) => lifecycle.reopen(r),
    },
    allPorts,
  );
  const heard: string[] = [];
  const parts = { transcript, session: state, signIn, endpoint, ports: allPorts, roots: ROOTS, get phase() { return status.phase; }, setStatus, loaded: () => heard.push('loaded'), gone: () => heard.push('gone') };
  lifecycle = new SessionLifecycle(runtime, false, parts, saved, forkFrom);
  return { lifecycle, signIn, transcript, state, phases, heard, status: () => status };
}

test('start opens a new session; concurrent starts share one', async () => {
  const { runtime, calls } = fakeRuntime(running());
  const s = session(runtime);
  await Promise.all([s.lifecycle.start(), s.lifecycle.start()]);
  assert.deepEqual(calls, ['start', 'new']);
  assert.deepEqual(s.phases, ['starting', 'ready']);
  assert.equal(s.lifecycle.sessionId, 'new-1');
  assert.equal(s.lifecycle.savedSessionId, 'new-1');
});

test('a saved conversation comes back with load (the transcript is replayed, so cleared) or resume; without either, it is re-attached without a request', async () => {
  const load = fakeRuntime(running({ loadSession: true }));
  const a = session(load.runtime, 'old-1');
  a.transcript.addUserPrompt('shown before the reload');
  await a.lifecycle.start();
  assert.deepEqual(load.calls, ['start', 'load old-1']);
  assert.equal(a.transcript.entries.length, 0);
  assert.equal(a.lifecycle.sessionId, 'old-1');
  assert.deepEqual(a.heard, ['loaded'], 'a load is announced: the agent may carry on with a turn');

  const resume = fakeRuntime(running({ loadSession: true, sessionCapabilities: { resume: {} } }));
  const b = session(resume.runtime, 'old-2');
  b.transcript.addUserPrompt('kept');
  await b.lifecycle.start();
  assert.deepEqual(resume.calls, ['start', 'resume old-2']);
  assert.equal(b.transcript.entries.length, 1, 'resume keeps what is shown');
  assert.deepEqual(b.heard, []);

  const neither = fakeRuntime(running());
  const c = session(neither.runtime, 'old-3');
  c.transcript.addUserPrompt('kept too');
  await c.lifecycle.start();
  assert.deepEqual(neither.calls, ['start', 'attach old-3'], 'routed to the saved id; no session/new');
  assert.equal(c.lifecycle.sessionId, 'old-3');
  assert.equal(c.lifecycle.reattached, true, 'until a prompt goes through, the agent may not know it');
  assert.deepEqual(c.transcript.entries.map((e) => e.kind), ['user'], 'nothing said: the next prompt decides');
  assert.equal(c.status().phase, 'ready');
});

test('a load that fails keeps what the transcript showed, says why, and opens a new session', async () => {
  const { runtime, calls } = fakeRuntime(running({ loadSession: true }), { reopen: () => Promise.reject(Object.assign(new Error('Internal error: store locked'), { code: -32603 })) });
  const s = session(runtime, 'old-1');
  s.transcript.addUserPrompt('shown before');
  s.transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'an answer' } }));
  await s.lifecycle.start();
  assert.deepEqual(calls, ['start', 'load old-1', 'new']);
  const [user, agent, note] = s.transcript.entries;
  assert.deepEqual([user, agent], [{ kind: 'user', text: 'shown before' }, { kind: 'agent', text: 'an answer' }]);
  assert.match(note.kind === 'error' ? note.message : '', /could not load the session: Internal error: store locked\. What follows is a new session/);
  assert.equal(s.lifecycle.sessionId, 'new-1');
  assert.deepEqual(s.heard, [], 'no load answered: nothing carries on');
});

test('a re-attached session the agent no longer knows: a new session takes its place, and is the one kept', async () => {
  const { runtime, calls } = fakeRuntime(running());
  const s = session(runtime, 'old-1');
  await s.lifecycle.start();
  const replacement = await s.lifecycle.openInstead(s.lifecycle.running!);
  assert.equal(replacement, 'new-1');
  assert.deepEqual(calls, ['start', 'attach old-1', 'detach', 'new']);
  assert.equal(s.lifecycle.sessionId, 'new-1');
  assert.equal(s.lifecycle.savedSessionId, 'new-1');
  assert.equal(s.lifecycle.reattached, false);
});

test('a fork opens with session/fork of its original once, with its roots; after that it comes back as a session of its own', async () => {
  const { runtime, calls, roots } = fakeRuntime(running({ loadSession: true, sessionCapabilities: { fork: {} } }));
  const s = session(runtime, undefined, {}, 'original-1');
  await s.lifecycle.start();
  assert.deepEqual(calls, ['start', 'fork original-1']);
  assert.equal(s.lifecycle.sessionId, 'fork-1');
  assert.equal(s.state.view.canFork, true, 'the agent advertises session/fork: its messages offer "Fork from here"');
  await s.lifecycle.restartProcess();
  await s.lifecycle.start();
  assert.deepEqual(calls.slice(2), ['stop', 'start', 'load fork-1'], 'a restart brings the fork back, it does not fork again');
  assert.deepEqual(roots, ['/w', '/w'], 'every opening gets the session\'s roots');

  const plain = fakeRuntime(running());
  const p = session(plain.runtime);
  await p.lifecycle.start();
  assert.equal(p.state.view.canFork, false, 'not advertised: no "Fork from here"');
});

test('a stop that overtakes a start opens nothing, and the process started for nobody is stopped', async () => {
  let open!: () => void;
  const { runtime, calls } = fakeRuntime(running(), { gate: new Promise<void>((r) => (open = r)) });
  const s = session(runtime);
  const started = s.lifecycle.start();
  await s.lifecycle.stop();
  open();
  await started;
  assert.equal(s.lifecycle.sessionId, undefined);
  assert.ok(!calls.includes('new'), 'no session/new for a stopped start');
  assert.equal(calls.filter((c) => c === 'stop').length, 1, 'the start was still claiming it when the stop came: the start, once over, stops it');
  assert.equal(s.status().phase, 'idle');
});

test('a crash answers what waited, shows how, and the session can start again', async () => {
  const { runtime } = fakeRuntime(running());
  const s = session(runtime);
  await s.lifecycle.start();
  const asked = s.transcript.questions.askPermission({ toolCallId: 't' }, [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]);
  s.lifecycle.agentExited('Fake exited with code 3.');
  assert.deepEqual(await asked, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(s.heard, ['gone'], 'a turn the agent carried on ends with it');
  assert.equal(s.status().phase, 'crashed');
  assert.equal(s.status().detail, 'Fake exited with code 3.');
  assert.equal(s.lifecycle.sessionId, undefined);
  await s.lifecycle.start();
  assert.equal(s.status().phase, 'ready');
});

test('-32000 on session/new shows the usable sign-in methods; authenticate runs the agent method, then opens the session', async () => {
  const requests: unknown[] = [];
  let refuse = true;
  const agent = running({}, [{ id: 'oauth', name: 'Log in' }, { id: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'KEY' }] }], async (...args) => (requests.push(args[1]), {}));
  const { runtime, calls } = fakeRuntime(agent, { openNew: async () => (refuse ? Promise.reject(AUTH_REQUIRED) : { sessionId: 'after-auth' }) });
  const s = session(runtime);
  await s.lifecycle.start();
  assert.equal(s.status().phase, 'auth');
  assert.deepEqual(s.status().authMethods?.map((m) => m.id), ['oauth'], 'env_var needs the secret ports, which this session lacks');
  assert.equal(s.signIn.pending, true);
  refuse = false;
  await s.signIn.authenticate('oauth');
  assert.deepEqual(requests, [{ methodId: 'oauth' }]);
  assert.equal(s.status().phase, 'ready');
  assert.equal(s.lifecycle.sessionId, 'after-auth');
  assert.deepEqual(calls, ['start', 'new', 'new']);
});

test('still -32000 right after a sign-in is reported as a failed sign-in, not another silent round', async () => {
  const agent = running({}, [{ id: 'oauth', name: 'Log in' }]);
  const { runtime } = fakeRuntime(agent, { openNew: () => Promise.reject(AUTH_REQUIRED) });
  const s = session(runtime);
  await s.lifecycle.start();
  await s.signIn.authenticate('oauth');
  assert.equal(s.status().phase, 'auth');
  assert.match(s.status().detail ?? '', /still asks to sign in after signing in with "Log in"/);
});
