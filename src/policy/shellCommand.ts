/**
 * A terminal's command line as the shell will run it, for the command rules and the protected
 * paths: the simple commands it is made of and the words that may name files. A rule about `rm`
 * must see the `rm` in `make && rm -rf x`, `sh -c "rm x"`, `echo $(rm x)` and `/bin/rm x`.
 *
 * Hand-written rather than shell-quote's `parse`: that one reads a newline as a space
 * (`npm test⏎rm -rf ~` would be one command, and an allow for `npm test*` would allow it), leaves
 * backticks inside words, drops an unclosed quote without a word and replaces `$HOME` by ''. Here
 * whatever this scanner does not understand makes the line not understood (undefined), which
 * allow rules never apply to. It reads POSIX sh plus bash's `&>`, `|&`, `<<<` and `<(…)`, in
 * one pass (linear in the line; substitutions nest at most MAX_DEPTH deep).
 */

export interface SimpleCommand {
  /** Its words as written (quotes removed), assignments and wrappers included. */
  text: string;
  /** What rules about its program see too: the program by its basename, then without its wrappers (`sudo`, `env`, …). */
  byProgram: string[];
}

export interface ShellLine {
  commands: SimpleCommand[];
  /** Every word and redirection target (quotes removed): the files the line may name are among them. */
  words: string[];
}

/** Substitutions and `sh -c` scripts nested deeper than this are not understood. */
const MAX_DEPTH = 8;

class NotUnderstood extends Error {}

