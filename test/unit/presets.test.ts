// Agent presets: the launch commands, the fallback to older ACP flags, and what the panel says
// when a command is missing; the last two also through a controller and real processes.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentStartError } from '../../src/agent/startError';
import type { StartFailure } from '../../src/agent/startError';
import { currentEnv } from '../../src/agent/environment';
import { AgentSession } from '../../src/session/agentSession';
import type { AgentDefinition } from '../../src/runtime/ports';
import { agentPresets, commandLine, findAgent, notFoundHint, shouldTryFallback, startFailureDetail, startWithFallback } from '../../src/runtime/presets';
import { PRESETS } from '../../src/runtime/presetCatalog';
import { npxDirectory } from '../../src/runtime/npxDirectory';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const startError = (failure: StartFailure, message = `failed: ${failure}`) => new AgentStartError(failure, message, undefined, []);

describe('presets', () => {
  test('the seven agents, in order, with their ACP launch commands and an install hint each', () => {
    const presets = agentPresets('linux');
    assert.deepEqual(
      presets.map((p) => [p.name, commandLine(p.command, p.args)]),
      [
        ['Claude Agent', 'npx -y @agentclientprotocol/claude-agent-acp@0.101.0'],
        ['Codex', 'npx -y @agentclientprotocol/codex-acp@2.6.0'],
        ['Gemini CLI', 'gemini --acp'],
        ['opencode', 'opencode acp'],
        ['GitHub Copilot CLI', 'npx -y @github/copilot@1.0.102 --acp'],
        ['goose', 'goose acp'],
        ['Qwen Code', 'qwen --acp'],
      ],
    );
    for (const p of presets) assert.ok(p.install.length > 10, `${p.name} has an install hint`);
    assert.match(presets[0].install, /@agentclientprotocol\/claude-agent-acp/);
    assert.match(presets[2].install, /npm install -g @google\/gemini-cli/);
    assert.deepEqual(presets[2].fallbackArgs, [['--experimental-acp']]);
    assert.deepEqual(new Set(presets.map((p) => p.name)).size, presets.length, 'names are unique');
  });

  test('on Windows the npx launcher is npx.cmd', () => {
    const byName = new Map(agentPresets('win32').map((p) => [p.name, p.command]));
    assert.equal(byName.get('Claude Agent'), 'npx.cmd');
    assert.equal(byName.get('GitHub Copilot CLI'), 'npx.cmd');
    assert.equal(byName.get('Gemini CLI'), 'gemini');
  });

  test('commandLine quotes what a shell would split', () => {
    assert.equal(commandLine('/opt/My Agent/bin/agent', ['--stdio', '']), '"/opt/My Agent/bin/agent" --stdio ""');
  });
});

