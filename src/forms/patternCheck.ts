import { Assertion, MAX_STATES, Parser, Unchecked } from './patternParser';
import type { CharTest, Node } from './patternParser';

/**
 * A JSON Schema `pattern` (an agent's, so untrusted) checked in bounded time. JavaScript's own
 * RegExp backtracks: `^(a+)+$` against 'aaaa…ab' takes minutes, frozen in the panel as the user
 * types and in the extension host when the answer arrives. Here the pattern is parsed and run as
 * an automaton (Thompson's construction, simulated Pike-style: each state at most once per
 * character), so the cost is at most states × characters, and both are capped. Single characters
 * (a class, an escape, `.`) are still tested by RegExp, which cannot backtrack on one character.
 * What this cannot run (backreferences, lookaround) or what is over the caps is not checked:
 * the verdict says so, and the caller decides (the form accepts the value, the host logs it).
 */

/** Longer patterns are not checked. */
export const MAX_PATTERN_CHARS = 1000;
/** Longer answers are not checked against a pattern. */
export const MAX_TESTED_CHARS = 100_000;
/** States visited over one test: the bound of its time (a few tens of milliseconds). */
const MAX_STEPS = 10_000_000;

export type PatternVerdict = { checked: true; matches: boolean } | { checked: false; why: string };

const MATCH = 0;
const Kind = { Char: 0, Split: 1, Assert: 2, Match: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The automaton: per state its kind, its next state(s), and its character test or assertion. */
class Program {
  private readonly kinds: Kind[] = [Kind.Match];
  private readonly outs: number[] = [-1];
  private readonly outs1: number[] = [-1];
  private readonly args: number[] = [0];
  readonly kind: Uint8Array;
  readonly out: Int32Array;
  readonly out1: Int32Array;
  /** The character test (an index into `chars`) or the assertion of a state. */
  readonly arg: Int32Array;
  readonly start: number;

  constructor(
    readonly chars: CharTest[],
    root: Node,
  ) {
    this.start = this.compile(root, MATCH);
    this.kind = Uint8Array.from(this.kinds);
    this.out = Int32Array.from(this.outs);
    this.out1 = Int32Array.from(this.outs1);
    this.arg = Int32Array.from(this.args);
  }

  private add(kind: Kind, out: number, out1 = -1, arg = 0): number {
    if (this.kinds.length >= MAX_STATES) throw new Unchecked(`it needs more than ${MAX_STATES} states`);
    this.kinds.push(kind);
    this.outs.push(out);
    this.outs1.push(out1);
    this.args.push(arg);
    return this.kinds.length - 1;
  }

  /** The states of `node` followed by `next` (built back to front); returns its first state. */
  private compile(node: Node, next: number): number {
    switch (node.t) {
      case 'char':
        return this.add(Kind.Char, next, -1, node.m);
      case 'assert':
        return this.add(Kind.Assert, next, -1, node.kind);
      case 'seq':
        return node.items.reduceRight((after, item) => this.compile(item, after), next);
      case 'alt':
        return node.options.map((o) => this.compile(o, next)).reduceRight((rest, first) => this.add(Kind.Split, first, rest));
      case 'repeat': {
        let start = next;
        if (node.max === Infinity) {
          const loop = this.add(Kind.Split, -1, next);
          this.outs[loop] = this.compile(node.node, loop);
          start = loop;
        } else {
          for (let k = node.min; k < node.max; k++) start = this.add(Kind.Split, this.compile(node.node, start), next);
        }
        for (let k = 0; k < node.min; k++) start = this.compile(node.node, start);
        return start;
      }
    }
  }
}

const isWord = (cp: number | undefined) => cp !== undefined && ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95);

