// Workspace consent in the real extension host. The workspace's settings (written with
// ConfigurationTarget.Workspace into the test folder's .vscode/settings.json, as a cloned repo
// would bring them) redefine the "Claude Agent" preset, add an agent and add an MCP server. Their
// commands are test/fixtures/agents/marker-agent.js, which writes a marker file the moment it
// runs. Nothing of the workspace's runs until the user allows it; the modal is replaced through
// host.config.consent.prompter (it records what it was shown), and ACP: Manage Workspace Agent
// Consent's picker through host.config.consent.picker. A secret stored for the built-in Claude Agent
// never reaches the workspace's command of that name.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ConsentAnswer, ConsentRequest } from '../../src/host/config/workspaceConsent';
import { launchIdentity } from '../../src/runtime/agentIdentity';
import { commandLine } from '../../src/runtime/presets';
import { api, find, until } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const WS_TOKEN = 'ws-token-value-123';
const config = () => vscode.workspace.getConfiguration('acpHost');
const nodeAgent = (name: string, script: string, ...args: string[]) => ({
  name,
  command: process.execPath,
  args: [path.join(FIXTURES, script), ...args],
  env: { ELECTRON_RUN_AS_NODE: '1', WS_TOKEN },
});

/** The mcpServers of the session/new the agent got (well-behaved.js's `__report__`). */
async function mcpServerNames(): Promise<string[]> {
  const { host } = await api();
  const controller = host.controller;
  await controller.prompt('__report__');
  const report = await until('the report', () => find(controller, 'agent').at(-1)?.text);
  const sessionNew = (JSON.parse(report) as { method?: string; params: { mcpServers: { name: string }[] } }[]).find((m) => m.method === 'session/new');
  return (sessionNew?.params.mcpServers ?? []).map((s) => s.name);
}

