// The extension manifest and the packaged VSIX: what a user installs. `npm test` packages the
// VSIX before the unit tests run; run `npm run package` first when running this file alone.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as yauzl from 'yauzl';
import { COMMAND_IDS } from '../../src/host/panel/actions';
import { COMMENT_COMMANDS, COMMENT_CONTROLLER_ID } from '../../src/host/comments/commentCommands';

const REPO = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));

function vsixEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('manifest', () => {
  test('identity: acp-host, "ACP Host", runs where the files are', () => {
    assert.equal(`${manifest.publisher}.${manifest.name}`, 'acp-host.acp-host');
    assert.equal(manifest.displayName, 'ACP Host');
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  test('remote: runs as a workspace extension, next to the files and the agent CLIs (Remote-SSH, WSL, containers)', () => {
    // Agents are spawned where the workspace lives; a UI-side extension would look for them on the wrong machine.
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    assert.ok(!manifest.extensionKind.includes('ui'));
  });

  test('mcpServers: an array of named stdio / http / sse servers, env and headers as string maps, bound to agents by name or "*"', () => {
    const setting = manifest.contributes.configuration.properties['acpHost.mcpServers'];
    assert.equal(setting.type, 'array');
    assert.deepEqual(setting.default, []);
    assert.deepEqual(setting.items.required, ['name']);
    assert.deepEqual(setting.items.properties.type.enum, ['stdio', 'http', 'sse']);
    assert.deepEqual(Object.keys(setting.items.properties).sort(), ['agents', 'args', 'command', 'env', 'headers', 'name', 'type', 'url']);
    for (const key of ['env', 'headers']) assert.deepEqual(setting.items.properties[key].additionalProperties, { type: 'string' });
    assert.deepEqual(setting.items.properties.agents.oneOf, [{ const: '*' }, { type: 'array', items: { type: 'string' } }]);
  });

  test('activates only on use: never "*" (views and commands activate it implicitly)', () => {
    for (const event of manifest.activationEvents ?? []) assert.notEqual(event, '*');
    assert.ok(!(manifest.activationEvents ?? []).some((e: string) => e === 'onStartupFinished'));
  });

  test('an activity-bar container with the Agent webview view', () => {
    const [container] = manifest.contributes.viewsContainers.activitybar;
    const views = manifest.contributes.views[container.id];
    assert.deepEqual(views, [{ type: 'webview', id: 'acpHost.agentView', name: 'Agent' }]);
    assert.ok(existsSync(path.join(REPO, container.icon)));
  });

  test('the commands, all in the ACP category', () => {
    const commands = manifest.contributes.commands as { command: string; category: string }[];
    assert.deepEqual(
      commands.map((c) => c.command).sort(),
      [
        'acpHost.acceptPermission',
        'acpHost.addReviewComment',
        'acpHost.addSelection',
        'acpHost.browseAgents',
        'acpHost.cancelTurn',
        'acpHost.chooseAgent',
        'acpHost.closeSession',
        'acpHost.copyTrace',
        'acpHost.exportAuditLog',
        'acpHost.exportConversation',
        'acpHost.focusPrompt',
        'acpHost.forgetSecrets',
        'acpHost.manageRememberedPermissions',
        'acpHost.manageWorkspaceConsent',
        'acpHost.newSession',
        'acpHost.nextSession',
        'acpHost.previousSession',
        'acpHost.rejectPermission',
        'acpHost.removeReviewComment',
        'acpHost.restartAgent',
        'acpHost.restoreCheckpoint',
        'acpHost.sessionHistory',
        'acpHost.showAuditLog',
        'acpHost.showLog',
        'acpHost.showTrace',
        'acpHost.signOut',
        'acpHost.startAgent',
      ],
    );
    for (const c of commands) assert.equal(c.category, 'ACP');
  });

  test('Sign Out is offered only while the shown agent advertises logout: in the palette and the panel’s title menu', () => {
    const menus = manifest.contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
    assert.deepEqual(menus.commandPalette.filter((m) => m.command === 'acpHost.signOut'), [{ command: 'acpHost.signOut', when: 'acpHost.canSignOut' }]);
    const [inPanel] = menus['view/title'].filter((m) => m.command === 'acpHost.signOut');
    assert.equal(inPanel.when, 'view == acpHost.agentView && acpHost.canSignOut');
    assert.doesNotMatch(inPanel.group ?? '', /^navigation/, 'in the “…” menu, not a toolbar icon');
    for (const [where, items] of Object.entries(menus)) {
      for (const item of items.filter((m) => m.command === 'acpHost.signOut')) assert.match(item.when ?? '', /acpHost\.canSignOut/, where);
    }
  });

  test('Export Conversation is in the panel’s “…” menu', () => {
    const [item] = (manifest.contributes.menus['view/title'] as { command: string; when?: string; group?: string }[]).filter((m) => m.command === 'acpHost.exportConversation');
    assert.equal(item.when, 'view == acpHost.agentView');
    assert.doesNotMatch(item.group ?? '', /^navigation/, 'in the overflow, not a toolbar icon');
  });

  test('keybindings: each runs a contributed command, and each acpHost.* key of their `when` clauses is set by the code', () => {
    const bindings = manifest.contributes.keybindings as { command: string; key: string; mac?: string; when?: string }[];
    const contributed = new Set((manifest.contributes.commands as { command: string }[]).map((c) => c.command));
    for (const b of bindings) assert.ok(contributed.has(b.command), b.command);
    assert.deepEqual(bindings.map((b) => b.command).sort(), ['acpHost.acceptPermission', 'acpHost.cancelTurn', 'acpHost.focusPrompt', 'acpHost.newSession', 'acpHost.nextSession', 'acpHost.previousSession', 'acpHost.rejectPermission']);
    const keys = new Set(bindings.flatMap((b) => b.when?.match(/acpHost\.\w+/g) ?? []).filter((k) => k !== 'acpHost.agentView'));
    assert.deepEqual([...keys].sort(), ['acpHost.panelFocused', 'acpHost.permissionWaiting', 'acpHost.turnRunning']);
    const sources = readdirSync(path.join(REPO, 'src/host'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(path.join(REPO, 'src/host', f), 'utf8'))
      .join('\n');
    for (const key of keys) assert.ok(sources.includes(`'${key}'`), `${key} is set with setContext by src/host`);
    assert.match(sources, /executeCommand\('setContext', CONTEXT_KEYS\[key\]/);
    assert.match(sources, /executeCommand\('setContext', CONTEXT_KEYS\.panelFocused/);
    // The stop and the permission answers act only when there is something to act on.
    assert.match(bindings.find((b) => b.command === 'acpHost.cancelTurn')?.when ?? '', /acpHost\.turnRunning/);
    for (const id of ['acpHost.acceptPermission', 'acpHost.rejectPermission']) assert.match(bindings.find((b) => b.command === id)?.when ?? '', /acpHost\.permissionWaiting/);
  });

  test('every contributed command has an action (or is a comment widget’s), and every action a contributed command', () => {
    const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.deepEqual([...COMMAND_IDS, ...Object.values(COMMENT_COMMANDS)].sort(), contributed.sort());
  });

  test('review comments: added from the reply box of an empty thread of ours, removed from its title; never in the palette (they take the thread)', () => {
    const menus = manifest.contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
    const ours = `commentController == ${COMMENT_CONTROLLER_ID}`;
    assert.deepEqual(menus['comments/commentThread/context'], [{ command: COMMENT_COMMANDS.add, group: 'inline', when: `${ours} && commentThreadIsEmpty` }]);
    assert.deepEqual(menus['comments/commentThread/title'], [{ command: COMMENT_COMMANDS.remove, group: 'navigation', when: `${ours} && !commentThreadIsEmpty` }]);
    for (const command of Object.values(COMMENT_COMMANDS)) assert.deepEqual(menus.commandPalette.filter((m) => m.command === command), [{ command, when: 'false' }]);
    const add = (manifest.contributes.commands as { command: string; enablement?: string }[]).find((c) => c.command === COMMENT_COMMANDS.add);
    assert.equal(add?.enablement, '!commentIsEmpty', 'an empty comment cannot be added');
  });

  test('typed settings: agents (name, command, args, env, cwd) and a default agent', () => {
    const props = manifest.contributes.configuration.properties;
    const agent = props['acpHost.agents'].items;
    assert.deepEqual(Object.keys(agent.properties).sort(), ['args', 'command', 'cwd', 'env', 'name']);
    assert.deepEqual(agent.required, ['name', 'command']);
    assert.equal(props['acpHost.defaultAgent'].type, 'string');
  });

  test('the registry: its URL only from the user’s or the machine’s settings, ACP: Browse Agents… in the panel’s menu', () => {
    const setting = manifest.contributes.configuration.properties['acpHost.registryUrl'];
    assert.equal(setting.scope, 'machine', 'a workspace cannot redirect what gets downloaded and run');
    assert.match(setting.default, /^https:\/\/cdn\.agentclientprotocol\.com\/registry\/v1\/latest\/registry\.json$/);
    const menus = manifest.contributes.menus as Record<string, { command: string; when?: string }[]>;
    assert.deepEqual(menus['view/title'].filter((m) => m.command === 'acpHost.browseAgents').map((m) => m.when), ['view == acpHost.agentView']);
    assert.ok(manifest.dependencies.tar && manifest.dependencies.yauzl, 'what the extension unpacks archives with ships in its bundle');
  });

  test('@types/vscode is not newer than engines.vscode (vsce refuses that)', () => {
    const types = manifest.devDependencies['@types/vscode'];
    assert.match(types, /^\d/, 'pinned');
    assert.equal(`^${types}`, manifest.engines.vscode);
  });
});

describe('packaged VSIX', () => {
  const vsix = path.join(REPO, 'acp-host.vsix');

  test('holds the bundles and webview assets, and no sources, tests, maps or node_modules', async (t) => {
    assert.ok(existsSync(vsix), 'acp-host.vsix is missing: run `npm run package` (npm test does)');
    const files = (await vsixEntries(vsix)).filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    t.diagnostic(`VSIX files: ${files.join(', ')}`);
    for (const required of ['package.json', 'dist/extension.js', 'dist/main.js', 'dist/demo-agent.js', 'dist/archive.js', 'dist/registryBrowser.js', 'dist/acpSchemas.js', 'media/webview.js', 'media/webview.css', 'media/icon.svg']) {
      assert.ok(files.includes(required), `${required} is in the VSIX`);
    }
    const forbidden = files.filter((f) => /^(src|test|out|node_modules|scripts|\.ci)\//.test(f) || /\.(ts|map)$/.test(f));
    assert.deepEqual(forbidden, []);
  });
});
