// ACP: Browse Agents… in the real extension host, against a registry served from this machine
// (127.0.0.1, a port of the test's own): a binary agent is installed from a .tar.gz built here
// (its sha256 in the index), is executable, joins the agent picker, starts and answers; a wrong
// checksum is refused and leaves nothing; an update installs the new version and removes the old;
// uninstall removes it; with the registry gone, the cached index is shown and the list says so.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import * as tar from 'tar';
import * as vscode from 'vscode';
import { platformKey } from '../../src/runtime/registry/distribution';
import type { PickItem } from '../../src/host/registry/registryBrowser';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const NAME = 'Fake Registry Agent';
const INDEX_ARGS = ['--acp', 'two words'];

/** A .tar.gz holding bin/agent, a launcher of registry-agent.js that says which version it is. */
async function archive(version: string): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-archive-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  const launcher = `#!/bin/sh\nexec '${process.execPath}' '${path.join(FIXTURES, 'registry-agent.js')}' --version ${version} -- "$@"\n`;
  // Not executable in the archive: the install must make it so.
  fs.writeFileSync(path.join(dir, 'bin', 'agent'), launcher, { mode: 0o644 });
  const file = path.join(dir, 'agent.tar.gz');
  await tar.c({ gzip: true, file, cwd: dir, portable: true }, ['bin']);
  return fs.readFileSync(file);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

