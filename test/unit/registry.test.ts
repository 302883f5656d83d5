// The ACP Registry's index and what ACP Host makes of it, in plain Node (src/runtime/registry/):
// parsing a real-looking index (all three distributions, unknown fields, broken entries), this
// machine's platform key, the distribution chosen and its command line, version order, URLs.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseRegistryIndex } from '../../src/runtime/registry/registrySchema';
import type { RegistryAgent } from '../../src/runtime/registry/registrySchema';
import { binaryLaunch, chooseDistribution, insideFolder, packageLaunch, pinnedPackage, platformKey } from '../../src/runtime/registry/distribution';
import { compareVersions } from '../../src/runtime/registry/versions';
import { listing, plain } from '../../src/runtime/registry/listing';
import { refusedUrl } from '../../src/runtime/registry/download';
import { parseInstalled } from '../../src/runtime/registry/installed';
import type { InstalledAgent } from '../../src/runtime/registry/installed';

const FIXTURE = JSON.parse(readFileSync(path.resolve(__dirname, '../../../test/fixtures/registry/registry.json'), 'utf8'));
const index = parseRegistryIndex(FIXTURE);
const agent = (id: string): RegistryAgent => {
  const found = index.agents.find((a) => a.id === id);
  assert.ok(found, id);
  return found;
};

describe('the registry index', () => {
  test('valid agents are kept in order, unknown fields ignored; each broken entry is skipped with its reason', () => {
    assert.deepEqual(index.agents.map((a) => a.id), ['gemini', 'claude-code-acp', 'fast-agent', 'codex-acp', 'opencode']);
    assert.equal(index.skipped.length, 5);
    assert.match(index.skipped[0], /"Bad Id".*at id/);
    assert.match(index.skipped[1], /"no-distribution".*names no binary, npx or uvx/);
    assert.match(index.skipped[2], /"bad-archive".*at distribution\.binary\.linux-x86_64\.archive/);
    assert.match(index.skipped[3], /agent 8 \(id null\)/);
    assert.match(index.skipped[4], /"gemini".*a second agent with that id/);
    assert.equal(agent('gemini').name, 'Gemini CLI', 'the first entry of an id wins');
    assert.ok(!('futureField' in agent('fast-agent')));
    assert.deepEqual(agent('claude-code-acp').authors, ['Anthropic', 'Zed Industries']);
    assert.equal(agent('fast-agent').description, 'An agent framework run with uv');
    assert.equal(agent('codex-acp').distribution.binary?.['linux-x86_64'].sha256, '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
  });

  test('what is not an index at all is an error that says so', () => {
    assert.throws(() => parseRegistryIndex({ version: '1.0.0' }), /not an ACP Registry index/);
    assert.throws(() => parseRegistryIndex([]), /not an ACP Registry index/);
    assert.deepEqual(parseRegistryIndex({ agents: [] }), { agents: [], skipped: [] });
  });

  test('a version that could name another folder is refused', () => {
    const entry = (version: string) => ({ agents: [{ id: 'a', name: 'A', version, description: 'd', distribution: { npx: { package: 'a' } } }] });
    assert.equal(parseRegistryIndex(entry('1.2.3')).agents.length, 1);
    assert.equal(parseRegistryIndex(entry('1.2.3-beta.1+build')).agents.length, 1);
    assert.equal(parseRegistryIndex(entry('1.2.3/../../x')).agents.length, 0);
    assert.equal(parseRegistryIndex(entry('..')).agents.length, 0);
  });
});

describe('this machine', () => {
  test('platform keys as the format names them; none for a platform it does not', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('linux', 'arm64'), 'linux-aarch64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('darwin', 'x64'), 'darwin-x86_64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
    assert.equal(platformKey('freebsd', 'x64'), undefined);
    assert.equal(platformKey('linux', 'ia32'), undefined);
  });

  test('the binary for this platform first, else npx, else uvx; nothing when none runs here', () => {
    assert.equal(chooseDistribution(agent('codex-acp'), 'linux-x86_64')?.kind, 'binary');
    assert.equal(chooseDistribution(agent('codex-acp'), 'linux-aarch64')?.kind, 'npx');
    assert.equal(chooseDistribution(agent('codex-acp'), undefined)?.kind, 'npx');
    assert.equal(chooseDistribution(agent('fast-agent'), 'linux-x86_64')?.kind, 'uvx');
    assert.equal(chooseDistribution(agent('opencode'), 'windows-x86_64'), undefined);
    // A key inherited from Object.prototype is no platform.
    assert.equal(chooseDistribution(agent('opencode'), 'constructor' as never), undefined);
  });
});