suite('workspace consent', function () {
  this.timeout(60000);
  let dir: string;
  let markers: { claude: string; project: string };
  const asked: ConsentRequest[] = [];
  let answer: ConsentAnswer;
  let restorePrompter: () => void;

  setup(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-consent-it-'));
    markers = { claude: path.join(dir, 'claude-ran'), project: path.join(dir, 'project-ran') };
    asked.length = 0;
    answer = undefined;
    const { host } = await api();
    const original = host.config.consent.prompter;
    host.config.consent.prompter = async (request) => (asked.push(request), answer);
    restorePrompter = () => (host.config.consent.prompter = original);
    await config().update(
      'agents',
      [nodeAgent('Claude Agent', 'marker-agent.js', markers.claude), nodeAgent('Project agent', 'marker-agent.js', markers.project)],
      vscode.ConfigurationTarget.Workspace,
    );
    await config().update('mcpServers', [{ name: 'workspace-mcp', command: process.execPath, args: ['--version'] }], vscode.ConfigurationTarget.Workspace);
  });

  teardown(async () => {
    const { host } = await api();
    for (const tab of host.tabs.all) await tab.controller.stop();
    for (const decision of host.config.consent.decisions()) await host.config.consent.revoke(decision.key);
    await host.secrets.forget();
    restorePrompter();
    for (const key of ['agents', 'mcpServers']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    for (const key of ['agents', 'defaultAgent']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('none of the workspace’s commands runs without consent; the prompt shows the command lines; a refusal is kept', async () => {
    const { host } = await api();
    const claude = host.agentChoices().find((a) => a.name === 'Claude Agent');
    assert.strictEqual(claude?.identity, launchIdentity({ kind: 'builtin' }, '', []), 'the preset keeps its built-in definition');
    assert.doesNotMatch(claude?.commandLine ?? '', /marker-agent/);
    assert.match(host.agentChoices().find((a) => a.name === 'Project agent')?.note ?? '', /asks before it runs/);

    // Dismissed: nothing is decided and nothing starts.
    await host.chooseAgent('Project agent');
    assert.strictEqual(asked.length, 1, 'asked once');
    const { detail } = asked[0];
    assert.ok(detail.includes(commandLine(process.execPath, [path.join(FIXTURES, 'marker-agent.js'), markers.project])), detail);
    assert.ok(detail.includes('environment variables set: ELECTRON_RUN_AS_NODE, WS_TOKEN'), detail);
    assert.ok(detail.includes(`MCP server "workspace-mcp"`) && detail.includes(commandLine(process.execPath, ['--version'])), detail);
    assert.ok(!detail.includes(WS_TOKEN), 'env values are not shown');
    assert.ok(!detail.includes(markers.claude), 'an agent not being started is not part of the question');
    assert.deepStrictEqual(asked[0].proposals.map((p) => p.name), ['Project agent', 'workspace-mcp']);
    assert.strictEqual(host.controller.currentStatus.phase, 'idle');
    assert.deepStrictEqual(host.config.consent.decisions(), []);

    // Refused: remembered; the workspace's agent says why it does not run.
    answer = 'deny';
    await host.startAgent('Project agent');
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(host.controller.currentStatus.phase, 'crashed');
    assert.match(host.controller.currentStatus.detail ?? '', /defined by this workspace’s settings and was not allowed/);
    assert.deepStrictEqual(host.config.consent.decisions().map((d) => [d.name, d.allowed]), [['Project agent', false], ['workspace-mcp', false]]);
    assert.ok(!host.agentChoices().some((a) => a.name === 'Project agent'), 'a refused workspace agent is not offered');

    // The user's own agent starts without a question, and without the refused MCP server.
    await config().update('agents', [{ name: 'Reporter', command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')], env: { ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
    await host.chooseAgent('Reporter');
    assert.strictEqual(host.controller.currentStatus.phase, 'ready', host.controller.currentStatus.detail);
    assert.strictEqual(asked.length, 2, 'decided: not asked again');
    assert.deepStrictEqual(await mcpServerNames(), []);
    assert.ok(!fs.existsSync(markers.project) && !fs.existsSync(markers.claude), 'no workspace command ever ran');
  });

  test('allowed, the workspace’s Claude Agent runs without the built-in one’s stored secret; revoked, it stops and does not run again', async () => {
    const { host } = await api();
    const builtin = host.agentChoices().find((a) => a.name === 'Claude Agent');
    assert.ok(builtin);
    await host.secrets.store(builtin, 'ANTHROPIC_API_KEY', 'sk-builtin-secret-value');

    answer = 'allow';
    await host.chooseAgent('Claude Agent');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0].detail, /as agent "Claude Agent" \(instead of the built-in Claude Agent\)/);
    const controller = host.controller;
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    const ran = JSON.parse(fs.readFileSync(markers.claude, 'utf8')) as { envNames: string[] };
    assert.ok(ran.envNames.includes('WS_TOKEN'), 'it ran, with its own env');
    assert.ok(!ran.envNames.includes('ANTHROPIC_API_KEY'), 'the secret stored for the built-in Claude Agent did not reach it');
    assert.notStrictEqual(controller.runtime.agent.identity, builtin.identity);
    assert.deepStrictEqual(await host.secrets.stored(controller.runtime.agent), {});
    assert.deepStrictEqual(await host.secrets.stored(builtin), { ANTHROPIC_API_KEY: 'sk-builtin-secret-value' }, 'still the built-in one’s');
    // Allowed, but not bound to it (`agents`): an agent of a workspace's settings gets only servers bound to it or to "*".
    assert.deepStrictEqual(await mcpServerNames(), [], 'an unbound MCP server does not reach a workspace agent’s session/new');
    assert.ok(!fs.existsSync(markers.project), 'the other workspace agent was not part of this consent');

    // Revoked with ACP: Manage Workspace Agent Consent: its process stops, and the preset is back.
    const original = host.config.consent.picker;
    host.config.consent.picker = async (decisions) => decisions.find((d) => d.name === 'Claude Agent');
    try {
      await vscode.commands.executeCommand('acpHost.manageWorkspaceConsent');
    } finally {
      host.config.consent.picker = original;
    }
    assert.strictEqual(controller.runtime.current, undefined, 'stopped');
    assert.deepStrictEqual(host.config.consent.decisions().map((d) => d.name), ['workspace-mcp']);
    assert.strictEqual(host.agentChoices().find((a) => a.name === 'Claude Agent')?.identity, builtin.identity);
    fs.rmSync(markers.claude);

    // The panel's Restart reuses the stopped process's definition: its launch refuses.
    await host.handleIntent({ type: 'restart' });
    assert.strictEqual(controller.currentStatus.phase, 'crashed');
    assert.match(controller.currentStatus.detail ?? '', /waits for your consent/);
    // A start asks again (dismissed here, so the built-in one does not start either).
    answer = undefined;
    await host.startSession();
    assert.strictEqual(asked.length, 2, 'asked again');
    assert.deepStrictEqual(asked[1].proposals.map((p) => p.name), ['Claude Agent']);
    assert.ok(!fs.existsSync(markers.claude), 'revoked: it did not run again');
  });

  test('a .code-workspace file inside the folder does not widen what an agent may read: only the folders VS Code has open count', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder);
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'outside the workspace\n');
    const workspaceFile = path.join(folder, 'wide.code-workspace');
    fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: '.' }, { path: '/' }, { path: dir }] }));
    try {
      const { host } = await api();
      answer = 'deny'; // the workspace's MCP server: not needed here
      await config().update('agents', [{ name: 'Files', command: process.execPath, args: [path.join(FIXTURES, 'fs-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
      await host.chooseAgent('Files');
      assert.strictEqual(host.controller.currentStatus.phase, 'ready', host.controller.currentStatus.detail);
      assert.strictEqual(vscode.workspace.workspaceFolders?.length, 1);
      await host.controller.prompt(JSON.stringify({ read: outside }));
      const result = JSON.parse(await until('the answer', () => find(host.controller, 'agent').at(-1)?.text)) as { ok: boolean; code?: number; message?: string };
      assert.strictEqual(result.ok, false);
      assert.strictEqual(result.code, -32602);
      assert.match(result.message ?? '', /outside the workspace folders/);
    } finally {
      fs.rmSync(workspaceFile, { force: true });
    }
  });
});
