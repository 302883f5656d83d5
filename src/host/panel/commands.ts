import * as vscode from 'vscode';
import type { AgentHost } from '../agentHost';

/** The command table: every contributed `acpHost.*` command and what it does. */
export function registerCommands(host: AgentHost): vscode.Disposable[] {
  const table: Record<string, () => unknown> = {
    'acpHost.startAgent': () => host.startAgent(),
    'acpHost.chooseAgent': () => chooseAgent(host),
    'acpHost.newSession': () => host.newSession(),
    'acpHost.sessionHistory': () => host.openFromHistory(),
    'acpHost.closeSession': () => host.closeSession(),
    'acpHost.cancelTurn': () => host.controller.cancel(),
    'acpHost.restartAgent': () => host.controller.restart(),
    'acpHost.showLog': () => host.logs.channel.show(),
    'acpHost.showTrace': () => host.logs.showTrace(host.controller.currentStatus.agentName),
    'acpHost.copyTrace': () => host.logs.copyTrace(host.controller.currentStatus.agentName),
    'acpHost.forgetSecrets': () => forgetSecrets(host),
    'acpHost.addSelection': () => host.addSelection(),
  };
  return Object.entries(table).map(([id, run]) => vscode.commands.registerCommand(id, run));
}

/** ACP: Choose Agent…: every agent with its command line; a session with the pick is opened, started and remembered. */
async function chooseAgent(host: AgentHost): Promise<void> {
  const current = host.controller.currentStatus.agentName;
  const items = host.agentChoices().map((agent) => ({
    label: agent.name,
    description: agent.name === current ? 'current' : undefined,
    detail: agent.commandLine,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Choose Agent', placeHolder: 'The agent the panel runs', matchOnDetail: true });
  if (picked) await host.chooseAgent(picked.label);
}

/** ACP: Forget Agent Secrets: drops every value stored for `env_var` sign-ins; agents ask again on their next start. */
async function forgetSecrets(host: AgentHost): Promise<void> {
  const count = await host.secrets.forget();
  void vscode.window.showInformationMessage(
    count === 0 ? 'ACP Host has no stored agent secrets.' : `ACP Host forgot ${count} stored agent secret${count === 1 ? '' : 's'}. Agents ask again when they next start.`,
  );
}