const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')', '<', '>', '\n']);
const BLANK = new Set([' ', '\t']);
const REDIRECTIONS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '>&', '>>', '>|', '<', '>'];
const SEPARATORS = ['&&', '||', ';;', '|&', ';', '&', '|', '\n', '(', ')'];
/** Words the shell reads as its grammar when they begin a command: what follows is the command. */
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'while', 'until', 'do', 'done', 'esac', 'time']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash']);
/** Programs that run the rest of their words as a command, with their options that take a value. */
const WRAPPERS: Record<string, Set<string>> = {
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  command: new Set(),
  exec: new Set(['-a']),
  nice: new Set(['-n', '--adjustment']),
  nohup: new Set(),
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group']),
  time: new Set(['-f', '-o']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  xargs: new Set(['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a']),
  stdbuf: new Set(['-i', '-o', '-e']),
};
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

let last: { line: string; parsed: ShellLine | undefined } | undefined;

/** The line's simple commands and words; undefined when the line is not understood. */
export function parseShellLine(line: string): ShellLine | undefined {
  // Each rule and the protected paths ask about the same line in turn.
  if (last?.line !== line) last = { line, parsed: parse(line) };
  return last.parsed;
}

function parse(line: string): ShellLine | undefined {
  const out: ShellLine = { commands: [], words: [] };
  try {
    new Scanner(line, 0, out).script(undefined);
  } catch (error) {
    if (error instanceof NotUnderstood) return undefined;
    throw error;
  }
  return out;
}

/** Reads one script (a line, a substitution's body) into `out`, commands of nested scripts included. */
class Scanner {
  private i = 0;
  private pendingHeredocs: { delimiter: string; expands: boolean; stripTabs: boolean }[] = [];

  constructor(
    private readonly s: string,
    private readonly depth: number,
    private readonly out: ShellLine,
  ) {
    if (depth > MAX_DEPTH) throw new NotUnderstood();
  }

  /** Commands up to `end` (`)` closing a substitution) or the end of the text. */
  script(end: ')' | undefined): void {
    let words: string[] = [];
    let parens = 0;
    const finish = () => {
      if (words.length > 0) this.command(words);
      words = [];
    };
    for (;;) {
      while (BLANK.has(this.s[this.i])) this.i++;
      if (this.i >= this.s.length) break;
      const c = this.s[this.i];
      if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      if (c === '\\' && this.s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      const redirection = OPERATOR_CHARS.has(c) ? REDIRECTIONS.find((op) => this.s.startsWith(op, this.i)) : undefined;
      if (redirection && !this.s.startsWith('<(', this.i) && !this.s.startsWith('>(', this.i)) {
        this.i += redirection.length;
        this.redirection(redirection);
        continue;
      }
      const separator = OPERATOR_CHARS.has(c) ? SEPARATORS.find((op) => this.s.startsWith(op, this.i)) : undefined;
      if (separator) {
        finish();
        this.i += separator.length;
        if (separator === '(') parens++;
        if (separator === ')' && parens-- === 0) {
          if (end === ')') return;
          throw new NotUnderstood();
        }
        if (separator === '\n') this.heredocBodies();
        continue;
      }
      const word = this.word();
      // `2>file`: digits right before a redirection name a descriptor, not a word.
      if (/^\d+$/.test(word) && (this.s[this.i] === '<' || this.s[this.i] === '>')) continue;
      words.push(word);
    }
    if (end === ')' || parens !== 0 || this.pendingHeredocs.length > 0) throw new NotUnderstood();
    finish();
  }

  private redirection(op: string): void {
    while (BLANK.has(this.s[this.i])) this.i++;
    if (this.i >= this.s.length || OPERATOR_CHARS.has(this.s[this.i])) throw new NotUnderstood();
    const start = this.i;
    const target = this.word();
    const quoted = /['"\\]/.test(this.s.slice(start, this.i));
    if (op === '<<' || op === '<<-') this.pendingHeredocs.push({ delimiter: target, expands: !quoted, stripTabs: op === '<<-' });
    else if (op === '<<<' || ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target))) return;
    else this.out.words.push(target);
  }

  /** After a newline: the bodies of the here-documents its line opened, line by line to their delimiters. */
  private heredocBodies(): void {
    for (const { delimiter, expands, stripTabs } of this.pendingHeredocs) {
      for (;;) {
        if (this.i >= this.s.length) throw new NotUnderstood();
        let lineEnd = this.s.indexOf('\n', this.i);
        if (lineEnd === -1) lineEnd = this.s.length;
        const text = this.s.slice(this.i, lineEnd);
        this.i = Math.min(lineEnd + 1, this.s.length);
        if ((stripTabs ? text.replace(/^\t+/, '') : text) === delimiter) break;
        // An unquoted delimiter: the body's `$(…)` and backticks run as the shell reads it.
        if (expands) new Scanner(text, this.depth, this.out).doubleQuoted(undefined);
      }
    }
    this.pendingHeredocs = [];
  }

  /** One word, quotes removed; substitutions in it are read as scripts of their own. */
  private word(): string {
    let text = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (BLANK.has(c) || OPERATOR_CHARS.has(c)) {
        if ((c === '<' || c === '>') && this.s[this.i + 1] === '(') text += this.substitution(2, ')');
        else break;
      } else if (c === '\\') {
        if (this.s[this.i + 1] !== '\n') text += this.s[this.i + 1] ?? '';
        this.i += 2;
      } else if (c === "'") {
        const close = this.s.indexOf("'", this.i + 1);
        if (close === -1) throw new NotUnderstood();
        text += this.s.slice(this.i + 1, close);
        this.i = close + 1;
      } else if (c === '"') {
        this.i++;
        text += this.doubleQuoted('"');
      } else text += this.dollarOrBacktick() ?? (this.i++, c);
    }
    return text;
  }

  /** Up to the closing `"` (or the end of a here-document's line): `\` escapes and substitutions only. */
  doubleQuoted(end: '"' | undefined): string {
    let text = '';
    for (;;) {
      if (this.i >= this.s.length) {
        if (end) throw new NotUnderstood();
        return text;
      }
      const c = this.s[this.i];
      if (c === end) {
        this.i++;
        return text;
      }
      if (c === '\\' && '$`"\\\n'.includes(this.s[this.i + 1] ?? '')) {
        if (this.s[this.i + 1] !== '\n') text += this.s[this.i + 1];
        this.i += 2;
      } else text += this.dollarOrBacktick() ?? (this.i++, c);
    }
  }

  /** A `$(…)`, backtick or `${…}` at the cursor, read (its text kept in the word); undefined if none is. */
  private dollarOrBacktick(): string | undefined {
    const s = this.s;
    if (s.startsWith('$(', this.i)) return this.substitution(2, ')');
    if (s[this.i] === '`') {
      const start = this.i;
      let body = '';
      for (this.i++; s[this.i] !== '`'; this.i++) {
        if (this.i >= s.length) throw new NotUnderstood();
        if (s[this.i] === '\\' && '$`\\'.includes(s[this.i + 1] ?? '')) this.i++;
        body += s[this.i];
      }
      this.i++;
      new Scanner(body, this.depth + 1, this.out).script(undefined);
      return s.slice(start, this.i);
    }
    if (s.startsWith('${', this.i)) {
      const close = s.indexOf('}', this.i);
      // A parameter expansion is understood when it only names one: `${HOME}`, `${1}`, `${#x}`.
      if (close === -1 || !/^\$\{#?[A-Za-z0-9_@*#?$!-]+\}$/.test(s.slice(this.i, close + 1))) throw new NotUnderstood();
      const text = s.slice(this.i, close + 1);
      this.i = close + 1;
      return text;
    }
    return undefined;
  }

  /** `$(…)`, `<(…)`, `>(…)`: a script of its own; its text stays in the word. */
  private substitution(open: number, end: ')'): string {
    const start = this.i;
    const inner = new Scanner(this.s, this.depth + 1, this.out);
    inner.i = this.i + open;
    inner.script(end);
    this.i = inner.i;
    return this.s.slice(start, this.i);
  }

  private command(words: string[]): void {
    this.out.words.push(...words);
    while (words.length > 0 && RESERVED.has(words[0])) words = words.slice(1);
    if (words.length === 0) return;
    const text = words.join(' ');
    const byProgram: string[] = [];
    let rest = words;
    for (let wrapped = 0; wrapped <= MAX_DEPTH; wrapped++) {
      while (rest.length > 1 && ASSIGNMENT.test(rest[0])) rest = rest.slice(1);
      const program = basename(rest[0]);
      byProgram.push([program, ...rest.slice(1)].join(' '));
      if (SHELLS.has(program)) this.shellScript(rest.slice(1));
      if (program === 'eval') new Scanner(rest.slice(1).join(' '), this.depth + 1, this.out).script(undefined);
      if (program === 'find') this.findExec(rest);
      const options = WRAPPERS[program];
      if (!options) break;
      let k = 1;
      while (k < rest.length && (rest[k].startsWith('-') || ASSIGNMENT.test(rest[k]))) k += options.has(rest[k]) ? 2 : 1;
      // `timeout 5 rm x`: the duration comes before the command.
      if (program === 'timeout') k++;
      if (k >= rest.length) break;
      rest = rest.slice(k);
    }
    this.out.commands.push({ text, byProgram });
  }

  /** `sh -c 'script' …` (also `-ec`, `-lc`): the script is a command line of its own. */
  private shellScript(args: string[]): void {
    const flag = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
    const script = flag === -1 ? undefined : args.slice(flag + 1).find((a) => !/^[-+]/.test(a));
    if (script !== undefined) new Scanner(script, this.depth + 1, this.out).script(undefined);
  }

  /** `find … -exec rm {} ;`: what -exec, -execdir, -ok and -okdir run is a command too. */
  private findExec(words: string[]): void {
    for (let k = 0; k < words.length; k++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(words[k])) continue;
      let end = k + 1;
      while (end < words.length && words[end] !== ';' && words[end] !== '+') end++;
      if (end > k + 1) this.command(words.slice(k + 1, end));
      k = end;
    }
  }
}

function basename(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1) || program;
}

/**
 * A word as a path the protected globs can judge, or undefined: `~/`, `./`, the root and any
 * leading `..` dropped (a path outside the workspace is judged as policyPaths judges one:
 * without its root), `a/../b` folded; for `--out=x` and `VAR=x`, what follows the `=` as well.
 */
export function pathsOfWord(word: string): string[] {
  const candidates = [word];
  const eq = word.indexOf('=');
  if (eq > 0) candidates.push(word.slice(eq + 1));
  const paths: string[] = [];
  for (const candidate of candidates) {
    const segments: string[] = [];
    for (const segment of candidate.replace(/\\/g, '/').replace(/^~(?=\/|$)/, '').split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') segments.pop();
      else segments.push(segment);
    }
    if (segments.length > 0) paths.push(segments.join('/'));
  }
  return paths;
}
