import * as vscode from 'vscode';
import { AgentHost } from './host/agentHost';
import { AgentViewProvider } from './host/panel/agentView';
import { registerCommands } from './host/panel/commands';

/** What tests (and other extensions) can reach: the live host, nothing more. */
export interface AcpHostApi {
  host: AgentHost;
}

export function activate(context: vscode.ExtensionContext): AcpHostApi | undefined {
  try {
    const host = new AgentHost(context);
    context.subscriptions.push(
      host,
      vscode.window.registerWebviewViewProvider(AgentViewProvider.viewId, host.view, { webviewOptions: { retainContextWhenHidden: false } }),
      ...registerCommands(host),
    );
    return { host };
  } catch (error) {
    // A failed activation must say why: otherwise the panel just stays empty.
    void vscode.window.showErrorMessage(`ACP Host failed to start: ${(error as Error).message}`);
    return undefined;
  }
}

export function deactivate(): void {
  // Subscriptions (the host, its agents) are disposed by VS Code.
}
