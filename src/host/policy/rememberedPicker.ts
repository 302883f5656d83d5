import vscode = require('vscode');
import { describeRule } from '../../policy/rules';
import type { SourcedRule } from '../../policy/rules';
import type { PolicyGate } from '../../session/policyGate';
import type { WorkspaceRules } from './workspaceRules';

/**
 * ACP: Manage Remembered Permissions: every "Always in this workspace" and "Allow for this
 * session" choice, listed; the ones picked are revoked (the agent is asked again next time).
 */
export async function manageRemembered(workspace: WorkspaceRules, sessions: readonly { label: string; gate: PolicyGate }[]): Promise<void> {
  type Item = vscode.QuickPickItem & { revoke: () => unknown };
  const items: Item[] = [
    ...workspace.all.map((rule): Item => ({ label: describeRule(rule), revoke: () => workspace.remove(rule) })),
    ...sessions.flatMap(({ label, gate }) =>
      gate.rememberedForSession.map((rule: SourcedRule): Item => ({ label: describeRule(rule), description: label, revoke: () => gate.forgetForSession(rule) })),
    ),
  ];
  if (items.length === 0) {
    void vscode.window.showInformationMessage('ACP Host remembers no permission choices for this workspace or its open sessions.');
    return;
  }
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Remembered permissions: pick the ones to revoke', matchOnDescription: true });
  for (const item of picked ?? []) await item.revoke();
}
