// The policy's globs and command patterns (src/policy/globs.ts on src/policy/automaton.ts):
// what they match, and that no pattern from settings can stall the extension host: a match costs
// at most a constant times pattern × input steps, checked over seeded random patterns and inputs
// against a RegExp built from the same random pattern (backtracking is harmless on inputs this small).
import test from 'node:test';
import assert from 'node:assert/strict';
import { commandAutomaton, commandMatcher, globAutomaton, globMatcher, hasWildcard } from '../../src/policy/globs';
import { exactPathGlob } from '../../src/policy/rules';

/** mulberry32: a small seeded generator, so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)];

/** Steps per (pattern character + 1) per (input character + 1): the automaton's constant. */
const STEP_BOUND = 4;
const bounded = (steps: number, pattern: string, input: string) => steps <= STEP_BOUND * ([...pattern].length + 1) * ([...input].length + 1);

test('globs: ** across segments (none included), * and ? within one, classes, braces, escapes, any case, dot files', () => {
  const cases: [string, string, boolean][] = [
    ['**/.git', '.git', true],
    ['**/.git', 'packages/app/.git', true],
    ['**/.git/**', '.git/hooks/pre-commit', true],
    ['**/.git/**', '.git', true],
    ['**/.git/**', '.github/workflows/x.yml', false],
    ['a/**', 'a', true],
    ['a/**', 'ab', false],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['**', 'any/thing/at/all', true],
    ['*.code-workspace', 'evil.code-workspace', true],
    ['*.code-workspace', 'sub/evil.code-workspace', false],
    ['**/*.code-workspace', 'sub/EVIL.Code-Workspace', true],
    ['a**b', 'axyb', true],
    ['a**b', 'ax/yb', false],
    ['?.txt', 'a.txt', true],
    ['?.txt', '/.txt', false],
    ['**/.env*', 'x/.env.local', true],
    ['[abc].ts', 'B.ts', true],
    ['[a-c].ts', 'd.ts', false],
    ['[!a].ts', 'b.ts', true],
    ['[^a].ts', 'a.ts', false],
    ['x[/]y', 'x/y', false],
    ['{src,lib}/**', 'lib/a/b.ts', true],
    ['{src,lib}/**', 'test/a.ts', false],
    ['{a,{b,c}}d', 'cd', true],
    ['{a,**/b}', 'x/y/b', true],
    ['{a}', '{a}', true],
    ['{a,b', '{a,b', true],
    ['[a', '[a', true],
    ['\\*', '*', true],
    ['\\*', 'x', false],
    ['.vscode/settings.json', '.VSCode/Settings.JSON', true],
    ['@(a)', '@(a)', true],
  ];
  for (const [glob, path, expected] of cases) assert.equal(globMatcher([glob])(path) !== undefined, expected, `${glob} ~ ${path}`);
  const weird = '.vscode/[x]{a,b}*?(y)!+@\\.json';
  assert.equal(globMatcher([exactPathGlob(weird)])(weird), exactPathGlob(weird), 'exactPathGlob names exactly its path');
  assert.equal(globMatcher([exactPathGlob(weird)])('.vscode/xa.json'), undefined);
  assert.equal(globMatcher(['**/*.md', '**/README*', 'docs/**'])('docs/README.md'), '**/*.md', 'the first of the globs that matches, in their order');
  assert.equal(globMatcher([])('a'), undefined);
});

test('command patterns: * any text (newlines too), \\* a star, case-sensitive, the line trimmed', () => {
  assert.equal(commandMatcher('npm run *')('  npm run build\n'), true);
  assert.equal(commandMatcher('npm run *')('npm install'), false);
  assert.equal(commandMatcher('echo *')('echo a\nrm -rf x'), true);
  assert.equal(commandMatcher('Make')('make'), false);
  assert.equal(commandMatcher('echo \\*')('echo *'), true);
  assert.deepEqual(['a*', 'a\\*', 'a\\\\*', 'a\\\\\\*', 'ab'].map(hasWildcard), [true, false, true, false, false]);
});

test('the issue\'s two stalls finish in a few thousand steps: `************Z` on a 33-character command, eighteen `*?` pairs on a 60-character path', () => {
  const command = '************Z';
  const line = 'a'.repeat(33);
  const commandRun = commandAutomaton(command).run(line);
  assert.equal(commandRun.match, -1);
  assert.ok(bounded(commandRun.steps, command, line), `${commandRun.steps} steps`);
  const glob = '*?'.repeat(18) + 'Z';
  const path = 'a'.repeat(60);
  const globRun = globAutomaton([glob]).run(path);
  assert.equal(globRun.match, -1);
  assert.ok(bounded(globRun.steps, glob, path), `${globRun.steps} steps`);
  // Far past what a backtracking RegExp survives: still linear.
  const long = globAutomaton(['{' + '*?,'.repeat(200) + 'x}'.repeat(1) + '/**/' + '*a'.repeat(300) + 'Z']).run('a/'.repeat(500) + 'a'.repeat(5000));
  assert.equal(long.match, -1);
  assert.ok(long.steps < 4 * 2300 * 6001, `${long.steps} steps`);
});

