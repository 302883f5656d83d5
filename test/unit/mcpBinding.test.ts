// Which agents get an MCP server (src/runtime/mcpServers.ts `receives`, the `agents` field of
// acpHost.mcpServers): by default the built-in agents and the user's own, never one a workspace
// defines or one installed from the ACP Registry; by name or "*" when the user says so. The
// consent prompt names the receivers of each server, and the servers a workspace agent would get.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { consentDetail } from '../../src/host/config/consentText';
import { agentProposals, mcpServerProposals } from '../../src/host/config/workspaceProposals';
import type { AgentOrigin } from '../../src/runtime/agentIdentity';
import { parseMcpServerSettings, serversFor } from '../../src/runtime/mcpServers';

function parse(raw: unknown): { servers: ReturnType<typeof parseMcpServerSettings>; reports: string[] } {
  const reports: string[] = [];
  return { servers: parseMcpServerSettings(raw, (m) => reports.push(m)), reports };
}

const { servers } = parse([
  { name: 'unbound', command: '/bin/mcp-a', env: { GITHUB_TOKEN: 'secret-value-1' } },
  { name: 'for-all', command: '/bin/mcp-b', agents: '*' },
  { name: 'for-mine', type: 'http', url: 'https://mcp.example.com', headers: { Authorization: 'Bearer x' }, agents: ['My agent', 'Claude Agent'] },
  { name: 'for-none', command: '/bin/mcp-c', agents: [] },
]);

const ORIGINS: Record<string, AgentOrigin> = {
  builtin: { kind: 'builtin' },
  user: { kind: 'user' },
  workspace: { kind: 'workspace', workspace: 'file:///w' },
  registry: { kind: 'registry', id: 'some-agent' },
};

describe('which servers an agent gets, by where it is defined', () => {
  const names = (name: string, origin?: AgentOrigin) => serversFor(servers, { name, origin }).map((s) => s.name);

  test('a preset or an agent of the user’s settings: unbound servers, servers for all, and servers naming it', () => {
    assert.deepEqual(names('Claude Agent', ORIGINS.builtin), ['unbound', 'for-all', 'for-mine']);
    assert.deepEqual(names('Gemini CLI', ORIGINS.builtin), ['unbound', 'for-all']);
    assert.deepEqual(names('My agent', ORIGINS.user), ['unbound', 'for-all', 'for-mine']);
    assert.deepEqual(names('Other', ORIGINS.user), ['unbound', 'for-all']);
  });

  test('an agent of a workspace’s settings or of the ACP Registry: only servers for all or naming it, never an unbound one', () => {
    assert.deepEqual(names('Project agent', ORIGINS.workspace), ['for-all']);
    assert.deepEqual(names('Some Agent', ORIGINS.registry), ['for-all']);
    assert.deepEqual(names('My agent', ORIGINS.registry), ['for-all', 'for-mine']);
  });

  test('an agent of unknown origin is treated as the least trusted', () => {
    assert.deepEqual(names('Anything'), ['for-all']);
  });
});

describe('the agents field', () => {
  test('"*" or a list of names is accepted; anything else is reported and the entry skipped', () => {
    assert.deepEqual(servers.map((s) => s.agents), [undefined, '*', ['My agent', 'Claude Agent'], []]);
    const { servers: kept, reports } = parse([
      { name: 'a', command: '/bin/a', agents: 'all' },
      { name: 'b', command: '/bin/b', agents: [''] },
      { name: 'c', command: '/bin/c', agents: [42] },
    ]);
    assert.deepEqual(kept, []);
    assert.equal(reports.length, 3);
    assert.ok(reports.every((r) => /^Ignored MCP server "[abc]" in acpHost\.mcpServers: .* at agents/.test(r)), reports.join('\n'));
  });
});

describe('the consent prompt names who gets each server', () => {
  const context = { replaces: () => undefined, mcpServersOf: () => [] };
  test('each server of the workspace’s says which agents get it (and so its env and headers)', () => {
    const detail = consentDetail(mcpServerProposals([], servers), context).text;
    const blocks = detail.split('\n\n');
    assert.match(blocks[0], /given to: the built-in agents and those of your own settings \(not those of a workspace’s settings or of the ACP Registry\)$/);
    assert.match(blocks[1], /given to: every agent, including those of a workspace’s settings and of the ACP Registry$/);
    assert.match(blocks[2], /given to: only "My agent", "Claude Agent"$/);
    assert.match(blocks[3], /given to: no agent$/);
  });

  test('a workspace agent’s block lists the MCP servers it would get', () => {
    const agent = agentProposals([], [{ name: 'Claude Agent', command: '/bin/evil', args: [], env: {} }]);
    const detail = consentDetail(agent, { replaces: () => 'the built-in', mcpServersOf: (name) => serversFor(servers, { name, origin: ORIGINS.workspace }).map((s) => s.name) }).text;
    assert.match(detail, /gets MCP servers \(with their env and headers\): "for-all", "for-mine"/);
  });
});
