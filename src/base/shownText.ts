// Text that comes from a workspace's settings, an agent or the registry, as ACP Host shows it in a
// dialog, a card or a notification. What a reader cannot see there (line breaks, control
// characters, ANSI escapes, bidirectional overrides, zero-width and other invisible formatting
// characters) is written as an escape (`\n`, `\u202E`): a value can then neither draw a fake line
// above the real one nor reorder what it says, and the escape shows the user that something is
// off. Each value and each message has a cap; the whole text is one "Show All" away. Pure.

/**
 * Controls (Cc: C0, DEL, C1 with ESC and CSI), format characters (Cf: bidi embeddings, overrides
 * and isolates, LRM/RLM/ALM, zero-width space and joiners, soft hyphen, BOM, tags), line and
 * paragraph separators, lone surrogates, and the Hangul fillers that render as nothing.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0]/gu;
const HIDDEN_ONE = new RegExp(`^${HIDDEN.source}$`, 'u');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Characters of one value (a name, a path, an env name) shown before it is cut. */
export const VALUE_CHARS = 200;
/** Characters of a command line or a URL shown before it is cut: it is what the user decides on. */
export const COMMAND_CHARS = 600;

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/** `text` on one line with every invisible character written as its escape; nothing cut. */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN, escapeChar);
}

/**
 * `text` escaped (escapeHidden) and, past `max` characters, cut where no escape is split, with
 * how much is left out: `abc…(1234 more characters)`.
 */
export function shown(text: string, max = VALUE_CHARS): string {
  // An escape is longer than what it stands for: a text within `max` may escape beyond it, never the reverse.
  if (text.length <= max) {
    const escaped = escapeHidden(text);
    if (escaped.length <= max) return escaped;
  }
  let out = '';
  let used = 0;
  for (const char of text) {
    const piece = HIDDEN_ONE.test(char) ? escapeChar(char) : char;
    if (out.length + piece.length > max) break;
    out += piece;
    used += char.length;
  }
  return `${out}…(${text.length - used} more characters)`;
}

/** A message cut to fit a dialog; `cut` says whether anything was left for "Show All". */
export interface CappedText {
  text: string;
  cut: boolean;
}

/** Lines of a dialog's message shown before the rest is left to "Show All". */
export const MESSAGE_LINES = 40;
/** Characters of a dialog's message shown before the rest is left to "Show All". */
export const MESSAGE_CHARS = 4000;

/**
 * The first lines of `text` (its values already escaped: its own line breaks are the message's
 * layout) that fit `maxLines` and `maxChars`, and a last line saying how many were left out.
 */
export function capLines(text: string, maxLines = MESSAGE_LINES, maxChars = MESSAGE_CHARS): CappedText {
  const lines = text.split('\n');
  const kept: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (kept.length === maxLines || chars + line.length > maxChars) break;
    kept.push(line);
    chars += line.length + 1;
  }
  if (kept.length === lines.length) return { text, cut: false };
  const left = lines.length - kept.length;
  return { text: [...kept, `…and ${left} more line${left === 1 ? '' : 's'}: Show All shows everything.`].join('\n'), cut: true };
}