/** A random glob over a small alphabet, and the RegExp source of what it should match (the spec, written apart). */
function randomGlob(rand: () => number): { glob: string; source: string } {
  const literal = () => pick(rand, ['a', 'b', 'A', '.', '\\*', '\\{', '\\[']);
  const atom = (previousStar: boolean): { glob: string; source: string } => {
    const r = rand();
    if (r < 0.35) {
      const l = literal();
      return { glob: l, source: l.startsWith('\\') ? l : l === '.' ? '\\.' : l };
    }
    if (r < 0.45) return { glob: '?', source: '[^/]' };
    if (r < 0.6 && !previousStar) return { glob: '*', source: '[^/]*' };
    if (r < 0.7) return pick(rand, [{ glob: '[ab]', source: '[ab]' }, { glob: '[!a]', source: '[^/a]' }, { glob: '[a-b.]', source: '[a-b.]' }]);
    if (r < 0.8) {
      const options = Array.from({ length: 2 + Math.floor(rand() * 2) }, () => segment(1));
      return { glob: `{${options.map((o) => o.glob).join(',')}}`, source: `(?:${options.map((o) => o.source).join('|')})` };
    }
    const l = literal();
    return { glob: l, source: l.startsWith('\\') ? l : l === '.' ? '\\.' : l };
  };
  const segment = (maxAtoms = 4) => {
    let glob = '';
    let source = '';
    const count = Math.floor(rand() * maxAtoms) + 1;
    for (let k = 0; k < count; k++) {
      const a = atom(glob.endsWith('*') && !glob.endsWith('\\*'));
      glob += a.glob;
      source += a.source;
    }
    return { glob, source };
  };
  const segments = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => (rand() < 0.25 ? { glob: '**', source: '' } : segment()));
  let glob = '';
  let source = '';
  /** Whether the source so far ends with the `/` before this segment (a `**` before it took it). */
  let slashTaken = true;
  segments.forEach((s, k) => {
    const last = k === segments.length - 1;
    glob += k === 0 ? s.glob : `/${s.glob}`;
    if (s.glob === '**') {
      source += last ? (slashTaken ? '.*' : '(?:/.*)?') : `${slashTaken ? '' : '/'}(?:[^/]*/)*`;
      slashTaken = true;
    } else {
      source += slashTaken ? s.source : `/${s.source}`;
      slashTaken = false;
    }
  });
  return { glob, source };
}

function randomPath(rand: () => number): string {
  return Array.from({ length: Math.floor(rand() * 9) }, () => pick(rand, ['a', 'b', 'A', '.', '/', '/', '*', '{', '['])).join('');
}

test('property: random globs match as their RegExp does, in at most 4 × (glob + 1) × (path + 1) steps', () => {
  const rand = random(32);
  let matched = 0;
  for (let n = 0; n < 3000; n++) {
    const { glob, source } = randomGlob(rand);
    const re = new RegExp(`^${source}$`, 'i');
    const automaton = globAutomaton([glob]);
    const samples = [...Array.from({ length: 20 }, () => randomPath(rand)), glob.replace(/\\(.)/g, '$1')];
    for (const path of samples) {
      const { match, steps } = automaton.run(path);
      assert.equal(match === 0, re.test(path), `glob ${JSON.stringify(glob)} (${re}) on ${JSON.stringify(path)}`);
      assert.ok(bounded(steps, glob, path), `glob ${JSON.stringify(glob)} on ${JSON.stringify(path)}: ${steps} steps`);
      if (match === 0) matched++;
    }
  }
  assert.ok(matched > 3000, `the samples match often enough to test matching (${matched})`);
});

test('property: random command patterns match as their RegExp does, in at most 4 × (pattern + 1) × (line + 1) steps', () => {
  const rand = random(9);
  for (let n = 0; n < 3000; n++) {
    const pattern = Array.from({ length: Math.floor(rand() * 12) }, () => pick(rand, ['*', '*', 'a', 'b', ' ', '\\*', '&'])).join('');
    const source = pattern.replace(/\\\*|\*/g, (m) => (m === '*' ? '[^]*' : '\\*'));
    const re = new RegExp(`^${source}$`);
    const automaton = commandAutomaton(pattern);
    for (let k = 0; k < 20; k++) {
      const line = Array.from({ length: Math.floor(rand() * 14) }, () => pick(rand, ['a', 'b', '*', '&', 'x'])).join('');
      const { match, steps } = automaton.run(line);
      assert.equal(match === 0, re.test(line), `${JSON.stringify(pattern)} on ${JSON.stringify(line)}`);
      assert.ok(bounded(steps, pattern, line), `${JSON.stringify(pattern)} on ${JSON.stringify(line)}: ${steps} steps`);
    }
  }
});

test('property: the steps stay linear on long random inputs against long random globs (where a RegExp may take minutes)', () => {
  const rand = random(7);
  for (let n = 0; n < 40; n++) {
    const glob = Array.from({ length: 40 }, () => randomGlob(rand).glob).join('/');
    const path = Array.from({ length: 2000 }, () => pick(rand, ['a', 'b', '/', '.'])).join('');
    const { steps } = globAutomaton([glob]).run(path);
    assert.ok(bounded(steps, glob, path), `${steps} steps for ${glob.length} × ${path.length}`);
  }
});
