import * as z from 'zod/mini';
import { meta, uint64 } from './common';
import { lenientNullable, lenientOptional } from './lenient';
import { CostSchema, type Cost } from './sessionUpdate';

/** `PromptResponse.usage` (unstable): the tokens of the turn. */
export const UsageSchema = z.object({
  totalTokens: uint64,
  inputTokens: uint64,
  outputTokens: uint64,
  thoughtTokens: lenientNullable(uint64),
  cachedReadTokens: lenientNullable(uint64),
  cachedWriteTokens: lenientNullable(uint64),
  ...meta,
});
export type Usage = z.infer<typeof UsageSchema>;

// What agents put in `_meta` about cost and quota. No spec defines these keys; the ones read here
// (on a PromptResponse and on a usage_update, nowhere else) are:
//   `_meta.cost`   the stable Cost shape, `{amount: number, currency: string}`;
//   `_meta.quota`  an object whose leaves are numbers or short strings, flat or one level deep,
//                  e.g. `{used, limit, remaining, resetsAt}` or `{requests: {used, limit}}`.
// Anything else in `_meta` is ignored, and so is a leaf of another type (a boolean, a long string).

const QUOTA_KEY_MAX = 40;
const QUOTA_STRING_MAX = 64;
/** A quota is a few numbers: more leaves than this are not shown. */
const QUOTA_ITEMS_MAX = 8;

const QuotaKeySchema = z.string().check(z.minLength(1), z.maxLength(QUOTA_KEY_MAX));
const QuotaLeafSchema = z.union([z.number(), z.string().check(z.maxLength(QUOTA_STRING_MAX))]);

export interface QuotaItem {
  /** The key, or `outer.inner` for a nested one. */
  label: string;
  value: number | string;
}

/** The leaves of one quota object, in order; a leaf that is not a number or a short string is left out. */
function quotaItems(record: Record<string, unknown>, at = ''): QuotaItem[] {
  return Object.entries(record).flatMap(([key, value]): QuotaItem[] => {
    if (!QuotaKeySchema.safeParse(key).success) return [];
    const leaf = QuotaLeafSchema.safeParse(value);
    if (leaf.success) return [{ label: at + key, value: leaf.data }];
    const nested = z.record(z.string(), z.unknown()).safeParse(value);
    return nested.success && at === '' ? quotaItems(nested.data, `${key}.`) : [];
  });
}

const QuotaSchema = z
  .pipe(
    z.record(z.string(), z.unknown()),
    z.transform((record: Record<string, unknown>) => quotaItems(record).slice(0, QUOTA_ITEMS_MAX)),
  )
  .check(z.refine((items) => items.length > 0));

const MetaUsageSchema = z.object({
  cost: lenientOptional(CostSchema),
  quota: lenientOptional(QuotaSchema),
});

export interface MetaUsage {
  cost: Pick<Cost, 'amount' | 'currency'> | null;
  quota: QuotaItem[] | null;
}

/** The cost and quota an agent put in a message's `_meta`, as documented above. */
export function metaUsage(meta: Record<string, unknown> | null | undefined): MetaUsage {
  const parsed = MetaUsageSchema.safeParse(meta ?? {});
  const { cost, quota } = parsed.success ? parsed.data : {};
  return { cost: cost ? { amount: cost.amount, currency: cost.currency } : null, quota: quota ?? null };
}
