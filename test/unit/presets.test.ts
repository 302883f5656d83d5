// Agent presets: the launch commands, the fallback to older ACP flags, and what the panel says
// when a command is missing; the last two also through a controller and real processes.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentStartError } from '../../src/agent/launch';
import type { StartFailure } from '../../src/agent/launch';
import { currentEnv } from '../../src/agent/environment';
import { AgentSession } from '../../src/session/agentSession';
import type { AgentDefinition } from '../../src/runtime/ports';
import { agentPresets, commandLine, notFoundHint, shouldTryFallback, startFailureDetail, startWithFallback } from '../../src/runtime/presets';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const startError = (failure: StartFailure, message = `failed: ${failure}`) => new AgentStartError(failure, message, undefined, []);

describe('presets', () => {
  test('the seven agents, in order, with their ACP launch commands and an install hint each', () => {
    const presets = agentPresets('linux');
    assert.deepEqual(
      presets.map((p) => [p.name, commandLine(p.command, p.args)]),
      [
        ['Claude Code', 'npx -y @zed-industries/claude-code-acp'],
        ['Codex', 'npx -y @zed-industries/codex-acp'],
        ['Gemini CLI', 'gemini --acp'],
        ['opencode', 'opencode acp'],
        ['GitHub Copilot CLI', 'npx -y @github/copilot --acp'],
        ['goose', 'goose acp'],
        ['Qwen Code', 'qwen --acp'],
      ],
    );
    for (const p of presets) assert.ok(p.install.length > 10, `${p.name} has an install hint`);
    assert.match(presets[0].install, /claude-agent-acp/, 'the Claude hint mentions the newer adapter');
    assert.match(presets[2].install, /npm install -g @google\/gemini-cli/);
    assert.deepEqual(presets[2].fallbackArgs, [['--experimental-acp']]);
    assert.deepEqual(new Set(presets.map((p) => p.name)).size, presets.length, 'names are unique');
  });

  test('on Windows the npx launcher is npx.cmd', () => {
    const byName = new Map(agentPresets('win32').map((p) => [p.name, p.command]));
    assert.equal(byName.get('Claude Code'), 'npx.cmd');
    assert.equal(byName.get('GitHub Copilot CLI'), 'npx.cmd');
    assert.equal(byName.get('Gemini CLI'), 'gemini');
  });

  test('commandLine quotes what a shell would split', () => {
    assert.equal(commandLine('/opt/My Agent/bin/agent', ['--stdio', '']), '"/opt/My Agent/bin/agent" --stdio ""');
  });
});

describe('fallback arguments', () => {
  test('only a program that ran but did not initialize is worth another argument list', () => {
    assert.equal(shouldTryFallback(startError('exited')), true);
    assert.equal(shouldTryFallback(startError('protocol')), true);
    for (const failure of ['not-found', 'spawn-failed', 'timeout', 'unsupported-version'] as const) {
      assert.equal(shouldTryFallback(startError(failure)), false, failure);
    }
    assert.equal(shouldTryFallback(new Error('exited')), false);
  });

  test('tries the fallbacks in order after "exited", and stops at the first success', async () => {
    const tried: string[][] = [];
    const retries: string[] = [];
    const result = await startWithFallback(
      ['--acp'],
      [['--experimental-acp'], ['--third']],
      async (args) => {
        tried.push([...args]);
        if (args[0] === '--experimental-acp') return 'running';
        throw startError('exited');
      },
      (failed, next) => retries.push(`${failed.join(' ')} -> ${next.join(' ')}`),
    );
    assert.equal(result, 'running');
    assert.deepEqual(tried, [['--acp'], ['--experimental-acp']]);
    assert.deepEqual(retries, ['--acp -> --experimental-acp']);
  });

  test('a missing command or a timeout is not retried; the last error is what is thrown', async () => {
    for (const failure of ['not-found', 'timeout'] as const) {
      let calls = 0;
      await assert.rejects(
        startWithFallback(['--acp'], [['--experimental-acp']], async () => {
          calls++;
          throw startError(failure);
        }),
        (error: AgentStartError) => error.failure === failure,
      );
      assert.equal(calls, 1, failure);
    }
    let calls = 0;
    await assert.rejects(
      startWithFallback(['--acp'], [['--experimental-acp']], async () => {
        throw startError('exited', `attempt ${++calls}`);
      }),
      /attempt 2/,
    );
    assert.equal(calls, 2);
  });
});