describe('the preset catalog', () => {
  const EXACT = /^\d+\.\d+\.\d+$/;

  test('every npx preset runs an exact version, the one it was checked with, from outside the workspace', () => {
    const npx = PRESETS.filter((p) => 'npx' in p.launch);
    assert.deepEqual(npx.map((p) => p.name), ['Claude Agent', 'Codex', 'GitHub Copilot CLI']);
    for (const entry of npx) {
      const launch = entry.launch as { npx: string; version: string };
      assert.match(launch.version, EXACT, `${entry.name} is pinned`);
      assert.equal(entry.checked?.version, launch.version, `${entry.name} runs the version it was checked with`);
      const preset = agentPresets('linux').find((p) => p.name === entry.name)!;
      assert.deepEqual(preset.args.slice(0, 2), ['-y', `${launch.npx}@${launch.version}`]);
      assert.equal(preset.outsideWorkspace, true);
    }
    for (const preset of agentPresets('linux').filter((p) => p.command !== 'npx')) assert.equal(preset.outsideWorkspace, false, `${preset.name} runs in the workspace`);
  });

  test('the packages frozen by their 2026 renames are gone from the presets', () => {
    const launched = agentPresets('linux').flatMap((p) => p.args).join(' ');
    assert.doesNotMatch(launched, /@zed-industries\//);
  });

  test('every check has a version and a date; only goose (not on npm) is unchecked', () => {
    for (const entry of PRESETS.filter((p) => p.checked)) {
      assert.match(entry.checked!.version, EXACT, entry.name);
      assert.match(entry.checked!.on, /^\d{4}-\d{2}-\d{2}$/, entry.name);
    }
    assert.deepEqual(PRESETS.filter((p) => !p.checked).map((p) => p.name), ['goose']);
  });

  test('a former name belongs to one preset and is no current name', () => {
    const presets = agentPresets('linux');
    assert.deepEqual(presets.filter((p) => p.formerNames.length > 0).map((p) => [p.name, p.formerNames]), [['Claude Agent', ['Claude Code']]]);
    const names = new Set(presets.map((p) => p.name));
    assert.deepEqual(presets.flatMap((p) => p.formerNames).filter((n) => names.has(n)), []);
  });
});

describe('a former name', () => {
  const listed = (...names: string[]) => names.map((name) => ({ name }));

  test('finds the renamed preset (acpHost.defaultAgent written for an older release)', () => {
    assert.deepEqual(findAgent(listed('Demo agent', 'Claude Agent', 'Codex'), 'Claude Code', 'linux'), { name: 'Claude Agent' });
    assert.deepEqual(findAgent(listed('Demo agent', 'Claude Agent'), 'Claude Agent', 'linux'), { name: 'Claude Agent' });
  });

  test('finds the agent that still goes by it (an acpHost.agents entry named so), not the preset', () => {
    assert.deepEqual(findAgent(listed('Claude Code', 'Codex', 'Claude Agent'), 'Claude Code', 'linux'), { name: 'Claude Code' });
  });

  test('an unknown name finds nothing', () => {
    assert.equal(findAgent(listed('Demo agent', 'Claude Agent'), 'Claude', 'linux'), undefined);
  });
});

describe('the npx directory', () => {
  test('is made once, a project root of its own (a package.json), and kept as it is after', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'acp-npxdir-'));
    try {
      const dir = npxDirectory(root);
      assert.equal(dir, path.join(root, 'npx'));
      const manifest = path.join(dir, 'package.json');
      assert.equal((JSON.parse(readFileSync(manifest, 'utf8')) as { private: boolean }).private, true);
      writeFileSync(manifest, '{"private":true,"name":"touched"}');
      assert.equal(npxDirectory(root), dir);
      assert.equal(readFileSync(manifest, 'utf8'), '{"private":true,"name":"touched"}', 'not rewritten');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // Why: npx runs the copy of a package that the project around its cwd holds. Offline, with a
  // package only the "workspace" has: found there, not from the npx directory.
  test('npx in a workspace that holds the package runs the workspace\'s copy; from the npx directory it does not', { timeout: 60_000, skip: process.platform === 'win32' }, () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'acp-npxrun-'));
    try {
      const workspace = path.join(root, 'workspace');
      const pkg = path.join(workspace, 'node_modules', 'acp-host-test-agent');
      mkdirSync(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ name: 'cloned', dependencies: { 'acp-host-test-agent': '1.0.0' } }));
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'acp-host-test-agent', version: '1.0.0', bin: { 'acp-host-test-agent': 'bin.js' } }));
      writeFileSync(path.join(pkg, 'bin.js'), '#!/usr/bin/env node\nconsole.log("the workspace decided what runs")\n', { mode: 0o755 });
      symlinkSync('../acp-host-test-agent/bin.js', path.join(workspace, 'node_modules', '.bin', 'acp-host-test-agent'));
      const npx = (cwd: string) => spawnSync('npx', ['--offline', '-y', 'acp-host-test-agent@1.0.0'], { cwd, encoding: 'utf8', env: { ...currentEnv(), npm_config_cache: path.join(root, 'cache') } });
      assert.match(npx(workspace).stdout, /the workspace decided what runs/);
      const outside = npx(npxDirectory(root));
      assert.doesNotMatch(outside.stdout, /the workspace decided/);
      assert.notEqual(outside.status, 0, 'offline, with nothing cached, there is nothing to run');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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

test('controller: an agent started in the npx directory still opens its session in the workspace', { skip: process.platform !== 'linux' }, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'acp-npxcwd-'));
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'acp-workspace-'));
  const npxDir = npxDirectory(root);
  const c = new AgentSession(
    { name: 'Pinned', identity: 'builtin', launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], cwd: npxDir, env: currentEnv() }) },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: workspace, clientVersion: '0.0.0-test' },
    { readTextFile: async () => 'x', log: silent, onTrace: () => undefined },
  );
  try {
    await c.prompt('__report__');
    const pid = c.runtime.current!.process.pid!;
    assert.equal(readlinkSync(`/proc/${pid}/cwd`), npxDir, 'the process runs in the npx directory');
    const report = c.transcript.entries.filter((e) => e.kind === 'agent').at(-1);
    assert.ok(report && report.kind === 'agent');
    const sessionNew = (JSON.parse(report.text) as { method?: string; params: { cwd: string } }[]).find((m) => m.method === 'session/new');
    assert.equal(sessionNew?.params.cwd, workspace, 'session/new names the workspace');
  } finally {
    await c.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
});
