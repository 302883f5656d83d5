import * as z from 'zod/mini';
import { lenientNullable, nullAsEmpty } from './lenient';

// Pieces shared by many message types.

/**
 * `_meta`, which every ACP type carries: implementation-specific data that is passed through
 * untouched (never interpreted here), so an invalid one is dropped rather than failing the message.
 */
export const meta = {
  _meta: lenientNullable(z.record(z.string(), z.unknown())),
};

export const uint16 = z.number().check(z.int(), z.gte(0), z.lte(0xffff));
export const uint32 = z.number().check(z.int(), z.gte(0), z.lte(0xffffffff));
/** uint64/int64 on the wire; JavaScript numbers are exact up to 2^53, far beyond any real count. */
export const uint64 = z.number().check(z.int(), z.gte(0));
export const int64 = z.number().check(z.int());

/** A result (or params) with no fields but `_meta`; `null` reads as `{}`. */
export function emptyObject() {
  return nullAsEmpty(z.object(meta));
}

export const EnvVariableSchema = z.object({
  name: z.string(),
  value: z.string(),
  ...meta,
});
export type EnvVariable = z.infer<typeof EnvVariableSchema>;
