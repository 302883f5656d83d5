import * as path from 'node:path';
import vscode = require('vscode');
import { shown } from '../../base/shownText';
import { platformKey } from '../../runtime/registry/distribution';
import { installAgent, removeInstalled } from '../../runtime/registry/install';
import type { InstalledAgent } from '../../runtime/registry/installed';
import { listing } from '../../runtime/registry/listing';
import type { ListingRow } from '../../runtime/registry/listing';
import { loadRegistryIndex } from '../../runtime/registry/registryIndex';
import type { LoadedIndex } from '../../runtime/registry/registryIndex';
import type { RegistryAgent } from '../../runtime/registry/registrySchema';
import type { InstalledAgents } from './installedAgents';

export type RowAction = 'update' | 'start' | 'uninstall';

export interface PickItem extends vscode.QuickPickItem {
  row?: ListingRow;
  action?: RowAction;
}

export type Picker = (items: readonly PickItem[], options: { title: string; placeHolder: string }) => Promise<PickItem | undefined>;

const showPick: Picker = async (items, options) => vscode.window.showQuickPick(items, { ...options, matchOnDescription: true, matchOnDetail: true });

export interface BrowserHost {
  installed: InstalledAgents;
  /** The extension's global storage: agents/ and registry/ go there. */
  storageRoot: string;
  registryUrl: () => string;
  log: vscode.LogOutputChannel;
  /** Opens a session with the agent of this name (the agent picker's choice). */
  chooseAgent(name: string): Promise<void>;
}

/** What the list says when it shows the cached index, or none. */
export function offlineNote(offline: NonNullable<LoadedIndex['offline']>): string {
  if (offline.fetchedAt === undefined) return 'Offline: the registry could not be read; the built-in agents stay in the agent picker';
  return `Offline: showing the registry as of ${new Date(offline.fetchedAt).toLocaleString()}`;
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * ACP: Browse Agents…: the registry's agents in a QuickPick; picking one installs it, or (once
 * installed) offers its update, a session with it, or its removal.
 */
export class RegistryBrowser {
  /** Shows the QuickPicks; the integration tests replace it to pick for the user. */
  pick: Picker = showPick;

  constructor(private readonly host: BrowserHost) {}

  private get agentsRoot(): string {
    return path.join(this.host.storageRoot, 'agents');
  }

  async browse(): Promise<void> {
    const url = this.host.registryUrl();
    const cache = path.join(this.host.storageRoot, 'registry', 'index.json');
    const index = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading the ACP Registry…' }, () => loadRegistryIndex(url, cache));
    for (const line of index.skipped) this.host.log.warn(`ACP Registry: skipped ${line}`);
    if (index.offline) this.host.log.warn(`ACP Registry: could not read ${url}: ${index.offline.reason}`);
    const note = index.offline && offlineNote(index.offline);
    const items: PickItem[] = listing(index.agents, this.host.installed.list(), platformKey()).map((row) => ({ label: row.label, description: row.description, detail: row.detail, row }));
    if (note) items.unshift({ label: note, kind: vscode.QuickPickItemKind.Separator });
    const picked = await this.pick(items, { title: note ? `ACP Registry (${note})` : 'ACP Registry', placeHolder: 'Pick an agent to install it, or an installed one to update, start or remove it' });
    if (picked?.row) await this.act(picked.row);
  }

  private async act(row: ListingRow): Promise<void> {
    const { latest, installed } = row;
    if (!installed) {
      if (row.state === 'available' && latest) await this.install(latest);
      else void vscode.window.showWarningMessage(`${row.label} has no distribution for ${platformKey() ?? 'this platform'}.`);
      return;
    }
    const actions: PickItem[] = [
      ...(row.state === 'update' && latest ? [{ label: `Update to ${latest.version}`, description: `from ${installed.version}`, action: 'update' as const }] : []),
      { label: 'Start a session with it', action: 'start' },
      { label: 'Uninstall', description: installed.dir ? 'removes its files' : undefined, action: 'uninstall' },
    ];
    const picked = await this.pick(actions, { title: `${row.label} ${installed.version}`, placeHolder: 'What to do with it' });
    if (picked?.action === 'update' && latest) await this.install(latest, installed);
    else if (picked?.action === 'start') await this.host.chooseAgent(installed.name);
    else if (picked?.action === 'uninstall') await this.uninstall(installed);
  }

  /** Installs `agent`; an update installs beside the version it replaces, switches to it, then removes the old one. */
  async install(agent: RegistryAgent, replacing?: InstalledAgent): Promise<InstalledAgent> {
    const title = `${replacing ? 'Updating' : 'Installing'} ${agent.name} ${agent.version}`;
    const installed = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let percent = 0;
      const onProgress = (received: number, total: number | undefined) => {
        const now = total ? Math.floor((received * 100) / total) : percent;
        progress.report({ increment: now - percent, message: total ? `${megabytes(received)} of ${megabytes(total)}` : megabytes(received) });
        percent = now;
      };
      return installAgent(agent, { root: this.agentsRoot, platform: platformKey(), signal: abort.signal, onProgress });
    });
    await this.host.installed.put(installed);
    if (replacing?.dir && replacing.dir !== installed.dir) await removeInstalled(this.agentsRoot, replacing);
    this.host.log.info(`ACP Registry: ${agent.name} ${agent.version} installed: ${installed.command} ${installed.args.join(' ')}`);
    void vscode.window.showInformationMessage(`${shown(agent.name)} ${shown(agent.version)} is installed: it is in the agent picker.`, 'Start It').then((answer) => {
      if (answer) void this.host.chooseAgent(installed.name).catch((error: Error) => this.host.log.error(`Starting ${installed.name} failed: ${error.message}`));
    });
    return installed;
  }

  async uninstall(installed: InstalledAgent): Promise<void> {
    await this.host.installed.remove(installed.id);
    await removeInstalled(this.agentsRoot, installed);
    this.host.log.info(`ACP Registry: ${installed.name} ${installed.version} uninstalled.`);
  }
}
