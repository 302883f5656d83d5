import * as z from 'zod/mini';
import './locale';

// Building blocks for reading what agents send the way the reference deserializers do (the
// schema's `x-deserialize-*` markers), so that one odd field does not cost the whole message.

/**
 * `x-deserialize-default-on-error`: an optional field whose value is invalid reads as absent,
 * instead of failing the message that holds it.
 */
export function lenientOptional<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** The same, for the many optional fields the schema types as `T | null`: `null` is kept. */
export function lenientNullable<T extends z.ZodMiniType>(schema: T) {
  return lenientOptional(z.nullable(schema));
}

/**
 * Items a lenientArray parses with zod's interpreter before it compiles their schema. A transform
 * is opaque to the compiled parser of the message around it (src/agent/connection.ts), so each
 * item of a streamed tool call's content and locations went through the interpreter: compiling
 * the item's schema too took the session mix of bench/throughput.mjs from 0.53× to 0.58× of bare
 * JSON.parse, run alone (0.50–0.55× in full bench runs, 0.49–0.53× before). Compiling costs a
 * few ms per schema, paid only where items stream: arrays of a request or a result, a few per
 * session, stay interpreted.
 */
export const COMPILE_ITEMS_AFTER = 256;

/**
 * `x-deserialize-skip-invalid-items`: items that fail `item` are dropped, the rest are kept.
 * The field itself must still be an array; wrap it in `lenientOptional` where it is optional.
 */
export function lenientArray<T extends z.ZodMiniType>(item: T) {
  let parser: z.ZodMiniType = item;
  let parsed = 0;
  return z.pipe(z.array(z.unknown()), z.transform((values) => {
    if (parsed < COMPILE_ITEMS_AFTER && (parsed += values.length) >= COMPILE_ITEMS_AFTER) parser = z.compile(item);
    // A loop, not flatMap: no array per item, for every tool call's content and locations.
    const kept: z.output<T>[] = [];
    for (const value of values) {
      // The compiled parser accepts what the interpreter does, with the same output
      // (test/unit/protocol.compiled.test.ts): only its speed differs.
      const result = parser.safeParse(value);
      if (result.success) kept.push(result.data as z.output<T>);
    }
    return kept;
  }));
}

/** A field the message must have: a missing key is still an error where `defaultOnError` reads a bad value as its default. */
const present = z.unknown().check(z.refine((value) => value !== undefined, { message: 'Required' }));

/**
 * `x-deserialize-default-on-error` on a field the schema requires: a value that is present but
 * invalid reads as `fallback()` (a fresh one per message), instead of failing the message.
 */
export function defaultOnError<T extends z.ZodMiniType>(schema: T, fallback: () => z.output<T>) {
  return z.pipe(present, z.catch(schema, fallback));
}

/**
 * The lists the schema requires and reads leniently (plan entries, available commands, config
 * options, sessions, modes): invalid items are dropped, and a value that is no list reads as `[]`.
 */
export function lenientList<T extends z.ZodMiniType>(item: T) {
  return defaultOnError(lenientArray(item), () => []);
}

/** `x-deserialize-default-on-null`: an explicit `null` reads as the empty value; a missing key still does not. */
export function emptyOnNull<T extends z.ZodMiniType>(schema: T, empty: z.input<T>) {
  return preprocess((value) => (value === null ? empty : value), schema);
}

/**
 * For results and params made only of optional fields: the docs and the TS SDK send `null`
 * (or nothing) where the schema has `{}`, so both read as `{}`.
 */
export function nullAsEmpty<T extends z.ZodMiniType>(schema: T) {
  return preprocess((value) => value ?? {}, schema);
}

/** zod/mini has no `z.preprocess`: classic zod builds it as this very pipe. */
export function preprocess<T extends z.ZodMiniType>(fn: (value: unknown) => unknown, schema: T) {
  return z.pipe(z.transform(fn), schema);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tag values a discriminated union declares (zod computes them for its own dispatch). */
export function tagsOf(union: {
  _zod: { propValues: Record<string, ReadonlySet<unknown>>; def: { discriminator: string } };
}): ReadonlySet<unknown> {
  return union._zod.propValues[union._zod.def.discriminator] ?? new Set();
}

type UnknownVariantShape<K extends string> = { [P in K]: z.ZodMiniLiteral<'unknown'> } & { kind: z.ZodMiniString };

/**
 * A discriminated union that stays open to variants added by later protocol versions: an object
 * whose tag is a string none of `known` declares parses to `{ [key]: 'unknown', kind: <tag> }`,
 * which callers can log and skip. A known tag with a bad payload is still a validation error,
 * reported with the paths of that variant.
 */
export function openDiscriminatedUnion<
  const K extends string,
  const Known extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]],
>(key: K, known: Known) {
  const knownTags = tagsOf(z.discriminatedUnion(key, known));
  // TypeScript cannot type an object literal with a computed generic key, hence the assertion.
  const unknownVariant = z.object({ [key]: z.literal('unknown'), kind: z.string() } as UnknownVariantShape<K>);
  return preprocess(
    (value) =>
      isRecord(value) && typeof value[key] === 'string' && !knownTags.has(value[key])
        ? { [key]: 'unknown', kind: value[key] }
        : value,
    z.discriminatedUnion(key, [...known, unknownVariant]),
  );
}
