/**
 * The parsing half of patternCheck.ts: an ECMA-262 pattern as nodes for the automaton. Single
 * characters (a literal, a class, an escape, `.`) become a RegExp of that one atom, which cannot
 * backtrack; the structure (sequences, alternatives, repeats, groups, `^ $ \b \B`) is the
 * automaton's. What it cannot run (backreferences, lookaround, group modifiers) throws Unchecked.
 */

/** Automaton states (a counted repeat such as `{1000}` copies its body). */
export const MAX_STATES = 10_000;

/** Why a pattern (or a text) is not checked; thrown while parsing, compiling or running. */
export class Unchecked extends Error {}

export type Node =
  | { t: 'char'; m: number }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'repeat'; node: Node; min: number; max: number }
  | { t: 'assert'; kind: Assertion };

/** `^`, `$`, `\b`, `\B` (no flags: `^` and `$` are the ends of the whole text). */
export const Assertion = { Start: 0, End: 1, WordBoundary: 2, NotWordBoundary: 3 } as const;
export type Assertion = (typeof Assertion)[keyof typeof Assertion];

/** One character's test: a RegExp of that one atom, answers remembered per character. */
export class CharTest {
  /** ASCII answers: 0 not asked yet, 1 yes, 2 no (most text is ASCII: no map lookup for it). */
  private readonly ascii = new Uint8Array(128);
  private readonly seen = new Map<number, boolean>();
  constructor(private readonly re: RegExp) {}
  test(cp: number): boolean {
    if (cp < 128) {
      const known = this.ascii[cp];
      if (known !== 0) return known === 1;
      const hit = this.re.test(String.fromCharCode(cp));
      this.ascii[cp] = hit ? 1 : 2;
      return hit;
    }
    let hit = this.seen.get(cp);
    if (hit === undefined) this.seen.set(cp, (hit = this.re.test(String.fromCodePoint(cp))));
    return hit;
  }
}

const ESCAPE_LENGTH: Record<string, RegExp> = {
  c: /^\\c[A-Za-z]/,
  x: /^\\x[0-9A-Fa-f]{2}/,
  u: /^\\u(?:[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\})/,
  p: /^\\p\{[^}]*\}/,
  P: /^\\P\{[^}]*\}/,
};
const QUANTIFIER = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/;

/** Parses the pattern (already known to be valid for RegExp with `flags`) into nodes. */
export class Parser {
  private i = 0;
  readonly chars: CharTest[] = [];
  constructor(
    private readonly s: string,
    private readonly flags: string,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.s.length) throw new Unchecked(`unexpected ${this.s[this.i]}`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') items.push(this.term());
    return { t: 'seq', items };
  }

  private term(): Node {
    const atom = this.atom();
    const q = QUANTIFIER.exec(this.s.slice(this.i, this.i + 48));
    if (!q) return atom;
    if (atom.t === 'assert') throw new Unchecked('a quantified assertion');
    this.i += q[0].length;
    if (q[1]) return { t: 'repeat', node: atom, min: q[1] === '+' ? 1 : 0, max: q[1] === '?' ? 1 : Infinity };
    const min = Number(q[2]);
    const max = q[3] === undefined ? min : q[4] === '' ? Infinity : Number(q[4]);
    // Past this, every body needs more states than allowed (and an empty one would only loop).
    if (min > MAX_STATES || (max !== Infinity && max > MAX_STATES)) throw new Unchecked(`a repeat count over ${MAX_STATES}`);
    return { t: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
    const s = this.s;
    const c = s[this.i];
    if (c === '^' || c === '$') return this.i++, { t: 'assert', kind: c === '^' ? Assertion.Start : Assertion.End };
    if (c === '(') return this.group();
    if (c === '.') return this.char('.', 1);
    if (c === '[') {
      let j = this.i + 1;
      if (s[j] === '^') j++;
      while (j < s.length && s[j] !== ']') j += s[j] === '\\' ? 2 : 1;
      return this.char(s.slice(this.i, j + 1), j + 1 - this.i);
    }
    if (c === '\\') return this.escape();
    const literal = this.characterAt(this.i);
    return this.char(literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), literal.length);
  }

  private group(): Node {
    const rest = this.s.slice(this.i, this.i + 4);
    if (/^\(\?(?:[=!]|<[=!])/.test(rest)) throw new Unchecked('lookaround');
    let skip = 1;
    if (rest.startsWith('(?:')) skip = 3;
    else if (rest.startsWith('(?<')) {
      const close = this.s.indexOf('>', this.i);
      if (close === -1) throw new Unchecked('an unclosed group name');
      skip = close + 1 - this.i;
    } else if (rest.startsWith('(?')) throw new Unchecked('a group modifier');
    this.i += skip;
    const inner = this.alternation();
    if (this.s[this.i] !== ')') throw new Unchecked('an unclosed group');
    this.i++;
    return inner;
  }

  private escape(): Node {
    const next = this.s[this.i + 1];
    if (next === 'b' || next === 'B') return (this.i += 2), { t: 'assert', kind: next === 'b' ? Assertion.WordBoundary : Assertion.NotWordBoundary };
    if (/[1-9k]/.test(next ?? '')) throw new Unchecked('a backreference');
    // Without the u flag, \0 and digits after it are an octal escape.
    if (next === '0' && /\d/.test(this.s[this.i + 2] ?? '')) throw new Unchecked('an octal escape');
    const sized = ESCAPE_LENGTH[next ?? '']?.exec(this.s.slice(this.i));
    if (sized) return this.char(sized[0], sized[0].length);
    const escaped = this.characterAt(this.i + 1);
    return this.char(`\\${escaped}`, 1 + escaped.length);
  }

  /** The character at `i`: a whole code point with the u flag, one UTF-16 unit without. */
  private characterAt(i: number): string {
    return this.flags === 'u' ? String.fromCodePoint(this.s.codePointAt(i)!) : this.s[i];
  }

  private char(source: string, length: number): Node {
    this.i += length;
    this.chars.push(new CharTest(new RegExp(`^(?:${source})$`, this.flags)));
    return { t: 'char', m: this.chars.length - 1 };
  }
}
