import { Automaton } from './automaton';
import type { CharTest, PatternTree } from './automaton';

/**
 * The policy's globs, over `/`-separated paths (the host turns them so on every platform),
 * compared case-insensitively, dot files included:
 *  - `*` any run of characters but `/`, `?` one character but `/`;
 *  - `**` as a whole segment any run of segments, none included (`**\/.git` matches `.git`;
 *    `a/**` matches `a` and all below it); elsewhere it is `*`;
 *  - `[abc]`, `[a-z]`, `[!a]` or `[^a]` one character of a class (never `/`);
 *  - `{a,b}` either alternative (nested, may hold `/` and `**`); a brace with no comma is itself;
 *  - `\x` the character x itself.
 * Anything else is itself: there are no extglobs (`@(a)`), no leading `!`, no `{1..3}` ranges.
 * Matching runs as an automaton (automaton.ts): its time is linear in the path, whatever the glob.
 */
export function globMatcher(globs: readonly string[]): (path: string) => string | undefined {
  let automaton: Automaton | undefined;
  return (path) => {
    automaton ??= globAutomaton(globs);
    const { match } = automaton.run(path);
    return match === -1 ? undefined : globs[match];
  };
}

/** The automaton of `globMatcher`, one pattern per glob in their order (its runs tell their steps). */
export function globAutomaton(globs: readonly string[]): Automaton {
  return new Automaton(globs.map(parseGlob));
}

/**
 * A command pattern: `*` stands for any run of characters and `\x` for `x` itself; matched
 * against the whole command line, case-sensitively (commands are).
 */
export function commandMatcher(pattern: string): (commandLine: string) => boolean {
  const automaton = commandAutomaton(pattern);
  return (commandLine) => automaton.run(commandLine.trim()).match === 0;
}

export function commandAutomaton(pattern: string): Automaton {
  const items: PatternTree[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '*') items.push({ t: 'star', node: ANY });
    else items.push(exactly(chars[i] === '\\' && i + 1 < chars.length ? chars[++i] : chars[i]));
  }
  return new Automaton([{ t: 'seq', items }]);
}

/** Whether `pattern` has a `*` that is not escaped: without one it names a single command line. */
export function hasWildcard(pattern: string): boolean {
  return /(?:^|[^\\])(?:\\\\)*\*/.test(pattern);
}

const ANY: PatternTree = { t: 'char', test: () => true };
const NOT_SLASH: PatternTree = { t: 'char', test: (c) => c !== '/' };
const SLASH: PatternTree = { t: 'char', test: (c) => c === '/' };
const EMPTY: PatternTree = { t: 'seq', items: [] };

const exactly = (char: string): PatternTree => ({ t: 'char', test: (c) => c === char });

function caseless(char: string): PatternTree {
  const lower = char.toLowerCase();
  const upper = char.toUpperCase();
  return { t: 'char', test: (c) => c === lower || c === upper || c.toLowerCase() === lower };
}

/** Braces nested deeper than this are taken as themselves (no glob needs them; they would only deepen the compiler's recursion). */
const MAX_BRACE_DEPTH = 32;

type Token =
  | { k: 'lit'; char: string }
  | { k: 'any' | 'slash' }
  | { k: 'star'; count: number }
  | { k: 'class'; test: CharTest }
  | { k: 'open'; char: string }
  | { k: 'comma'; char: string }
  | { k: 'close'; char: string };

function parseGlob(glob: string): PatternTree {
  const tokens = resolveBraces(tokenize([...glob]));
  let i = 0;
  /** One alternative: tokens up to a comma or close of the brace it is in, or the end. */
  const sequence = (): PatternTree => {
    const items: PatternTree[] = [];
    for (; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.k === 'comma' || token.k === 'close') break;
      if (token.k === 'open') {
        const options: PatternTree[] = [];
        do {
          i++;
          options.push(sequence());
        } while (tokens[i].k === 'comma');
        items.push({ t: 'alt', options });
      } else if (token.k === 'star' && token.count >= 2 && isSegmentStart(tokens, i) && isSegmentEnd(tokens, i)) {
        if (tokens[i + 1]?.k === 'slash') {
          // `**/`: any number of segments, each with its `/`.
          items.push({ t: 'star', node: { t: 'seq', items: [{ t: 'star', node: NOT_SLASH }, SLASH] } });
          i++;
        } else if (items[items.length - 1] === SLASH) {
          // `a/**`: `a` itself, or `a/` and anything below.
          items.pop();
          items.push({ t: 'alt', options: [EMPTY, { t: 'seq', items: [SLASH, { t: 'star', node: ANY }] }] });
        } else items.push({ t: 'star', node: ANY });
      } else items.push(single(token));
    }
    return { t: 'seq', items };
  };
  return sequence();
}