describe('a missing command', () => {
  test('the detail names the command and how to install it (preset) or where it is configured (custom)', () => {
    const error = startError('not-found', 'Could not start Gemini CLI: the command "gemini" was not found on PATH.');
    const gemini = agentPresets('linux').find((p) => p.name === 'Gemini CLI')!;
    assert.equal(
      startFailureDetail('Gemini CLI', error, notFoundHint(gemini.install)),
      'Could not start Gemini CLI: the command "gemini" was not found on PATH.\nTo install it: npm install -g @google/gemini-cli (see https://github.com/google-gemini/gemini-cli)',
    );
    assert.match(startFailureDetail('Mine', error, undefined), /\nCheck the command in acpHost\.agents or your PATH\.$/);
    assert.equal(startFailureDetail('Mine', startError('exited', 'Mine exited with code 1'), 'hint'), 'Mine exited with code 1', 'no hint for other failures');
    assert.equal(startFailureDetail('Mine', new Error('Open a folder first'), 'hint'), 'Could not start Mine: Open a folder first');
  });
});

// ---- through the controller, with real processes

type ConnectionLogLike = { info(m: string): void; warn(m: string): void; error(m: string): void };
const silent: ConnectionLogLike = { info() {}, warn() {}, error() {} };

function recordingLog() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) } };
}

function controller(agent: AgentDefinition, log: ConnectionLogLike = silent): AgentSession {
  return new AgentSession(
    agent,
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    { readTextFile: async () => 'x', log, onTrace: () => undefined },
  );
}

test('controller: an agent that exits on its first flag is started again with the fallback flag', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-flag-'));
  const argvLog = path.join(dir, 'argv.log');
  const { lines, log } = recordingLog();
  const c = controller(
    {
      name: 'Flaggy',
      identity: 'test',
      launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'flag-agent.js'), '--acp-new'], cwd: FIXTURES, env: { ...currentEnv(), FAKE_ARGV_LOG: argvLog } }),
      fallbackArgs: [[path.join(FIXTURES, 'flag-agent.js'), '--acp-old']],
    },
    log,
  );
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'ready');
    const tried = readFileSync(argvLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);
    assert.deepEqual(tried, [['--acp-new'], ['--acp-old']]);
    assert.ok(lines.some((l) => /exited with code 2.*Trying again with: .*--acp-old/.test(l)), lines.join('\n'));
    assert.equal(c.transcript.entries.filter((e) => e.kind === 'error').length, 0, 'a successful fallback is not an error in the chat');
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('controller: a missing command crashes with the install hint in the detail, not a bare ENOENT', async () => {
  const gemini = agentPresets('linux').find((p) => p.name === 'Gemini CLI')!;
  const c = controller({
    name: 'Gemini CLI',
    identity: 'builtin',
    launch: async () => ({ command: 'acp-host-test-no-such-gemini', args: ['--acp'], cwd: FIXTURES, env: currentEnv() }),
    fallbackArgs: gemini.fallbackArgs,
    notFoundHint: notFoundHint(gemini.install),
  });
  try {
    await c.start();
    assert.equal(c.currentStatus.phase, 'crashed');
    const detail = c.currentStatus.detail ?? '';
    assert.match(detail, /the command "acp-host-test-no-such-gemini" was not found on PATH/);
    assert.match(detail, /To install it: npm install -g @google\/gemini-cli/);
    assert.doesNotMatch(detail, /ENOENT/);
  } finally {
    await c.stop();
  }
});
