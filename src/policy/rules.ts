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
  /**
   * The names of the paths it touches, `/`-separated: relative to every workspace folder each
   * lies in (a path in none: absolute without the root), as named and, through symlinks, as it
   * really is. A deny or ask rule matches when any does; an allow only when every one is allowed.
   */
  paths: readonly string[];
  /** Their absolute forms without the root, which only the protected list sees: a folder inside `.git` protects all below it. */
  absolutePaths?: readonly string[];
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
 * Rules compiled once. A rule matches a request when every field it names matches; among the
 * rules that match, the strictest decides: deny over ask over allow. A deny or ask path rule
 * matches when any of the request's paths does; an allow only counts when every path is allowed
 * (by it or another allow rule of the set): a symlink `src/notes.txt` to `.git/config`, or a
 * folder listed twice, cannot be opened by an allow that speaks of one name of it.
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
    let allow: SourcedRule | undefined;
    const allowed = new Set<string>();
    for (const { rule, path, command } of this.compiled) {
      if (rule.request !== '*' && rule.request !== request.kind) continue;
      if (rule.toolKind && !(request.toolKind !== undefined && rule.toolKind.includes(request.toolKind))) continue;
      const named = path ? request.paths.filter((p) => path(p) !== undefined) : request.paths;
      if (path && named.length === 0) continue;
      if (command && !(request.command !== undefined && command(request.command))) continue;
      if (rule.decision === 'allow') {
        allow ??= rule;
        for (const p of named) allowed.add(p);
      } else if (!best || STRICTNESS[rule.decision] > STRICTNESS[best.decision]) best = rule;
    }
    return best ?? (allow && request.paths.every((p) => allowed.has(p)) ? allow : undefined);
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