function single(token: Exclude<Token, { k: 'open' } | { k: 'comma' } | { k: 'close' }>): PatternTree {
  switch (token.k) {
    case 'lit':
      return caseless(token.char);
    case 'any':
      return NOT_SLASH;
    case 'slash':
      return SLASH;
    case 'star':
      return { t: 'star', node: NOT_SLASH };
    case 'class':
      return { t: 'char', test: token.test };
  }
}

const isSegmentStart = (tokens: readonly Token[], i: number) => i === 0 || ['slash', 'open', 'comma'].includes(tokens[i - 1].k);
const isSegmentEnd = (tokens: readonly Token[], i: number) => i === tokens.length - 1 || ['slash', 'comma', 'close'].includes(tokens[i + 1].k);

function tokenize(chars: readonly string[]): Token[] {
  const tokens: Token[] = [];
  /** Set once a `[` found no `]` after it: no later `[` will (it would scan a tail of the same text). */
  let unclosed = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\') tokens.push({ k: 'lit', char: i + 1 < chars.length ? chars[++i] : c });
    else if (c === '?') tokens.push({ k: 'any' });
    else if (c === '/') tokens.push({ k: 'slash' });
    else if (c === '*') {
      let count = 1;
      while (chars[i + 1] === '*') i++, count++;
      tokens.push({ k: 'star', count });
    } else if (c === '{') tokens.push({ k: 'open', char: c });
    else if (c === ',') tokens.push({ k: 'comma', char: c });
    else if (c === '}') tokens.push({ k: 'close', char: c });
    else if (c === '[' && !unclosed) {
      const parsed = charClass(chars, i + 1);
      if (parsed) {
        tokens.push({ k: 'class', test: parsed.test });
        i = parsed.end;
      } else {
        unclosed = true;
        tokens.push({ k: 'lit', char: c });
      }
    } else tokens.push({ k: 'lit', char: c });
  }
  return tokens;
}

/** The class whose content starts at `from` (after its `[`), and the index of its `]`; undefined if none closes it. */
function charClass(chars: readonly string[], from: number): { test: CharTest; end: number } | undefined {
  let i = from;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const ranges: [number, number][] = [];
  for (let first = true; i < chars.length && (first || chars[i] !== ']'); first = false) {
    const low = chars[i] === '\\' && i + 1 < chars.length ? chars[++i] : chars[i];
    i++;
    let high = low;
    if (chars[i] === '-' && i + 1 < chars.length && chars[i + 1] !== ']') {
      i++;
      high = chars[i] === '\\' && i + 1 < chars.length ? chars[++i] : chars[i];
      i++;
    }
    ranges.push([low.codePointAt(0)!, high.codePointAt(0)!]);
  }
  if (i >= chars.length) return undefined;
  const inClass = (c: string) => ranges.some(([lo, hi]) => lo <= c.codePointAt(0)! && c.codePointAt(0)! <= hi);
  return { test: (c) => c !== '/' && negated !== (inClass(c) || inClass(c.toLowerCase()) || inClass(c.toUpperCase())), end: i };
}

/**
 * Which braces are alternatives: a `{` with a `}` after it and a `,` of its own between; every
 * other `{`, `,` and `}` is a literal character.
 */
function resolveBraces(tokens: Token[]): Token[] {
  const frames: { open: number; commas: number[]; literal: boolean }[] = [];
  const toLiteral = (i: number) => (tokens[i] = { k: 'lit', char: (tokens[i] as { char: string }).char });
  tokens.forEach((token, i) => {
    if (token.k === 'open') frames.push({ open: i, commas: [], literal: frames.length >= MAX_BRACE_DEPTH });
    else if (token.k === 'comma') {
      if (frames.length === 0) toLiteral(i);
      else frames[frames.length - 1].commas.push(i);
    } else if (token.k === 'close') {
      const frame = frames.pop();
      if (!frame) toLiteral(i);
      else if (frame.literal || frame.commas.length === 0) [frame.open, ...frame.commas, i].forEach(toLiteral);
    }
  });
  for (const frame of frames) [frame.open, ...frame.commas].forEach(toLiteral);
  return tokens;
}
