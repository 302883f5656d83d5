import * as path from 'node:path';
import vscode = require('vscode');
import { parseSetting } from '../config/settingValues';
import { InstalledAgents } from './installedAgents';
import type { BrowserHost, RegistryBrowser } from './registryBrowser';

/**
 * acpHost.registryUrl as the user set it: machine-scoped in the manifest, and read here from the
 * user's settings only (a workspace's value would decide what gets downloaded and run, unasked).
 */
export function registryUrl(): string {
  return parseSetting('registryUrl', vscode.workspace.getConfiguration('acpHost').inspect('registryUrl')?.globalValue);
}

/**
 * The ACP Registry in the extension: the installed agents, read when the picker is (cheap, no
 * network), and ACP: Browse Agents…, made when first used: nothing of it runs at activation.
 */
export class Registry implements vscode.Disposable {
  readonly installed: InstalledAgents;
  private browserInstance: RegistryBrowser | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: Omit<BrowserHost, 'installed' | 'storageRoot' | 'registryUrl'>,
  ) {
    this.installed = new InstalledAgents(context.globalState, (m) => host.log.warn(m));
  }

  /**
   * Public: the integration tests answer its pickers. Its code (the index's schemas, download,
   * install) is bundled apart (dist/registryBrowser.js, beside dist/main.js; out/…/registryBrowser.js
   * under tsc) and loaded here, the first time the user browses: activation does not carry it.
   */
  get browser(): RegistryBrowser {
    if (!this.browserInstance) {
      const { RegistryBrowser } = require(path.join(__dirname, 'registryBrowser.js')) as typeof import('./registryBrowser');
      this.browserInstance = new RegistryBrowser({ ...this.host, installed: this.installed, storageRoot: this.context.globalStorageUri.fsPath, registryUrl });
    }
    return this.browserInstance;
  }

  browse(): Promise<void> {
    return this.browser.browse();
  }

  dispose(): void {
    this.installed.dispose();
  }
}
