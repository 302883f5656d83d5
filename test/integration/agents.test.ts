// Choosing the agent in the real extension host: the presets next to configured agents, a switch
// through the panel's chooseAgent intent (the old agent stops, the new one starts, the choice is
// remembered), a missing command's install hint, and acpHost.mcpServers reaching session/new.
import * as assert from 'assert';
import * as fs from 'fs';
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
    assert.deepStrictEqual(choices.map((a) => a.name), ['Demo agent', 'Claude Agent', 'Codex', 'Gemini CLI', 'opencode', 'GitHub Copilot CLI', 'goose', 'Qwen Code', 'Mine']);
    assert.strictEqual(choices.find((a) => a.name === 'Gemini CLI')?.commandLine, '/opt/gemini-nightly/bin/gemini --acp');
    assert.match(choices.find((a) => a.name === 'Codex')?.commandLine ?? '', /@agentclientprotocol\/codex-acp@2\.6\.0$/);
  });

  test('an entry named "Claude Code" (the preset\'s former name) replaces Claude Agent in place, under its own name', async () => {
    await config().update('agents', [{ name: 'Claude Code', command: 'claude-code-acp' }], vscode.ConfigurationTarget.Global);
    const names = (await api()).host.agentChoices().map((a) => a.name);
    assert.deepStrictEqual(names.slice(0, 3), ['Demo agent', 'Claude Code', 'Codex']);
    assert.ok(!names.includes('Claude Agent'));
  });

  test('secrets of the built-in "Claude Code" move to "Claude Agent"; one Claude Agent has already keeps its value; a user\'s own "Claude Code" keeps its own', async () => {
    const { host } = await api();
    const builtin = (name: string) => ({ name, identity: 'builtin' });
    const own = { name: 'Claude Code', identity: JSON.stringify(['command', 'claude-code-acp']) };
    try {
      await host.secrets.store(builtin('Claude Code'), 'ANTHROPIC_API_KEY', 'old-name-key');
      await host.secrets.store(builtin('Claude Code'), 'EXTRA_TOKEN', 'old-name-token');
      await host.secrets.store(builtin('Claude Agent'), 'EXTRA_TOKEN', 'new-name-token');
      await host.secrets.store(own, 'ANTHROPIC_API_KEY', 'own-key');
      await host.secrets.moveRenamedPresets();
      assert.deepStrictEqual(await host.secrets.stored(builtin('Claude Agent')), { EXTRA_TOKEN: 'new-name-token', ANTHROPIC_API_KEY: 'old-name-key' });
      assert.deepStrictEqual(await host.secrets.stored(builtin('Claude Code')), {});
      assert.deepStrictEqual(await host.secrets.stored(own), { ANTHROPIC_API_KEY: 'own-key' });
    } finally {
      await host.secrets.forget('Claude Agent');
      await host.secrets.forget('Claude Code');
    }
  });

  test('npx presets start outside the workspace, the others in it; no launch carries the extension host\'s internals', async () => {
    const internal = (env: Record<string, string>) => Object.keys(env).filter((k) => /^(ELECTRON_|VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)$))/.test(k));
    assert.ok(internal(process.env as Record<string, string>).length > 0, 'the extension host has internals of its own to keep out');
    await config().update('environment', 'inherit', vscode.ConfigurationTarget.Global);
    try {
      await config().update('agents', [fake('Mine')], vscode.ConfigurationTarget.Global);
      const choices = (await api()).host.agentChoices();
      const launch = (name: string) => choices.find((a) => a.name === name)!.launch();
      const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
      for (const name of ['Claude Agent', 'Codex', 'GitHub Copilot CLI']) {
        const spec = await launch(name);
        assert.ok(!spec.cwd.startsWith(workspace), `${name} runs in ${spec.cwd}`);
        assert.ok(fs.existsSync(path.join(spec.cwd, 'package.json')), 'a project root of its own');
        assert.deepStrictEqual(internal(spec.env), [], name);
      }
      const gemini = await launch('Gemini CLI');
      assert.strictEqual(gemini.cwd, workspace);
      assert.deepStrictEqual(internal(gemini.env), []);
      // What an entry sets itself is the user's word: the fixture needs ELECTRON_RUN_AS_NODE.
      assert.deepStrictEqual(internal((await launch('Mine')).env), ['ELECTRON_RUN_AS_NODE']);
      // The demo agent runs on the extension host's own binary, as Node.
      const demo = await launch('Demo agent');
      assert.deepStrictEqual(internal(demo.env), ['ELECTRON_RUN_AS_NODE']);
      assert.strictEqual(demo.env.ELECTRON_RUN_AS_NODE, '1');
    } finally {
      await config().update('environment', undefined, vscode.ConfigurationTarget.Global);
    }
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
    assert.match(ghost.currentStatus.detail ?? '', /"acp-host-no-such-agent-command" was not found on PATH \(relative PATH entries and folders of the workspace are not searched\)\.\nCheck the command in acpHost\.agents or your PATH\./);
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
