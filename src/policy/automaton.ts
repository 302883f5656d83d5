/**
 * The matching engine of the policy's globs and command patterns. Both come from settings a
 * cloned workspace may write, and a backtracking RegExp can take minutes on a short pattern
 * (`************Z`): here a pattern is a tree compiled to an automaton (Thompson's construction)
 * and run Pike-style, every state at most once per character, so a match costs at most
 * states × (characters + 1) steps, whatever the pattern. The same shape as the elicitation
 * patterns' automaton (src/forms/patternCheck.ts), without what only a RegExp needs
 * (assertions, counted repeats): a glob needs sequences, alternatives and repeats only.
 */

/** One character's test; `char` is one code point. */
export type CharTest = (char: string) => boolean;

export type PatternTree =
  | { t: 'char'; test: CharTest }
  | { t: 'seq'; items: PatternTree[] }
  | { t: 'alt'; options: PatternTree[] }
  | { t: 'star'; node: PatternTree };

export interface AutomatonRun {
  /** The index of the first pattern that matches the whole text, or -1. */
  match: number;
  /** The states visited and the character tests made: the run's cost, bounded as above. */
  steps: number;
}

const Kind = { Match: 0, Char: 1, Split: 2 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** Several patterns in one automaton: one pass over a text tells which of them match all of it. */
export class Automaton {
  private readonly kinds: Kind[] = [];
  private readonly outs: number[] = [];
  private readonly outs1: number[] = [];
  /** A Char state's test (an index into `tests`), a Match state's pattern. */
  private readonly args: number[] = [];
  private readonly tests: CharTest[] = [];
  private readonly start: number;

  constructor(patterns: readonly PatternTree[]) {
    const starts = patterns.map((pattern, i) => this.compile(pattern, this.add(Kind.Match, -1, -1, i)));
    this.start = starts.length === 0 ? this.add(Kind.Split, -1, -1) : starts.reduceRight((rest, first) => this.add(Kind.Split, first, rest));
  }

  get size(): number {
    return this.kinds.length;
  }

  private add(kind: Kind, out: number, out1 = -1, arg = 0): number {
    this.kinds.push(kind);
    this.outs.push(out);
    this.outs1.push(out1);
    this.args.push(arg);
    return this.kinds.length - 1;
  }

  /** The states of `node` followed by `next` (built back to front); returns its first state. */
  private compile(node: PatternTree, next: number): number {
    switch (node.t) {
      case 'char':
        this.tests.push(node.test);
        return this.add(Kind.Char, next, -1, this.tests.length - 1);
      case 'seq':
        return node.items.reduceRight((after, item) => this.compile(item, after), next);
      case 'alt':
        return node.options.map((o) => this.compile(o, next)).reduceRight((rest, first) => this.add(Kind.Split, first, rest));
      case 'star': {
        const loop = this.add(Kind.Split, -1, next);
        this.outs[loop] = this.compile(node.node, loop);
        return loop;
      }
    }
  }

  run(text: string): AutomatonRun {
    const { kinds, outs, outs1, args, tests } = this;
    const n = kinds.length;
    const mark = new Int32Array(n);
    // Each state is pushed at most once per edge into it, and has at most two edges out.
    const stack = new Int32Array(2 * n + 2);
    let current = new Int32Array(n);
    let next = new Int32Array(n);
    let currentLength = 0;
    let nextLength = 0;
    let generation = 1;
    let steps = 0;
    /** Adds `state` and what it reaches without a character to `next`. */
    const add = (state: number): void => {
      let top = 0;
      stack[top++] = state;
      while (top > 0) {
        const s = stack[--top];
        if (s < 0 || mark[s] === generation) continue;
        mark[s] = generation;
        steps++;
        if (kinds[s] === Kind.Split) {
          stack[top++] = outs1[s];
          stack[top++] = outs[s];
        } else next[nextLength++] = s;
      }
    };
    add(this.start);
    for (const char of text) {
      if (nextLength === 0) return { match: -1, steps };
      [current, next] = [next, current];
      currentLength = nextLength;
      nextLength = 0;
      generation++;
      for (let i = 0; i < currentLength; i++) {
        const s = current[i];
        if (kinds[s] !== Kind.Char) continue;
        steps++;
        if (tests[args[s]](char)) add(outs[s]);
      }
    }
    let match = -1;
    for (let i = 0; i < nextLength; i++) {
      const s = next[i];
      if (kinds[s] === Kind.Match && (match === -1 || args[s] < match)) match = args[s];
    }
    return { match, steps };
  }
}
