import { acpSchemas } from '../protocol/lazySchemas';
import type { PromptResponse, UsageUpdate } from '../protocol';
import type { SessionSnapshot, TurnUsage } from './model';

/** What a turn's answer tells of its cost: its tokens (unstable `usage`) and `_meta` cost and quota; undefined when none. */
export function turnUsage(response: PromptResponse): TurnUsage | undefined {
  const { usage } = response;
  const tokens = usage
    ? {
        total: usage.totalTokens,
        input: usage.inputTokens,
        output: usage.outputTokens,
        thought: usage.thoughtTokens ?? null,
        cachedRead: usage.cachedReadTokens ?? null,
        cachedWrite: usage.cachedWriteTokens ?? null,
      }
    : null;
  const { cost, quota } = acpSchemas().metaUsage(response._meta);
  return tokens || cost || quota ? { tokens, cost, quota } : undefined;
}

/** The context window a `usage_update` reports; a cost only in its `_meta` counts too. */
export function contextUsage(update: UsageUpdate): SessionSnapshot['usage'] {
  const { cost, quota } = acpSchemas().metaUsage(update._meta);
  const stated = update.cost ? { amount: update.cost.amount, currency: update.cost.currency } : null;
  return { used: update.used, size: update.size, cost: stated ?? cost, quota };
}
