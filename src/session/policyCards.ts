import type { PermissionOption as AgentPermissionOption } from '../protocol';
import type { Verdict } from '../policy/policy';
import type { Entry, PermissionOption } from './model';

/** What the user chose on a card ACP Host asks with. */
export type HostAnswer = 'once' | 'session' | 'workspace' | 'deny' | 'cancelled';

type HostOption = PermissionOption & { answer: HostAnswer };

// The host's own options, shaped like an agent's (so the card, its keys and its answer path are
// the ones users know), with ids no agent sends.
const ONCE: HostOption = { optionId: 'acp-host:allow-once', name: 'Allow once', kind: 'allow_once', answer: 'once' };
const DENY: HostOption = { optionId: 'acp-host:deny', name: 'Deny', kind: 'reject_once', answer: 'deny' };
export const HOST_ASK_OPTIONS: readonly HostOption[] = [
  ONCE,
  { optionId: 'acp-host:allow-session', name: 'Allow for this session', kind: 'allow_always', answer: 'session' },
  { optionId: 'acp-host:allow-workspace', name: 'Always in this workspace', kind: 'allow_always', answer: 'workspace' },
  DENY,
];
/** For a question about this one write only (the user's unsaved edit): nothing to remember. */
export const HOST_ASK_ONCE_OPTIONS: readonly HostOption[] = [ONCE, DENY];

/** Why, in words: "protected path (**\/.vscode/**)", "auto-approve: safe", "rule: write … deny (settings)". */
export function describeReason(verdict: Verdict): string {
  const reason = verdict.reason;
  switch (reason.by) {
    case 'protected':
      if (reason.named !== undefined) return `it names a protected path, ${reason.named} (${reason.glob})`;
      // A folder inside a protected one: the card names it relative to that folder, the reason shows where it is.
      return `it is a protected path (${reason.glob}${reason.absolute === undefined ? '' : ` as /${reason.absolute}`})`;
    case 'auto':
      return `auto-approve: ${reason.mode}`;
    case 'rule': {
      const from = { settings: 'acpHost.rules', workspace: 'remembered for this workspace', session: 'remembered for this session' }[reason.rule.source];
      return `${from}: ${reason.rule.decision}`;
    }
    case 'default':
      return 'default';
  }
}

/**
 * The agent's option the host answers with: allow_once for an allow, never allow_always (the
 * agent would stop asking, and the next request would never reach the policy); reject_once, else
 * reject_always, for a deny. Undefined when the agent offers none of those.
 */
export function pickOption(options: readonly AgentPermissionOption[], decision: 'allow' | 'deny'): AgentPermissionOption | undefined {
  const kinds = decision === 'allow' ? (['allow_once'] as const) : (['reject_once', 'reject_always'] as const);
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

/** How far back a running tool call is looked for: the one doing a request is among the last few entries. */
const LOOK_BACK = 40;

/**
 * The running tool call a host question belongs on: the latest pending or in-progress call that
 * names the path (in its locations or a diff) or, for a command, runs one; not one already
 * waiting on the user (its question is the agent's). Undefined: the question gets its own card.
 */
export function relatedTool(entries: readonly Entry[], subject: { target: string; toolKind: string }): string | undefined {
  for (let i = entries.length - 1; i >= Math.max(0, entries.length - LOOK_BACK); i--) {
    const entry = entries[i];
    if (entry.kind !== 'tool' || entry.permission || (entry.status !== 'pending' && entry.status !== 'in_progress')) continue;
    const names = subject.toolKind === 'execute'
      ? entry.toolKind === 'execute'
      : entry.locations.some((l) => l.path === subject.target) || entry.content.some((c) => c.type === 'diff' && c.path === subject.target);
    if (names) return entry.toolCallId;
  }
  return undefined;
}
