// Real subprocesses: the scripted fake agents of test/fixtures/agents, started through
// startAgent (AgentProcess + AcpConnection + initialize) the way the extension starts them.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startAgent } from '../../src/agent/launch';
import { AgentStartError } from '../../src/agent/startError';
import type { RunningAgent, StartOptions } from '../../src/agent/launch';
import type { LaunchSpec } from '../../src/agent/process';
import { ConnectionClosedError } from '../../src/agent/connectionErrors';
import type { AcpConnection } from '../../src/agent/connection';
import { currentEnv } from '../../src/agent/environment';
import { LineTail } from '../../src/agent/lineTail';
import { agentMethods, clientMethods } from '../../src/protocol';
import type { SessionNotification } from '../../src/protocol';
import { recordingLog, until } from './helpers/streams';
import type { RecordingLog } from './helpers/streams';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const SLOW = { timeout: 30_000 };

function launchSpec(fixture: string, env: Record<string, string> = {}): LaunchSpec {
  return {
    command: process.execPath,
    args: [path.join(FIXTURES, fixture)],
    cwd: os.tmpdir(),
    env: { ...currentEnv(), FAKE_CHUNK_DELAY_MS: '1', ...env },
  };
}

function startOptions(log: RecordingLog, overrides: Partial<StartOptions> = {}): StartOptions {
  return {
    name: 'Fake agent',
    clientInfo: { name: 'acp-host-tests', version: '0.0.0' },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false },
    initializeTimeoutMs: 10_000,
    log,
    ...overrides,
  };
}

/** startAgent that collects session/update notifications, and serves fs/permission if asked. */
async function start(fixture: string, env: Record<string, string> = {}, overrides: Partial<StartOptions> = {}, serve?: (c: AcpConnection) => void) {
  const log = recordingLog();
  const updates: SessionNotification[] = [];
  const agent = await startAgent(launchSpec(fixture, env), startOptions(log, overrides), (connection) => {
    connection.onNotification(clientMethods.sessionUpdate, (n) => updates.push(n));
    serve?.(connection);
  });
  return { agent, log, updates };
}

async function startFailure(fixture: string, env: Record<string, string> = {}, overrides: Partial<StartOptions> = {}, spec: LaunchSpec = launchSpec(fixture, env)) {
  const log = recordingLog();
  const error = await startAgent(spec, startOptions(log, overrides)).then(
    async (agent) => {
      await stop(agent);
      assert.fail(`${fixture} was expected not to start`);
    },
    (e: unknown) => e,
  );
  assert.ok(error instanceof AgentStartError, `expected an AgentStartError, got ${String(error)}`);
  return error;
}

const chunkText = (n: SessionNotification) =>
  n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : undefined;

/** session/new + one session/prompt; returns the stop reason and the streamed text. */
async function turn(agent: RunningAgent, updates: SessionNotification[], text: string) {
  const { sessionId } = await agent.connection.request(agentMethods.sessionNew, { cwd: os.tmpdir(), mcpServers: [] });
  const from = updates.length;
  const { stopReason } = await agent.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: [{ type: 'text', text }] });
  const streamed = updates.slice(from).filter((n) => n.sessionId === sessionId).map(chunkText).join('');
  return { stopReason, streamed };
}

