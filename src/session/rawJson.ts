import { redact } from '../runtime/secrets';
import { clipString } from '../runtime/trace';

/**
 * Keys whose values a tool card hides: wider than the trace's SECRET_KEY, since a tool's input
 * is any JSON at all (the trace must keep `sessionId`, a tool card need not). Numbers and
 * booleans under them stay (`maxTokens: 4096`), as everywhere `redact` hides things.
 */
const RAW_SECRET_KEY = /(pass(word)?|secret|token|api[-_]?key|auth(orization)?|credential|private[-_]?key|cookie|session[-_]?id)/i;
export const RAW_MASK = '••••';
/** The card and the posts carry at most this much of one raw value's JSON text (then a note of what was clipped). */
export const RAW_JSON_MAX = 16 * 1024;

/**
 * A tool call's `rawInput` or `rawOutput` (any JSON value) as the card shows it: pretty-printed
 * JSON with the values of secret-looking keys (and everything under `env`/`headers`) masked, at
 * any depth, clipped to RAW_JSON_MAX characters.
 */
export function rawJson(value: unknown): string {
  const masked = redact(value, [], { mask: RAW_MASK, keys: RAW_SECRET_KEY });
  return clipString(JSON.stringify(masked, null, 2), RAW_JSON_MAX);
}
