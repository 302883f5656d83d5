import * as vscode from 'vscode';
import type { AgentHost } from './agentHost';

/** The command table: every contributed `acpHost.*` command and what it does. */
export function registerCommands(host: AgentHost): vscode.Disposable[] {
  const table: Record<string, () => unknown> = {
    'acpHost.startAgent': () => host.startAgent(),
    'acpHost.newSession': () => host.controller.newSession(),
    'acpHost.cancelTurn': () => host.controller.cancel(),
    'acpHost.restartAgent': () => host.controller.restart(),
    'acpHost.showLog': () => host.logs.channel.show(),
    'acpHost.showTrace': () => host.logs.showTrace(),
  };
  return Object.entries(table).map(([id, run]) => vscode.commands.registerCommand(id, run));
}
