import * as vscode from 'vscode';
import { AgentHost } from './host/agentHost';

/** What tests (and other extensions) can reach: the live host, nothing more. */
export interface AcpHostApi {
  host: AgentHost;
}

/** The host registers the panel and the commands itself, and disposes all it made when VS Code disposes it. */
export function activate(context: vscode.ExtensionContext): AcpHostApi | undefined {
  try {
    const host = new AgentHost(context);
    context.subscriptions.push(host);
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
