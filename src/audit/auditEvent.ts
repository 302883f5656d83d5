// One line of the workspace's audit log: what an agent did or asked through ACP Host, and who
// decided how it went. Validated with zod where it is read back (the log's file is a file on
// disk: an older version, a crash mid-write or a hand edit may have left anything in it).
import * as z from 'zod/mini';

/**
 * What was asked: a write, a read outside the open buffers, a terminal command, a permission, a
 * sign-in, a sign-out, or the user's consent to a value a workspace's settings set for what runs.
 */
export const AUDIT_KINDS = ['write', 'read', 'terminal', 'permission', 'sign-in', 'sign-out', 'consent'] as const;
/** How it went: `asked` is a question put to the user (its answer is an event of its own); `revoked`, a consent taken back. */
export const AUDIT_DECISIONS = ['allowed', 'denied', 'asked', 'cancelled', 'failed', 'revoked'] as const;
/**
 * Who decided: the user (a card, a prompt), a rule (a remembered choice, a setting: `rule` names
 * it), the host on its own (auto-approve; a question left unanswered when the turn ended), or
 * the default (no rule spoke: ACP Host does what it always did).
 */
export const AUDIT_DECIDERS = ['user', 'rule', 'auto', 'default'] as const;

export const AuditEventSchema = z.object({
  /** ISO 8601, UTC. */
  time: z.iso.datetime({ offset: true }),
  agent: z.string(),
  /** The agent's id of the session the request named. */
  sessionId: z.optional(z.string()),
  kind: z.enum(AUDIT_KINDS),
  /** The path as the agent named it, the command line, or the tool call's title for a permission. */
  target: z.string(),
  /** Where a path really is, when that differs from `target` as named (a symlink, `..`): what was judged and served. */
  resolved: z.optional(z.string()),
  decision: z.enum(AUDIT_DECISIONS),
  by: z.enum(AUDIT_DECIDERS),
  /** The rule that decided, when one did. */
  rule: z.optional(z.string()),
  /** Anything else worth knowing: the option chosen, why it failed, how much was written. */
  detail: z.optional(z.string()),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** What a caller records: the log stamps the time when it is not given. */
export type NewAuditEvent = Omit<AuditEvent, 'time'> & { time?: string };