describe('launch commands', () => {
  test('packages are pinned to the index’s version unless they name one', () => {
    assert.equal(pinnedPackage('@google/gemini-cli@0.27.3', '0.27.3'), '@google/gemini-cli@0.27.3');
    assert.equal(pinnedPackage('@zed-industries/claude-code-acp', '0.16.0'), '@zed-industries/claude-code-acp@0.16.0');
    assert.equal(pinnedPackage('fast-agent-acp', '0.4.2'), 'fast-agent-acp@0.4.2');
    assert.equal(pinnedPackage('fast-agent-acp==0.4.1', '0.4.2'), 'fast-agent-acp==0.4.1');
  });

  test('npx -y (npx.cmd on Windows) and uvx, with the index’s args and env', () => {
    const claude = agent('claude-code-acp').distribution.npx!;
    assert.deepEqual(packageLaunch('npx', claude, '0.16.0', 'linux'), {
      kind: 'npx',
      command: 'npx',
      args: ['-y', '@zed-industries/claude-code-acp@0.16.0'],
      env: { ACP_PERMISSION_MODE: 'default' },
    });
    assert.equal(packageLaunch('npx', claude, '0.16.0', 'win32').command, 'npx.cmd');
    const gemini = agent('gemini').distribution.npx!;
    assert.deepEqual(packageLaunch('npx', gemini, '0.27.3', 'linux').args, ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp']);
    assert.deepEqual(packageLaunch('uvx', agent('fast-agent').distribution.uvx!, '0.4.2', 'linux'), {
      kind: 'uvx',
      command: 'uvx',
      args: ['fast-agent-acp@0.4.2', 'serve', '--transport', 'acp'],
      env: {},
    });
  });

  test('a binary runs its cmd inside its folder, with its args', () => {
    const target = agent('opencode').distribution.binary!['linux-x86_64'];
    assert.deepEqual(binaryLaunch(target, '/store/agents/opencode/1.1.53'), { kind: 'binary', command: '/store/agents/opencode/1.1.53/opencode', args: ['acp'], env: {} });
    assert.throws(() => binaryLaunch({ ...target, cmd: '../../bin/sh' }, '/store/agents/opencode/1.1.53'), /outside/);
  });

  test('zip-slip: names that are absolute or climb out are refused, the rest resolve inside', () => {
    const root = '/store/agents/x/1.0.0';
    for (const bad of ['../evil', 'a/../../evil', '/etc/passwd', 'C:\\Windows\\evil.exe', 'c:evil', '..\\evil', '\\\\server\\share\\x', '', 'a\0b']) {
      assert.throws(() => insideFolder(root, bad), /outside|not a relative path/, JSON.stringify(bad));
    }
    assert.equal(insideFolder(root, './bin/agent'), '/store/agents/x/1.0.0/bin/agent');
    assert.equal(insideFolder(root, 'a/../b'), '/store/agents/x/1.0.0/b');
    assert.equal(insideFolder(root, 'dir\\agent.exe'), '/store/agents/x/1.0.0/dir/agent.exe');
  });
});

describe('versions', () => {
  test('semantic order: numbers, not text; a pre-release before its release; build metadata ignored', () => {
    assert.ok(compareVersions('0.10.0', '0.9.2') > 0);
    assert.ok(compareVersions('1.0.0', '1.0.1') < 0);
    assert.ok(compareVersions('2.0.0', '10.0.0') < 0);
    assert.equal(compareVersions('1.2.3', '1.2.3'), 0);
    assert.equal(compareVersions('1.2.3+a', '1.2.3+b'), 0);
    assert.ok(compareVersions('1.2.3-beta.1', '1.2.3') < 0);
    assert.ok(compareVersions('1.2.3-beta.2', '1.2.3-beta.10') < 0);
    assert.ok(compareVersions('1.2.3-alpha', '1.2.3-beta') < 0);
    assert.ok(compareVersions('1.2.3-1', '1.2.3-alpha') < 0, 'numeric identifiers first');
    assert.ok(compareVersions('1.2.3-beta', '1.2.3-beta.1') < 0);
  });
});

describe('the list', () => {
  const installed: InstalledAgent[] = [
    { id: 'opencode', name: 'OpenCode', version: '1.1.50', kind: 'binary', command: '/s/opencode', args: ['acp'], env: {}, dir: '/s' },
    { id: 'gone', name: 'Gone Agent', version: '2.0.0', kind: 'npx', command: 'npx', args: ['-y', 'gone@2.0.0'], env: {} },
  ];
  const rows = listing(index.agents, installed, 'linux-x86_64');

  test('installed agents first (one the index no longer lists too), then the rest by name', () => {
    assert.deepEqual(rows.map((r) => r.label), ['Gone Agent', 'OpenCode', 'Claude Code', 'Codex CLI', 'fast-agent', 'Gemini CLI']);
  });

  test('version, license, installed and "update available: x → y"; description, authors and how it installs', () => {
    const opencode = rows.find((r) => r.id === 'opencode')!;
    assert.equal(opencode.state, 'update');
    assert.equal(opencode.description, 'v1.1.53 · MIT · installed · update available: 1.1.50 → 1.1.53');
    assert.equal(opencode.detail, 'The open source coding agent — by Anomaly — downloads its binary');
    const claude = rows.find((r) => r.id === 'claude-code-acp')!;
    assert.equal(claude.state, 'available');
    assert.equal(claude.detail, 'ACP adapter for Claude Code — by Anthropic, Zed Industries — runs with npx (Node.js)');
    const gone = rows.find((r) => r.id === 'gone')!;
    assert.equal(gone.state, 'installed');
    assert.equal(gone.latest, undefined);
    assert.match(gone.description, /installed 2\.0\.0/);
  });

  test('an agent with nothing for this platform says so', () => {
    const opencodeOnWindows = listing(index.agents, [], 'windows-x86_64').find((r) => r.id === 'opencode')!;
    assert.equal(opencodeOnWindows.state, 'unavailable');
    assert.match(opencodeOnWindows.description, /not available for windows-x86_64/);
  });

  test('registry text stays text: one line, clipped, no codicon', () => {
    assert.equal(plain('a\n b\t c'), 'a b c');
    assert.equal(plain('$(alert) x'), '$\u200b(alert) x');
    assert.equal(plain('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  });
});

describe('urls and the installed list', () => {
  test('https anywhere; http only to this machine; nothing else', () => {
    assert.equal(refusedUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json'), undefined);
    assert.equal(refusedUrl('http://127.0.0.1:8080/registry.json'), undefined);
    assert.equal(refusedUrl('http://localhost/registry.json'), undefined);
    assert.match(refusedUrl('http://example.com/registry.json') ?? '', /only https/);
    assert.match(refusedUrl('file:///etc/passwd') ?? '', /only https/);
    assert.match(refusedUrl('not a url') ?? '', /not a URL/);
  });

  test('installed records are validated when read back: a bad one is reported and dropped, one per id', () => {
    const reports: string[] = [];
    const good = { id: 'a', name: 'A', version: '1.0.0', kind: 'npx', command: 'npx', args: [], env: {} };
    const parsed = parseInstalled([good, { ...good, kind: 'script' }, { ...good, name: 'A again' }, 'x'], (m) => reports.push(m));
    assert.deepEqual(parsed, [good]);
    assert.equal(reports.length, 2);
    assert.deepEqual(parseInstalled(undefined, (m) => reports.push(m)), []);
    assert.deepEqual(parseInstalled({}, (m) => reports.push(m)), []);
    assert.match(reports.at(-1) ?? '', /not a list/);
  });
});
