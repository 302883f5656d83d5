import vscode = require('vscode');
import { AgentHost } from './host/agentHost';
import type { ShutdownReport } from './agent/processGroups';

/** What the polite stops of agents and terminals get at deactivate; the SIGKILLs after it take no time. */
const SHUTDOWN_BUDGET_MS = 2500;

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

/**
 * VS Code disposes the subscriptions (the host, its sessions) right after this, and gives the
 * promise 5 s at most before the extension host exits. Every agent and client terminal ends
 * within 3 s: its own stop first (stdin EOF, SIGTERM), then a SIGKILL of each group still alive.
 * An extension host that dies without getting here is covered by the watchdog (agent/groupWatchdog.ts).
 */
export function deactivate(): Promise<ShutdownReport> {
  // The process groups are required where the first agent or terminal starts (runtime/agentStack.ts); a window that started none loads them only now.
  const { processGroups } = require('./agent/processGroups') as typeof import('./agent/processGroups');
  return processGroups.shutdown(SHUTDOWN_BUDGET_MS);
}
