import { globMatcher } from './globs';
import { DEFAULT_PROTECTED_PATHS } from './protectedPaths';
import { RuleSet } from './rules';
import type { Decision, PolicyRequest, SourcedRule } from './rules';
import { parseShellLine, pathsOfWord } from './shellCommand';
import { shortNames, windowsForms } from './windowsNames';
import type { ShortNames } from './windowsNames';

/**
 * How much of an agent's own `session/request_permission` the host answers itself, as the
 * reference PowerShell client offers: `safe` tool kinds only (they change nothing), or everything
 * but what touches a protected path.
 */
export type AutoApprove = 'off' | 'safe' | 'allButProtected';
export const AUTO_APPROVE_MODES: readonly AutoApprove[] = ['off', 'safe', 'allButProtected'];
/**
 * The tool kinds `safe` answers: they change nothing and send nothing out. Not `fetch`: a fetch
 * can carry what the agent read to any address, so only a user who adds it (PolicyLayers.alsoSafe)
 * has it answered for them.
 */
const SAFE_TOOL_KINDS: ReadonlySet<string> = new Set(['read', 'search', 'think']);

/**
 * Why the policy decided as it did: the rule, the protected glob (and, when only the path's
 * absolute form shows it, that form: a workspace folder inside `.git`), the auto-approve mode,
 * or nothing (the default).
 */
export type Reason =
  | { by: 'rule'; rule: SourcedRule }
  /**
   * `named`: the word of a terminal's command line that is the protected path; `absolute`: the
   * absolute form that shows it when no workspace-relative one does.
   */
  | { by: 'protected'; glob: string; named?: string; absolute?: string }
  | { by: 'auto'; mode: AutoApprove }
  | { by: 'default' };

export interface Verdict {
  decision: Decision;
  reason: Reason;
}

/** What one agent's requests are decided by. Built by the host from settings and remembered choices. */
export interface PolicyLayers {
  /** acpHost.rules: the user's own say, first. */
  settings: RuleSet;
  /** Choices remembered for the workspace and for the session ("Allow for this session"…). */
  remembered: RuleSet;
  /** acpHost.protectedPaths, added to the defaults. */
  protectedPaths: readonly string[];
  autoApprove: AutoApprove;
  /** Tool kinds the user added to those `safe` answers (acpHost.autoApprove's `alsoSafe`). */
  alsoSafe?: readonly string[];
  /** Compare names as Windows stores them (windowsNames.ts): trailing dots and spaces, 8.3 short names, streams. */
  windowsNames?: boolean;
}

/**
 * The policy over what an agent asks of VS Code. Pure: the host hands it every form of the paths
 * (relative to each workspace folder, absolute, and the real path behind a symlink) and acts on
 * the verdict. Layers, first match wins:
 *  1. the user's rules (acpHost.rules; among matching rules deny beats ask beats allow);
 *  2. remembered choices (this workspace, this session);
 *  3. the defaults: a write to a protected path asks, and so does a terminal command that names one; an agent's permission request is asked of
 *     the user unless auto-approve answers it; everything else is allowed, as before the policy.
 * A path is protected when any of its forms is. An allow rule speaks of names relative to the
 * workspace folders: where only the absolute form is protected (a folder inside `.git`), no
 * allow rule about paths opens it.
 */
export class Policy {
  private readonly isProtected: (path: string) => string | undefined;
  private readonly shortNames: ShortNames | undefined;

  constructor(private readonly layers: PolicyLayers) {
    const globs = [...DEFAULT_PROTECTED_PATHS, ...layers.protectedPaths];
    this.isProtected = globMatcher(globs);
    this.shortNames = layers.windowsNames ? shortNames(globs) : undefined;
  }