async function stop(agent: RunningAgent) {
  agent.connection.dispose();
  return agent.process.shutdown({ graceMs: 1000, termMs: 1000 });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

describe('startAgent: agents that do not come up', () => {
  test('a crash during initialize fails as "exited" with the exit code and the stderr tail', SLOW, async () => {
    const error = await startFailure('crash-on-initialize.js');
    assert.equal(error.failure, 'exited');
    assert.equal(error.exit?.code, 3);
    assert.deepEqual(error.stderrTail.slice(-4), [
      'fatal: missing config /home/user/.config/fake-agent/config.json',
      'Error: cannot start without a config',
      '    at loadConfig (/opt/fake-agent/dist/cli.js:12:34)',
      '    at main (/opt/fake-agent/dist/cli.js:56:7)',
    ]);
    assert.match(error.message, /exited with code 3/);
    assert.match(error.message, /fatal: missing config/);
    assert.match(error.message, /cannot start without a config/);
  });

  test('another exit code is reported as it is', SLOW, async () => {
    const error = await startFailure('crash-on-initialize.js', { FAKE_EXIT_CODE: '17' });
    assert.equal(error.failure, 'exited');
    assert.equal(error.exit?.code, 17);
  });

  test('an agent that never answers fails as "timeout" within the configured initializeTimeoutMs', SLOW, async () => {
    const started = Date.now();
    const error = await startFailure('hang.js', {}, { initializeTimeoutMs: 500 });
    const elapsed = Date.now() - started;
    assert.equal(error.failure, 'timeout');
    assert.match(error.message, /did not answer initialize/);
    assert.ok(elapsed < 8000, `gave up only after ${elapsed} ms`);
    assert.ok(error.exit, 'the hung agent was stopped, with its exit reported');
  });

  test('a command that does not exist fails as "not-found", naming the command', SLOW, async () => {
    const command = 'acp-host-test-no-such-agent';
    const error = await startFailure('', {}, {}, { command, args: [], cwd: os.tmpdir(), env: currentEnv() });
    assert.equal(error.failure, 'not-found');
    assert.match(error.message, new RegExp(command));
    // Looked up on PATH before anything is spawned (agent/executables.ts).
    assert.equal(error.exit, undefined);
  });

  test('a working directory that does not exist is not reported as a missing command', SLOW, async () => {
    const cwd = path.join(os.tmpdir(), 'acp-host-test-no-such-dir', 'deeper');
    const error = await startFailure('well-behaved.js', {}, {}, { ...launchSpec('well-behaved.js'), cwd });
    // node reports a bad cwd as ENOENT of the *command*; the user must be told about the directory.
    assert.match(error.message, /acp-host-test-no-such-dir/, `message: ${error.message}`);
  });

  test('a slow initialize succeeds within a long enough timeout', SLOW, async () => {
    const { agent } = await start('slow-initialize.js', { FAKE_INIT_DELAY_MS: '400' }, { initializeTimeoutMs: 10_000 });
    try {
      assert.equal(agent.initialize.protocolVersion, 1);
      assert.equal(agent.initialize.agentInfo?.name, 'fake-slow-initialize');
    } finally {
      await stop(agent);
    }
  });
});

describe('startAgent: agents with a messy stdout', () => {
  test('garbage on stdout: initialize, session/new and a prompt turn still work; the junk is logged', SLOW, async () => {
    const { agent, log, updates } = await start('garbage-stdout.js');
    try {
      assert.equal(agent.initialize.agentInfo?.name, 'fake-garbage-stdout');
      const result = await turn(agent, updates, 'hello through the noise');
      assert.equal(result.stopReason, 'end_turn');
      assert.equal(result.streamed, 'hello through the noise');
      assert.match(log.text('warn'), /npm WARN config production/);
      assert.match(log.text('warn'), /Malformed JSON/);
    } finally {
      await stop(agent);
    }
  });

  test('a huge line (8 MiB, cap 1 MiB) is dropped and reported with its size; the turn still works', SLOW, async () => {
    const bytes = 8 * 1024 * 1024;
    const { agent, log, updates } = await start('huge-line.js', { FAKE_HUGE_BYTES: String(bytes) }, { maxLineBytes: 1024 * 1024 });
    try {
      const result = await turn(agent, updates, 'after the flood');
      assert.equal(result.stopReason, 'end_turn');
      assert.equal(result.streamed, 'after the flood');
      await until('the drop to be logged', () => (log.text('error').includes(`${bytes} bytes`) ? true : undefined));
    } finally {
      await stop(agent);
    }
  });

  test('string and integer request ids from the agent: every answer reaches its own request', SLOW, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-ids-'));
    const file = path.join(dir, 'read-me.txt');
    const content = 'line one\nline two — ünïcödé\n';
    writeFileSync(file, content);
    const serve = (c: AcpConnection) => {
      c.onRequest(clientMethods.fsReadTextFile, (p) => ({ content: readFileSync(p.path, 'utf8') }));
      c.onRequest(clientMethods.sessionRequestPermission, (p) => {
        const option = p.options.find((o) => o.kind === 'allow_once') ?? p.options[0];
        return { outcome: { outcome: 'selected' as const, optionId: option.optionId } };
      });
    };
    const { agent, updates } = await start('string-ids.js', { FAKE_READ_PATH: file, FAKE_REQUEST_TIMEOUT_MS: '5000' }, {}, serve);
    try {
      const result = await turn(agent, updates, 'go');
      assert.equal(result.stopReason, 'end_turn');
      const n = content.length;
      assert.equal(
        result.streamed,
        `string ids: read:${n} chars; permission:str-allow-once | integer ids: read:${n} chars; permission:int-allow-once | ok`,
      );
    } finally {
      await stop(agent);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('AgentProcess: exits and shutdown', () => {
  test('an agent that exits mid-turn rejects the pending prompt and reports exit code 42', SLOW, async () => {
    const { agent, updates } = await start('exit-mid-turn.js');
    try {
      const { sessionId } = await agent.connection.request(agentMethods.sessionNew, { cwd: os.tmpdir(), mcpServers: [] });
      const prompt = agent.connection.request(agentMethods.sessionPrompt, { sessionId, prompt: [{ type: 'text', text: 'work' }] });
      await assert.rejects(prompt, ConnectionClosedError);
      const exit = await agent.process.exited;
      assert.equal(exit.code, 42);
      assert.equal(agent.process.hasExited, true);
      assert.deepEqual(updates.map(chunkText), ['Working on it… ']);
      await until('the last stderr line', () =>
        agent.process.stderrTail.last().some((l) => l.includes('connection to the model backend was reset')) ? true : undefined,
      );
    } finally {
      await stop(agent);
    }
  });

  test('a well-behaved agent ends on stdin EOF, well within the grace period, with code 0', SLOW, async () => {
    const stderrLines: string[] = [];
    const { agent } = await start('well-behaved.js', {}, { onStderrLine: (l) => stderrLines.push(l) });
    agent.connection.dispose();
    const started = Date.now();
    const exit = await agent.process.shutdown({ graceMs: 5000, termMs: 2000 });
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null });
    assert.ok(Date.now() - started < 10_000);
    assert.ok(stderrLines.some((l) => /started \(pid \d+\)/.test(l)), `stderr lines reach onStderrLine: ${JSON.stringify(stderrLines)}`);
  });

  test('an agent that ignores EOF and SIGTERM is ended with its child: the whole group is killed', SLOW, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-pids-'));
    const pidFile = path.join(dir, 'pids.json');
    const { agent } = await start('ignore-eof.js', { FAKE_PID_FILE: pidFile });
    let pids: { agent: number; child: number } | undefined;
    try {
      pids = await until('the pid file', () => {
        try {
          return JSON.parse(readFileSync(pidFile, 'utf8')) as { agent: number; child: number };
        } catch {
          return undefined;
        }
      });
      assert.equal(pids.agent, agent.process.pid);
      assert.ok(alive(pids.agent) && alive(pids.child), 'both run before shutdown');
      agent.connection.dispose();
      const started = Date.now();
      const exit = await agent.process.shutdown({ graceMs: 300, termMs: 300 });
      assert.ok(Date.now() - started < 10_000, 'shutdown does not hang');
      assert.equal(exit.signal, 'SIGKILL', 'it took SIGKILL, as it ignores the rest');
      const { agent: agentPid, child: childPid } = pids;
      // A killed orphan is reaped by init, which may take a moment; ESRCH means truly gone.
      await until('the agent and its child to be gone', () => (!alive(agentPid) && !alive(childPid) ? true : undefined), 10_000);
    } finally {
      for (const pid of pids ? [pids.agent, pids.child] : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('LineTail', () => {
  test('keeps only the last maxLines lines', () => {
    const tail = new LineTail(5, 100);
    tail.push(Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n') + '\n');
    assert.deepEqual(tail.last(100), ['line 7', 'line 8', 'line 9', 'line 10', 'line 11']);
    assert.deepEqual(tail.last(2), ['line 10', 'line 11']);
  });

  test('the bound holds across many pushes', () => {
    const tail = new LineTail(3, 100);
    for (let i = 0; i < 1000; i++) tail.push(`l${i}\n`);
    assert.deepEqual(tail.last(10), ['l997', 'l998', 'l999']);
  });

  test('push returns the lines it completed; \\r\\n and a line split across chunks are handled', () => {
    const tail = new LineTail();
    assert.deepEqual(tail.push('first\r\nsec'), ['first']);
    assert.deepEqual(tail.push('ond\r'), []);
    assert.deepEqual(tail.push('\nthird\n'), ['second', 'third']);
    assert.deepEqual(tail.last(), ['first', 'second', 'third']);
  });

  test('an unterminated last line is part of last(), and completes later', () => {
    const tail = new LineTail();
    tail.push('done\npartial');
    assert.deepEqual(tail.last(), ['done', 'partial']);
    tail.push(' line\n');
    assert.deepEqual(tail.last(), ['done', 'partial line']);
  });

  test('a long line is clipped to maxLineChars with its length noted', () => {
    const tail = new LineTail(10, 50);
    const [line] = tail.push(`${'m'.repeat(5000)}\n`);
    assert.equal(line, `${'m'.repeat(50)}… (5000 chars)`);
    assert.deepEqual(tail.last(), [line]);
  });

  test('a never-ending line (a minified dump without newline) stays bounded in memory', () => {
    const tail = new LineTail(10, 50);
    for (let i = 0; i < 100; i++) tail.push('z'.repeat(10_000));
    const [partial] = tail.last();
    assert.ok(partial.length < 100, `the partial line grew to ${partial.length} chars`);
    assert.ok(partial.startsWith('z'.repeat(50)));
  });

  test('a long line that arrives in several chunks is clipped like the same line in one chunk', () => {
    const whole = new LineTail(10, 50);
    const split = new LineTail(10, 50);
    const text = 'abcdefghij'.repeat(30); // 300 chars
    whole.push(`${text}\n`);
    split.push(text.slice(0, 100));
    split.push(text.slice(100, 200));
    split.push(`${text.slice(200)}\n`);
    assert.deepEqual(split.last(), whole.last());
  });
});
