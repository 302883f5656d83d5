// Choosing the agent in the real extension host: the presets next to configured agents, a switch
// through the panel's chooseAgent intent (the old agent stops, the new one starts, the choice is
// remembered), a missing command's install hint, and acpHost.mcpServers reaching session/new.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, find, until, useAgent } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const fake = (name: string, env: Record<string, string> = {}) => ({
  name,
  command: process.execPath,
  args: [path.join(FIXTURES, 'well-behaved.js')],
  env: { ELECTRON_RUN_AS_NODE: '1', ...env },
});
const config = () => vscode.workspace.getConfiguration('acpHost');

suite('choosing agents', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('defaultAgent', undefined, vscode.ConfigurationTarget.Global);
  });

  test('the picker lists the demo agent, the presets, then configured agents; a same-named entry replaces its preset', async () => {
    await config().update('agents', [fake('Mine'), { name: 'Gemini CLI', command: '/opt/gemini-nightly/bin/gemini', args: ['--acp'] }], vscode.ConfigurationTarget.Global);
    const { host } = await api();
    const choices = host.agentChoices();
    assert.deepStrictEqual(choices.map((a) => a.name), ['Demo agent', 'Claude Code', 'Codex', 'Gemini CLI', 'opencode', 'GitHub Copilot CLI', 'goose', 'Qwen Code', 'Mine']);
    assert.strictEqual(choices.find((a) => a.name === 'Gemini CLI')?.commandLine, '/opt/gemini-nightly/bin/gemini --acp');
    assert.match(choices.find((a) => a.name === 'Codex')?.commandLine ?? '', /@zed-industries\/codex-acp$/);
  });

  test('chooseAgent stops the current agent, starts the chosen one and remembers it as acpHost.defaultAgent', async () => {
    await config().update('agents', [fake('Alpha'), fake('Beta')], vscode.ConfigurationTarget.Global);
    const alpha = await useAgent('Alpha');
    assert.strictEqual(alpha.currentStatus.phase, 'ready', alpha.currentStatus.detail);
    const { host } = await api();

    await host.handleIntent({ type: 'chooseAgent', name: 'Beta' });
    const beta = host.controller;
    assert.notStrictEqual(beta, alpha, 'a new controller');
    assert.strictEqual(beta.currentStatus.agentName, 'Beta');
    assert.strictEqual(beta.currentStatus.phase, 'ready', beta.currentStatus.detail);
    assert.strictEqual(alpha.currentStatus.phase, 'idle', 'the old agent was stopped');
    assert.strictEqual(config().get('defaultAgent'), 'Beta');
    await beta.prompt('hi from Beta');
    assert.match(find(beta, 'agent').map((e) => e.text).join(''), /hi from Beta/);

    // An unknown name changes nothing.
    await host.handleIntent({ type: 'chooseAgent', name: 'Nobody' });
    assert.strictEqual(host.controller, beta);
    assert.strictEqual(config().get('defaultAgent'), 'Beta');
  });

  // The preset install hints are checked in test/unit/presets.test.ts against a controller whose
  // command cannot exist; here the real host shows a missing custom command in words.
  test('a custom agent whose command is missing says where it is configured, not a bare ENOENT', async () => {
    const { host } = await api();
    await config().update('agents', [{ name: 'Ghost', command: 'acp-host-no-such-agent-command' }], vscode.ConfigurationTarget.Global);
    await host.handleIntent({ type: 'chooseAgent', name: 'Ghost' });
    const ghost = host.controller;
    assert.strictEqual(ghost.currentStatus.phase, 'crashed');
    assert.match(ghost.currentStatus.detail ?? '', /"acp-host-no-such-agent-command" was not found on PATH\.\nCheck the command in acpHost\.agents or your PATH\./);
    assert.doesNotMatch(ghost.currentStatus.detail ?? '', /ENOENT/);
    assert.ok(find(ghost, 'error').some((e) => e.message === ghost.currentStatus.detail), 'the transcript says it too');
  });

  test('acpHost.mcpServers reach session/new; an http server is skipped for an agent without mcpCapabilities.http', async () => {
    await config().update(
      'mcpServers',
      [
        { name: 'local', command: process.execPath, args: ['--version'], env: { TOKEN: 'secret' } },
        { name: 'remote', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer secret' } },
        { name: 'broken', type: 'http' },
      ],
      vscode.ConfigurationTarget.Global,
    );
    const controller = await useAgent('Reporter', 'well-behaved.js', { FAKE_AGENT_CAPABILITIES: '{}' });
    await controller.prompt('__report__');
    const report = await until('the report', () => find(controller, 'agent').at(-1)?.text);
    const sessionNew = (JSON.parse(report) as { method?: string; params: { mcpServers: unknown } }[]).find((m) => m.method === 'session/new');
    assert.deepStrictEqual(sessionNew?.params.mcpServers, [{ name: 'local', command: process.execPath, args: ['--version'], env: [{ name: 'TOKEN', value: 'secret' }] }]);
  });
});