suite('ACP Registry', function () {
  this.timeout(60000);
  const routes = new Map<string, Buffer>();
  let server: http.Server;
  let base = '';
  const picks: ((items: readonly PickItem[], options: { title: string }) => PickItem | undefined)[] = [];
  const shown: { items: readonly PickItem[]; title: string }[] = [];

  function serveIndex(version: string, data: Buffer): void {
    routes.set(`/agent-${version}.tar.gz`, data);
    const binary = (archiveName: string, sum: string) => ({
      [platformKey()!]: {
        archive: `${base}/${archiveName}`,
        cmd: './bin/agent',
        args: INDEX_ARGS,
        env: { ELECTRON_RUN_AS_NODE: '1', REGISTRY_AGENT_ENV: 'from-the-index', REGISTRY_AGENT_EXPECT_ARGS: JSON.stringify(INDEX_ARGS) },
        sha256: sum,
      },
    });
    const index = {
      version: '1.0.0',
      agents: [
        { id: 'fake-registry', name: NAME, version, description: 'A scripted agent', authors: ['Tests'], license: 'MIT', distribution: { binary: binary(`agent-${version}.tar.gz`, sha256(data)) } },
        { id: 'bad-sum', name: 'Bad Checksum Agent', version: '1.0.0', description: 'Its archive is not what the index says', distribution: { binary: binary(`agent-${version}.tar.gz`, 'f'.repeat(64)) } },
        { id: 'npx-agent', name: 'Npx Agent', version: '3.1.0', description: 'Runs with npx', distribution: { npx: { package: '@acme/npx-agent', args: ['--acp'], env: { NPX_AGENT: '1' } } } },
        { id: 'broken' },
      ],
      extensions: [],
    };
    routes.set('/registry.json', Buffer.from(JSON.stringify(index)));
  }

  /** Runs ACP: Browse Agents… with `choose` answering its QuickPicks in turn. */
  async function browse(...choose: typeof picks): Promise<void> {
    picks.push(...choose);
    await (await api()).host.registry.browse();
    assert.strictEqual(picks.length, 0, 'every expected QuickPick was shown');
  }
  const row = (id: string) => (items: readonly PickItem[]) => items.find((i) => i.row?.id === id);
  const action = (label: RegExp) => (items: readonly PickItem[]) => items.find((i) => label.test(i.label));

  suiteSetup(async () => {
    assert.ok(platformKey(), `the registry has binaries for this platform (${process.platform}-${process.arch})`);
    server = http.createServer((req, res) => {
      const body = routes.get(req.url ?? '');
      res.writeHead(body ? 200 : 404, { 'content-length': body?.length ?? 0 });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    serveIndex('1.0.0', await archive('1.0.0'));
    await vscode.workspace.getConfiguration('acpHost').update('registryUrl', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
    const { host } = await api();
    host.registry.browser.pick = async (items, options) => {
      shown.push({ items, title: options.title });
      const next = picks.shift();
      assert.ok(next, `an unexpected QuickPick: ${options.title}`);
      return next(items, options);
    };
  });

  suiteTeardown(async () => {
    await closeSessionsAndAgents();
    await vscode.workspace.getConfiguration('acpHost').update('registryUrl', undefined, vscode.ConfigurationTarget.Global);
    server?.close();
  });

  test('the list shows name, version, license and authors; a binary installs through the command, executable, and joins the agent picker', async () => {
    picks.push(row('fake-registry'));
    await vscode.commands.executeCommand('acpHost.browseAgents');
    assert.strictEqual(picks.length, 0);
    const listed = shown.at(-1)!;
    assert.strictEqual(listed.title, 'ACP Registry');
    assert.deepStrictEqual(listed.items.map((i) => i.row?.id), ['bad-sum', 'fake-registry', 'npx-agent'], 'the broken entry is skipped, the rest listed');
    const item = listed.items.find((i) => i.row?.id === 'fake-registry')!;
    assert.strictEqual(item.description, 'v1.0.0 · MIT');
    assert.strictEqual(item.detail, 'A scripted agent — by Tests — downloads its binary');

    const { host } = await api();
    const installed = await until('the install', () => host.registry.installed.get('fake-registry'));
    assert.strictEqual(installed.version, '1.0.0');
    assert.strictEqual(path.basename(installed.dir!), '1.0.0');
    assert.strictEqual(installed.command, path.join(installed.dir!, 'bin', 'agent'));
    fs.accessSync(installed.command, fs.constants.X_OK);
    assert.deepStrictEqual(installed.args, INDEX_ARGS);
    const choice = host.agentChoices().find((a) => a.name === NAME);
    assert.ok(choice, 'in the agent picker');
    assert.strictEqual(choice.note, 'from the ACP Registry, 1.0.0');

    const controller = await useAgent(NAME);
    assert.strictEqual(controller.currentStatus.phase, 'ready', controller.currentStatus.detail);
    await controller.prompt('version?');
    await until('its answer', () => find(controller, 'agent').at(-1)?.text === 'registry-agent 1.0.0' || undefined);
    await closeSessionsAndAgents();
  });

  test('a download that does not match its sha256 is refused and leaves nothing', async () => {
    const { host } = await api();
    const agentsRoot = path.dirname(path.dirname(host.registry.installed.get('fake-registry')!.dir!));
    picks.push(row('bad-sum'));
    await assert.rejects(host.registry.browse(), /does not match its checksum/);
    assert.strictEqual(host.registry.installed.get('bad-sum'), undefined);
    assert.ok(!fs.existsSync(path.join(agentsRoot, 'bad-sum')), 'no folder left');
    assert.ok(!host.agentChoices().some((a) => a.name === 'Bad Checksum Agent'));
  });

  test('an update: "update available" in the list, the new version installed and started, the old folder removed', async () => {
    const { host } = await api();
    const old = host.registry.installed.get('fake-registry')!;
    serveIndex('2.0.0', await archive('2.0.0'));
    await browse(row('fake-registry'), action(/^Update to 2\.0\.0$/));
    const item = shown.at(-2)!.items.find((i) => i.row?.id === 'fake-registry')!;
    assert.strictEqual(item.description, 'v2.0.0 · MIT · installed · update available: 1.0.0 → 2.0.0');
    assert.deepStrictEqual(shown.at(-1)!.items.map((i) => i.label), ['Update to 2.0.0', 'Start a session with it', 'Uninstall']);
    const updated = host.registry.installed.get('fake-registry')!;
    assert.strictEqual(updated.version, '2.0.0');
    assert.ok(fs.existsSync(updated.command));
    assert.ok(!fs.existsSync(old.dir!), 'the old version’s folder is gone');
    const controller = await useAgent(NAME);
    await controller.prompt('version?');
    await until('its answer', () => find(controller, 'agent').at(-1)?.text === 'registry-agent 2.0.0' || undefined);
    await closeSessionsAndAgents();
  });

  test('an npx agent: its pinned command line, the index’s env, started outside the workspace', async () => {
    await browse(row('npx-agent'));
    const { host } = await api();
    const choice = host.agentChoices().find((a) => a.name === 'Npx Agent');
    assert.ok(choice, 'in the agent picker');
    assert.strictEqual(choice.commandLine, 'npx -y @acme/npx-agent@3.1.0 --acp');
    const spec = await choice.launch();
    assert.deepStrictEqual([spec.command, ...spec.args], ['npx', '-y', '@acme/npx-agent@3.1.0', '--acp']);
    assert.strictEqual(spec.env.NPX_AGENT, '1');
    const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.ok(path.relative(workspace, spec.cwd).startsWith('..'), `npx does not start in the workspace (${spec.cwd})`);
    await browse(row('npx-agent'), action(/^Uninstall$/));
    assert.ok(!host.agentChoices().some((a) => a.name === 'Npx Agent'));
  });

  test('offline: the last good index is shown, and the list says so', async () => {
    routes.clear(); // the registry answers 404 from now on
    await browse(() => undefined);
    const listed = shown.at(-1)!;
    assert.match(listed.title, /^ACP Registry \(Offline: showing the registry as of .+\)$/);
    assert.match(listed.items[0].label, /^Offline: showing the registry as of/);
    assert.strictEqual(listed.items[0].kind, vscode.QuickPickItemKind.Separator);
    assert.ok(listed.items.some((i) => i.row?.id === 'fake-registry' && i.row.state === 'installed'));
  });

  test('uninstall: out of the picker, its folder deleted', async () => {
    const { host } = await api();
    const installed = host.registry.installed.get('fake-registry')!;
    await browse(row('fake-registry'), action(/^Uninstall$/));
    assert.strictEqual(host.registry.installed.get('fake-registry'), undefined);
    assert.ok(!fs.existsSync(path.dirname(installed.dir!)), 'agents/fake-registry is gone');
    assert.ok(!host.agentChoices().some((a) => a.name === NAME));
  });
});
