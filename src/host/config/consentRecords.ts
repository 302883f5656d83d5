// The user's decisions about a workspace's settings, as kept in the extension's globalState (not
// in the workspace, which could forge them), and what they make of a proposal. Pure (no vscode).
import * as z from 'zod/mini';
import { GATED_SETTINGS } from './workspaceProposals';
import type { Proposal } from './workspaceProposals';

export const DecisionSchema = z.object({
  /** consentKey of the value decided on. */
  key: z.string().check(z.minLength(1)),
  setting: z.enum(GATED_SETTINGS),
  /** The agent's or server's name ("environment" for acpHost.environment). */
  name: z.string(),
  allowed: z.boolean(),
  /** What it runs, in one line (env names, never values): shown when the decisions are listed. */
  summary: z.string(),
  /** An allowed agent's launch identity: its processes are stopped when the decision is revoked. */
  identity: z.optional(z.string()),
  decidedAt: z.string(),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** Per workspace (its folder's or workspace file's URI), its decisions. */
export const DecisionStoreSchema = z.record(z.string(), z.array(DecisionSchema));
export type DecisionStore = z.infer<typeof DecisionStoreSchema>;

/**
 * What is stored: the decisions of every workspace. A value that does not parse (a hand-edited
 * or older state) counts as no decision at all, so nothing is allowed by accident; each decision
 * that does not parse is dropped alone.
 */
export function readDecisions(raw: unknown): DecisionStore {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const store: DecisionStore = {};
  for (const [workspace, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    store[workspace] = list.flatMap((item) => {
      const parsed = DecisionSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }
  return store;
}

/**
 * - allowed / denied: the user decided on exactly this value;
 * - pending: not asked yet (or the value changed since), so it is not used;
 * - untrusted: the workspace is not trusted, and its values are never used (nor asked about).
 */
export type ConsentStatus = 'allowed' | 'denied' | 'pending' | 'untrusted';

export function consentStatus(proposal: Pick<Proposal, 'key'>, trusted: boolean, decisions: readonly Decision[]): ConsentStatus {
  if (!trusted) return 'untrusted';
  const decision = decisions.find((d) => d.key === proposal.key);
  return decision === undefined ? 'pending' : decision.allowed ? 'allowed' : 'denied';
}

/** `decisions` with `decision` in place of any earlier one of the same key. */
export function withDecision(decisions: readonly Decision[], decision: Decision): Decision[] {
  return [...decisions.filter((d) => d.key !== decision.key), decision];
}