/** Whether some part of `text` matches (RegExp.test's question), each state visited once per position. */
function run(program: Program, text: Int32Array): boolean {
  const { kind, out, out1, arg, chars, start } = program;
  const n = kind.length;
  const mark = new Int32Array(n);
  // Each state is pushed at most once per edge into it: two per state bound the stack.
  const stack = new Int32Array(2 * n + 2);
  let current = new Int32Array(n);
  let next = new Int32Array(n);
  let currentLength = 0;
  let nextLength = 0;
  let generation = 1;
  let steps = 0;
  /** Adds `state` and what it reaches without a character to `next`; true when that reaches the match. */
  const add = (state: number, pos: number): boolean => {
    let top = 0;
    stack[top++] = state;
    while (top > 0) {
      const s = stack[--top];
      if (mark[s] === generation) continue;
      mark[s] = generation;
      if (++steps > MAX_STEPS) throw new Unchecked('it takes too long on this text');
      switch (kind[s]) {
        case Kind.Match:
          return true;
        case Kind.Char:
          next[nextLength++] = s;
          break;
        case Kind.Split:
          stack[top++] = out1[s];
          stack[top++] = out[s];
          break;
        case Kind.Assert: {
          const a = arg[s];
          const holds =
            a === Assertion.Start ? pos === 0 : a === Assertion.End ? pos === text.length : (isWord(text[pos - 1]) !== isWord(text[pos])) === (a === Assertion.WordBoundary);
          if (holds) stack[top++] = out[s];
        }
      }
    }
    return false;
  };
  for (let pos = 0; ; pos++) {
    // Unanchored, like RegExp.test: a match may start at every position.
    if (add(start, pos)) return true;
    if (pos === text.length) return false;
    const done = current;
    current = next;
    next = done;
    currentLength = nextLength;
    nextLength = 0;
    generation++;
    const cp = text[pos];
    for (let i = 0; i < currentLength; i++) {
      const s = current[i];
      if (chars[arg[s]].test(cp) && add(out[s], pos + 1)) return true;
    }
  }
}

/** Compiled patterns, the latest few: the panel checks the same field at every keystroke. */
const programs = new Map<string, { program: Program; unicode: boolean } | Unchecked>();
const KEPT_PROGRAMS = 32;

function compile(pattern: string): { program: Program; unicode: boolean } | Unchecked {
  const known = programs.get(pattern);
  if (known) return known;
  let compiled: { program: Program; unicode: boolean } | Unchecked;
  if (pattern.length > MAX_PATTERN_CHARS) compiled = new Unchecked(`it is longer than ${MAX_PATTERN_CHARS} characters`);
  else {
    // ECMA-262 with the `u` flag, as JSON Schema says; a pattern only valid without it is taken as written.
    const flags = ['u', ''].find((f) => validRegExp(pattern, f));
    try {
      if (flags === undefined) throw new Unchecked('it is not a valid regular expression');
      const parser = new Parser(pattern, flags);
      compiled = { program: new Program(parser.chars, parser.parse()), unicode: flags === 'u' };
    } catch (error) {
      if (!(error instanceof Unchecked)) throw error;
      compiled = error;
    }
  }
  if (programs.size >= KEPT_PROGRAMS) programs.delete(programs.keys().next().value!);
  programs.set(pattern, compiled);
  return compiled;
}

function validRegExp(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** The characters RegExp sees: code points with the u flag, UTF-16 units without. */
function toUnits(text: string, unicode: boolean): Int32Array {
  const units = new Int32Array(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = unicode ? text.codePointAt(i)! : text.charCodeAt(i);
    units[length++] = cp;
    if (cp > 0xffff) i++;
  }
  return units.subarray(0, length);
}

/** Whether `pattern` matches `text` (somewhere, like RegExp.test), or why that was not checked. */
export function checkPattern(pattern: string, text: string): PatternVerdict {
  const compiled = compile(pattern);
  if (compiled instanceof Unchecked) return { checked: false, why: compiled.message };
  if (text.length > MAX_TESTED_CHARS) return { checked: false, why: `the answer is longer than ${MAX_TESTED_CHARS} characters` };
  const units = toUnits(text, compiled.unicode);
  try {
    return { checked: true, matches: run(compiled.program, units) };
  } catch (error) {
    if (error instanceof Unchecked) return { checked: false, why: error.message };
    throw error;
  }
}

/** Why `pattern` is never checked, whatever the answer (for a note beside the field), or undefined. */
export function uncheckablePattern(pattern: string): string | undefined {
  const compiled = compile(pattern);
  return compiled instanceof Unchecked ? compiled.message : undefined;
}
