import * as z from 'zod/mini';
import { AUTO_APPROVE_MODES } from './policy';
import type { AutoApprove } from './policy';

/** One agent's acpHost.autoApprove: how much the host answers, and the tool kinds the user adds to `safe`'s. */
export interface AgentAutoApprove {
  mode: AutoApprove;
  alsoSafe: readonly string[];
}

const ModeSchema = z.enum(AUTO_APPROVE_MODES as [AutoApprove, ...AutoApprove[]]);
/** `"safe"`, or `{ "mode": "safe", "alsoSafe": ["fetch"] }`. Tool kinds are ACP's (`fetch`, `edit`…), as in acpHost.rules. */
const AgentAutoApproveSchema = z.union([
  ModeSchema,
  z.strictObject({ mode: ModeSchema, alsoSafe: z.optional(z.array(z.string().check(z.minLength(1)))) }),
]);

const OFF: AgentAutoApprove = { mode: 'off', alsoSafe: [] };

/**
 * `agentName`'s entry of acpHost.autoApprove (`setting`: the user's value, already an object).
 * Not set: off. Invalid: off, and `problem` says why (a typo must not turn more on than was meant).
 */
export function agentAutoApprove(setting: Readonly<Record<string, unknown>>, agentName: string): { value: AgentAutoApprove; problem?: string } {
  if (!Object.hasOwn(setting, agentName)) return { value: OFF };
  const parsed = AgentAutoApproveSchema.safeParse(setting[agentName]);
  if (!parsed.success) {
    return { value: OFF, problem: `Ignored acpHost.autoApprove for ${JSON.stringify(agentName)}: expected one of ${AUTO_APPROVE_MODES.join(', ')}, or { "mode": …, "alsoSafe": [tool kinds] }. Auto-approve is off for it.` };
  }
  const value = parsed.data;
  return { value: typeof value === 'string' ? { mode: value, alsoSafe: [] } : { mode: value.mode, alsoSafe: value.alsoSafe ?? [] } };
}
