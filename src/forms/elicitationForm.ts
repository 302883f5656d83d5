import * as z from 'zod/mini';
import { checkPattern } from './patternCheck';

export { uncheckablePattern } from './patternCheck';

/**
 * An `elicitation/create` form as fields, and the validation of its answer. Shared by the two
 * sides of the panel seam, which is why it has a folder of its own: the session engine checks
 * the whole answer before it goes to the agent (nothing the webview sends is trusted), the
 * webview (through webview-protocol/elicitation.ts) checks each field as the user fills it in,
 * with the same messages.
 */

export const ElicitationValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ElicitationValue = z.infer<typeof ElicitationValueSchema>;

export const ElicitationChoiceSchema = z.object({ value: z.string(), title: z.string() });

/** A length or a number of items. */
const count = z.int().check(z.nonnegative());

/**
 * One field. `choice` is a single select (string `enum`/`oneOf`), `multiselect` an array of
 * choices; the constraints present are the ones the agent asked for.
 */
export const ElicitationFieldViewSchema = z.object({
  name: z.string(),
  /** The agent's title, or the property name. */
  title: z.string(),
  description: z.nullable(z.string()),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'choice', 'multiselect']),
  required: z.boolean(),
  minLength: z.optional(count),
  maxLength: z.optional(count),
  pattern: z.optional(z.string()),
  format: z.optional(z.enum(['email', 'uri', 'date', 'date-time'])),
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
  minItems: z.optional(count),
  maxItems: z.optional(count),
  choices: z.optional(z.array(ElicitationChoiceSchema)),
  /** Pre-filled (the agent's `default`). */
  default: z.optional(ElicitationValueSchema),
});
export type ElicitationFieldView = z.infer<typeof ElicitationFieldViewSchema>;

/** `withdrawn`: the agent cancelled its own request (`$/cancel_request`) before the user answered. */
export const ElicitationStateSchema = z.enum(['pending', 'accepted', 'declined', 'cancelled', 'withdrawn']);
export type ElicitationState = z.infer<typeof ElicitationStateSchema>;

export type ElicitationContent = Record<string, ElicitationValue>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

function validUri(text: string): boolean {
  try {
    return new URL(text).protocol.length > 1;
  } catch {
    return false;
  }
}

/**
 * A JSON Schema `pattern` (ECMA-262, unanchored), checked in bounded time (patternCheck.ts). A
 * pattern that cannot be checked (invalid, too long, backreferences…) or an answer too long to
 * check against it does not block the form: the value passes, and `uncheckedPattern` says why.
 */
function matches(pattern: string, text: string): boolean {
  const verdict = checkPattern(pattern, text);
  return !verdict.checked || verdict.matches;
}

/** Why `value` of `field` was let through without its pattern checked, or undefined (checked, or no pattern). */
export function uncheckedPattern(field: ElicitationFieldView, value: ElicitationValue | undefined): string | undefined {
  if (field.pattern === undefined || typeof value !== 'string') return undefined;
  const verdict = checkPattern(field.pattern, value);
  return verdict.checked ? undefined : verdict.why;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The schema of one field's value when present (a missing value is `required`'s business). */
export function fieldSchema(field: ElicitationFieldView): z.ZodMiniType<ElicitationValue> {
  switch (field.type) {
    case 'string': {
      let s = z.string({ error: 'Enter text' });
      if (field.minLength !== undefined) s = s.check(z.minLength(field.minLength, { error: `At least ${plural(field.minLength, 'character')}` }));
      if (field.maxLength !== undefined) s = s.check(z.maxLength(field.maxLength, { error: `At most ${plural(field.maxLength, 'character')}` }));
      const pattern = field.pattern;
      const format = field.format;
      return s.check(
        z.refine((v) => pattern === undefined || matches(pattern, v), { error: `Must match the pattern ${pattern ?? ''}` }),
        z.refine((v) => format !== 'email' || EMAIL.test(v), { error: 'Enter an email address' }),
        z.refine((v) => format !== 'uri' || validUri(v), { error: 'Enter a URI (e.g. https://example.com)' }),
        z.refine((v) => format !== 'date' || validDate(v), { error: 'Enter a date (YYYY-MM-DD)' }),
        z.refine((v) => format !== 'date-time' || (DATE_TIME.test(v) && !Number.isNaN(Date.parse(v))), { error: 'Enter a date and time' }),
      );
    }
    case 'number':
    case 'integer': {
      let n = z.number({ error: 'Enter a number' }).check(z.refine(Number.isFinite, { error: 'Enter a number' }));
      if (field.type === 'integer') n = n.check(z.refine(Number.isInteger, { error: 'Enter a whole number' }));
      const { minimum, maximum } = field;
      return n.check(
        z.refine((v) => minimum === undefined || v >= minimum, { error: `At least ${minimum}` }),
        z.refine((v) => maximum === undefined || v <= maximum, { error: `At most ${maximum}` }),
      );
    }
    case 'boolean':
      return z.boolean({ error: 'Must be true or false' });
    case 'choice': {
      const values = (field.choices ?? []).map((c) => c.value);
      return z.string({ error: 'Choose one' }).check(z.refine((v) => values.includes(v), { error: 'Choose one of the options' }));
    }
    case 'multiselect': {
      const values = (field.choices ?? []).map((c) => c.value);
      let a = z.array(z.string().check(z.refine((v) => values.includes(v), { error: 'Not one of the options' })), { error: 'Choose options' });
      if (field.minItems !== undefined) a = a.check(z.minLength(field.minItems, { error: `Choose at least ${field.minItems}` }));
      if (field.maxItems !== undefined) a = a.check(z.maxLength(field.maxItems, { error: `Choose at most ${field.maxItems}` }));
      return a.check(z.refine((v) => new Set(v).size === v.length, { error: 'An option is chosen twice' }));
    }
  }
}

/** What is wrong with one field's value (undefined: not given), or undefined when it is fine. */
export function fieldProblem(field: ElicitationFieldView, value: ElicitationValue | undefined): string | undefined {
  if (value === undefined) return field.required ? 'Required' : undefined;
  const parsed = fieldSchema(field).safeParse(value);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'Invalid');
}

/** The whole answer: only the form's fields, each valid, every required one present. */
export function contentSchema(fields: readonly ElicitationFieldView[]): z.ZodMiniType<ElicitationContent> {
  // fromEntries: a field named `__proto__` (agent data) is a key like any other.
  const shape = Object.fromEntries(fields.map((field) => [field.name, field.required ? fieldSchema(field) : z.optional(fieldSchema(field))]));
  return z.strictObject(shape) as unknown as z.ZodMiniType<ElicitationContent>;
}

/** Validates an answer: the content to send, or a message per field (`''` for the form as a whole). */
export function checkContent(
  fields: readonly ElicitationFieldView[],
  content: unknown,
): { ok: true; content: ElicitationContent } | { ok: false; problems: Record<string, string> } {
  const given = content ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) return { ok: false, problems: { '': 'The answer is not an object' } };
  const problems: Record<string, string> = {};
  for (const field of fields) if (field.required && (given as Record<string, unknown>)[field.name] === undefined) problems[field.name] = 'Required';
  const parsed = contentSchema(fields).safeParse(given);
  if (parsed.success && Object.keys(problems).length === 0) return { ok: true, content: parsed.data };
  for (const issue of parsed.error?.issues ?? []) {
    if (issue.code === 'unrecognized_keys') problems[''] ??= `Not a field of this form: ${issue.keys.join(', ')}`;
    else problems[issue.path.length > 0 ? String(issue.path[0]) : ''] ??= issue.message;
  }
  return { ok: false, problems };
}
