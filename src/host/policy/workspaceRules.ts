import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import { RuleSchema } from '../../policy/rules';
import type { Rule, SourcedRule } from '../../policy/rules';

const KEY = 'acpHost.policy.workspaceRules';

/**
 * "Always in this workspace": the choices remembered for this workspace, in its workspace state
 * (VS Code's storage for the workspace, not a file in it: the folder cannot grant itself
 * anything). Validated when read back; listed and revoked with ACP: Manage Remembered Permissions.
 */
export class WorkspaceRules {
  private cached: SourcedRule[] | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly changed: () => void,
  ) {}

  get all(): readonly SourcedRule[] {
    if (!this.cached) {
      const parsed = z.array(RuleSchema).safeParse(this.state.get(KEY, []));
      this.cached = (parsed.success ? parsed.data : []).map((rule) => ({ ...rule, source: 'workspace' as const }));
    }
    return this.cached;
  }

  async add(rule: Rule): Promise<void> {
    if (this.all.some((r) => sameRule(r, rule))) return;
    await this.save([...this.all, { ...rule, source: 'workspace' }]);
  }

  async remove(rule: SourcedRule): Promise<void> {
    await this.save(this.all.filter((r) => !sameRule(r, rule)));
  }

  private async save(rules: SourcedRule[]): Promise<void> {
    this.cached = rules;
    this.changed();
    await this.state.update(KEY, rules.map(({ source: _source, ...rule }) => rule));
  }
}

function sameRule(a: Rule, b: Rule): boolean {
  return a.request === b.request && a.path === b.path && a.command === b.command && a.decision === b.decision && (a.toolKind ?? []).join() === (b.toolKind ?? []).join();
}
