// A terminal's command line read as the shell runs it (src/policy/shellCommand.ts): its simple
// commands through operators, newlines, substitutions, `sh -c`, wrappers and paths to programs;
// the words that may name files; and what is not understood (which allow rules never apply to).
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseShellLine, pathsOfWord } from '../../src/policy/shellCommand';

/** The programs' forms of every simple command of `line`. */
const forms = (line: string) => parseShellLine(line)?.commands.flatMap((c) => c.byProgram);

test('every simple command is found: operators, newlines, subshells, substitutions, here-documents', () => {
  for (const line of [
    'make && rm -rf x',
    'make || rm -rf x',
    'make; rm -rf x',
    'make | rm -rf x',
    'make & rm -rf x',
    'make |& rm -rf x',
    'make\nrm -rf x',
    '(cd a; rm -rf x)',
    'echo $(rm -rf x)',
    'echo "$(rm -rf x)"',
    'echo `rm -rf x`',
    'diff <(rm -rf x) b',
    'cat <<EOF\n$(rm -rf x)\nEOF',
    'if true; then rm -rf x; fi',
    'for f in a; do rm -rf x; done',
  ]) {
    assert.ok(forms(line)?.includes('rm -rf x'), `${JSON.stringify(line)}: ${JSON.stringify(forms(line))}`);
  }
});

test('shells, eval, wrappers, assignments and find -exec are seen through; a program named by its path by its basename', () => {
  for (const line of [
    'sh -c "rm -rf x"',
    "bash -lc 'rm -rf x'",
    'zsh -o pipefail -c "make && rm -rf x"',
    'dash -c "sh -c \\"rm -rf x\\""',
    'eval rm -rf x',
    'env VAR=1 rm -rf x',
    'VAR=1 OTHER=2 rm -rf x',
    'command rm -rf x',
    'exec rm -rf x',
    'nice -n 5 rm -rf x',
    'nohup rm -rf x',
    'sudo -u root rm -rf x',
    'time rm -rf x',
    'timeout 5 rm -rf x',
    'echo x | xargs rm -rf x',
    '/bin/rm -rf x',
    'sudo /usr/bin/env FOO=1 /bin/rm -rf x',
  ]) {
    assert.ok(forms(line)?.includes('rm -rf x'), `${JSON.stringify(line)}: ${JSON.stringify(forms(line))}`);
  }
  assert.ok(forms('find . -name "*.o" -exec rm {} \\;')?.includes('rm {}'));
  const sudo = parseShellLine('sudo /bin/rm -rf x')!.commands;
  assert.deepEqual(sudo.map((c) => c.text), ['sudo /bin/rm -rf x'], 'as written: what an allow must match');
});

test('words and redirection targets are kept (the files a line may name); descriptors and here-strings are not', () => {
  assert.deepEqual(parseShellLine('echo x >> .git/hooks/pre-commit 2>&1')!.words.sort(), ['.git/hooks/pre-commit', 'echo', 'x']);
  assert.deepEqual(parseShellLine("cat <<< 'text' > out.txt")!.words.sort(), ['cat', 'out.txt']);
  assert.deepEqual(parseShellLine("cp 'my file' \"$HOME/x\"")!.words, ['cp', 'my file', '$HOME/x']);
});

test('what the scanner does not understand is undefined: unclosed quotes, substitutions and here-documents, stray parentheses, deep nesting', () => {
  for (const line of ['echo "a', "echo 'a", 'echo $(ls', 'echo `ls', 'cat <<EOF\nno end', 'echo )', 'echo ${x:-$(rm y)}', 'eval '.repeat(12) + 'x']) {
    assert.equal(parseShellLine(line), undefined, JSON.stringify(line));
  }
  assert.deepEqual(parseShellLine('  ')!.commands, []);
});

test('a long line of quotes, substitutions and operators is read in one pass', () => {
  assert.equal(parseShellLine('echo "$(a)" && b `c` | d; '.repeat(20_000))!.commands.length, 100_000);
});

test('pathsOfWord: the forms a protected glob judges (home, root, ./ and .. dropped; what follows an =)', () => {
  assert.deepEqual(pathsOfWord('~/.ssh/id_rsa'), ['.ssh/id_rsa']);
  assert.deepEqual(pathsOfWord('/home/me/.aws/credentials'), ['home/me/.aws/credentials']);
  assert.deepEqual(pathsOfWord('./src/../.git/config'), ['.git/config']);
  assert.deepEqual(pathsOfWord('../../.vscode/settings.json'), ['.vscode/settings.json']);
  assert.deepEqual(pathsOfWord('--output=.env'), ['--output=.env', '.env']);
  assert.deepEqual(pathsOfWord('.git\\hooks\\x'), ['.git/hooks/x']);
  assert.deepEqual(pathsOfWord('/'), []);
});
