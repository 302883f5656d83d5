import * as z from 'zod/mini';
import { commandRule } from './commandRules';
import { globMatcher } from './globs';

/** What an agent asks of VS Code that the policy sees. */
export type RequestKind = 'write' | 'read' | 'terminal' | 'permission';
export type Decision = 'allow' | 'ask' | 'deny';
/** Where a rule comes from: the user's settings, a choice remembered for the workspace or the session. */
export type RuleSource = 'settings' | 'workspace' | 'session';

/** A rule as the user writes it in acpHost.rules (and as a remembered choice is kept). */
export const RuleSchema = z.object({
  request: z.enum(['write', 'read', 'terminal', 'permission', '*']),
  /** Tool kinds (ACP `ToolKind`: read, edit, execute, …) a permission rule applies to. */
  toolKind: z.optional(z.array(z.string())),
  /** A glob over workspace-relative paths (`/`-separated, case-insensitive). */
  path: z.optional(z.string().check(z.minLength(1))),
  /** A command-line pattern for terminal rules: `*` is any run of characters, `\*` a star (see commandRules.ts for how a line's commands are matched). */
  command: z.optional(z.string().check(z.minLength(1))),
  decision: z.enum(['allow', 'ask', 'deny']),
});
export type Rule = z.infer<typeof RuleSchema>;

export interface SourcedRule extends Rule {
  source: RuleSource;
}

/** What one request offers the rules to match on. */
export interface PolicyRequest {
  kind: RequestKind;
  /** The paths it touches, workspace-relative and `/`-separated: as named and, through symlinks, as they really are. */
  paths: readonly string[];
  /** A terminal's command line. */
  command?: string;
  /** A permission's tool kind. */
  toolKind?: string;
}

const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

interface CompiledRule {
  rule: SourcedRule;
  path?: (path: string) => string | undefined;
  command?: (commandLine: string) => boolean;
}

/**
 * Rules compiled once. A rule matches a request when every field it names matches (a path rule
 * matches when any of the request's paths does, so a symlink cannot hide a protected target);
 * among the rules that match, the strictest decides: deny over ask over allow.
 */
export class RuleSet {
  private readonly compiled: CompiledRule[];

  constructor(readonly rules: readonly SourcedRule[]) {
    this.compiled = rules.map((rule) => ({
      rule,
      path: rule.path === undefined ? undefined : globMatcher([rule.path]),
      command: rule.command === undefined ? undefined : commandRule(rule.command, rule.decision),
    }));
  }

  match(request: PolicyRequest): SourcedRule | undefined {
    let best: SourcedRule | undefined;
    for (const { rule, path, command } of this.compiled) {
      if (rule.request !== '*' && rule.request !== request.kind) continue;
      if (rule.toolKind && !(request.toolKind !== undefined && rule.toolKind.includes(request.toolKind))) continue;
      if (path && !request.paths.some((p) => path(p) !== undefined)) continue;
      if (command && !(request.command !== undefined && command(request.command))) continue;
      if (!best || STRICTNESS[rule.decision] > STRICTNESS[best.decision]) best = rule;
    }
    return best;
  }
}

/** A glob that matches exactly `path` (a remembered choice is about one file, whatever its name holds). */
export function exactPathGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/** A command pattern that matches exactly `commandLine`. */
export function exactCommandPattern(commandLine: string): string {
  return commandLine.trim().replace(/[\\*]/g, '\\$&');
}

/** How a rule reads in a list: `write .vscode/settings.json: allow (this workspace)`. */
export function describeRule(rule: SourcedRule): string {
  const what = [rule.toolKind?.join('|'), rule.path, rule.command].filter((x) => x !== undefined).join(' ');
  const from = { settings: 'settings', workspace: 'this workspace', session: 'this session' }[rule.source];
  return `${rule.request === '*' ? 'any request' : rule.request}${what ? ` ${unescape(what)}` : ''}: ${rule.decision} (${from})`;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
