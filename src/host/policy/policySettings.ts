import vscode = require('vscode');
import { agentAutoApprove } from '../../policy/autoApprove';
import type { AgentAutoApprove } from '../../policy/autoApprove';
import { RuleSchema } from '../../policy/rules';
import type { SourcedRule } from '../../policy/rules';
import { parseSetting } from '../config/settingValues';

/** The policy as the settings give it. */
export interface PolicySettings {
  rules: SourcedRule[];
  protectedPaths: string[];
  autoApprove: (agentName: string) => AgentAutoApprove;
}

/**
 * Reads the policy's settings layer by layer (`inspect`), because a workspace may make the policy
 * stricter, never looser: a cloned folder's `.vscode/settings.json` may add `ask` and `deny`
 * rules and protected paths, but its `allow` rules and its auto-approve are ignored (and said so
 * in the log). Invalid rules are reported and skipped.
 */
export function readPolicySettings(report: (message: string) => void): PolicySettings {
  const config = vscode.workspace.getConfiguration('acpHost');
  const rules: SourcedRule[] = [];
  const layers = (key: 'rules' | 'protectedPaths') => {
    const i = config.inspect(key);
    return { user: i?.globalValue, workspace: [i?.workspaceValue, i?.workspaceFolderValue] };
  };
  const { user: userRules, workspace: workspaceRules } = layers('rules');
  const take = (raw: unknown, fromWorkspace: boolean) => {
    parseSetting('rules', raw).forEach((candidate, i) => {
      const parsed = RuleSchema.safeParse(candidate);
      if (!parsed.success) return report(`Ignored rule ${i + 1} of acpHost.rules: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      if (fromWorkspace && parsed.data.decision === 'allow') return report(`Ignored an allow rule of the workspace's acpHost.rules: a workspace may only tighten the policy.`);
      rules.push({ ...parsed.data, source: 'settings' });
    });
  };
  take(userRules, false);
  for (const raw of workspaceRules) take(raw, true);
  const paths = layers('protectedPaths');
  const protectedPaths = [paths.user, ...paths.workspace].flatMap((raw) => parseSetting('protectedPaths', raw));
  const autoApprove = parseSetting('autoApprove', config.inspect('autoApprove')?.globalValue);
  return {
    rules,
    protectedPaths,
    autoApprove: (agentName) => {
      const { value, problem } = agentAutoApprove(autoApprove, agentName);
      if (problem) report(problem);
      return value;
    },
  };
}