  decide(asked: PolicyRequest): Verdict {
    const request = this.stored(asked);
    const absolute = request.absolutePaths ?? [];
    const glob = this.protectedGlob([...request.paths, ...absolute]);
    const hidden = glob !== undefined && this.protectedGlob(request.paths) === undefined;
    for (const rules of [this.layers.settings, this.layers.remembered]) {
      const rule = rules.match(request);
      if (rule && !(hidden && rule.decision === 'allow' && rule.path !== undefined)) return { decision: rule.decision, reason: { by: 'rule', rule } };
    }
    const reason = glob && { by: 'protected' as const, glob, ...(hidden ? { absolute: absolute.find((a) => this.isProtected(a)) } : {}) };
    switch (request.kind) {
      case 'write':
        return reason ? { decision: 'ask', reason } : ALLOW;
      case 'terminal': {
        // `paths`: the forms of the terminal's cwd. Run in a protected folder, `echo x > pre-commit` writes a hook.
        if (reason) return { decision: 'ask', reason: { ...reason, named: `its working folder ${request.paths[0] ?? `/${absolute[0]}`}` } };
        const named = request.command === undefined ? undefined : this.protectedPathNamedBy(request.command, request.paths);
        return named ? { decision: 'ask', reason: { by: 'protected', ...named } } : ALLOW;
      }
      case 'permission':
        return this.autoApproves(request.toolKind, glob) ? { decision: 'allow', reason: { by: 'auto', mode: this.layers.autoApprove } } : ASK_USER;
      default:
        return ALLOW;
    }
  }

  /** The protected glob the first of `paths` to be protected matches. */
  protectedGlob(paths: readonly string[]): string | undefined {
    for (const path of paths) {
      const glob = this.isProtected(path);
      if (glob) return glob;
    }
    return undefined;
  }

  /**
   * The first word (or redirection target) of a command line that is a protected path, and its
   * glob: `echo x >> .git/hooks/pre-commit`, `cat ~/.ssh/id_rsa` run what a write or a read of
   * the file would. A line the parser does not understand is cut at blanks, quotes and operators.
   * A relative word is judged as named and relative to each form of the cwd (`cwds`).
   */
  private protectedPathNamedBy(commandLine: string, cwds: readonly string[]): { glob: string; named: string } | undefined {
    const words = parseShellLine(commandLine)?.words ?? commandLine.split(/[\s;&|<>()'"`]+/);
    for (const named of words) {
      const relative = !/^[~/\\]/.test(named) ? cwds.flatMap((cwd) => pathsOfWord(`${cwd}/${named}`)) : [];
      const glob = this.protectedGlob(this.stored({ kind: 'terminal', paths: [...pathsOfWord(named), ...relative] }).paths);
      if (glob) return { glob, named };
    }
    return undefined;
  }

  /** On Windows, the request with each path also in the forms Windows stores it as: an allow must then cover those too. */
  private stored(request: PolicyRequest): PolicyRequest {
    const short = this.shortNames;
    if (!short) return request;
    const all = (paths: readonly string[]) => [...new Set(paths.flatMap((p) => [p, ...windowsForms(p, short)]))];
    return { ...request, paths: all(request.paths), ...(request.absolutePaths ? { absolutePaths: all(request.absolutePaths) } : {}) };
  }

  private autoApproves(toolKind: string | undefined, protectedGlob: string | undefined): boolean {
    switch (this.layers.autoApprove) {
      case 'off':
        return false;
      case 'safe':
        return toolKind !== undefined && (SAFE_TOOL_KINDS.has(toolKind) || (this.layers.alsoSafe ?? []).includes(toolKind)) && !protectedGlob;
      case 'allButProtected':
        return !protectedGlob;
    }
  }
}

const ALLOW: Verdict = { decision: 'allow', reason: { by: 'default' } };
const ASK_USER: Verdict = { decision: 'ask', reason: { by: 'default' } };

/** A policy with nothing but the defaults (no settings, nothing remembered, auto-approve off). */
export function defaultPolicy(): Policy {
  return new Policy({ settings: new RuleSet([]), remembered: new RuleSet([]), protectedPaths: [], autoApprove: 'off' });
}
