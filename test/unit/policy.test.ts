// The policy engine (src/policy/): protected paths (globs, case, anywhere in the tree), the
// layers and their precedence, auto-approve, command patterns; and the paths the host gives it
// (src/workspace/policyPaths.ts), symlinks included, against a real file system.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Policy } from '../../src/policy/policy';
import type { AutoApprove } from '../../src/policy/policy';
import { RuleSet, describeRule, exactCommandPattern, exactPathGlob } from '../../src/policy/rules';
import type { SourcedRule } from '../../src/policy/rules';
import { commandMatcher } from '../../src/policy/globs';
import { judgedForms } from '../../src/workspace/policyPaths';

const names = async (requested: string, roots: string[]) => (await judgedForms(requested, roots)).names;
/** Every form of a path, names first: what the protected list matches. */
const policyPaths = async (requested: string, roots: string[]) => {
  const forms = await judgedForms(requested, roots);
  return [...forms.names, ...forms.absolute];
};

function policy({ settings = [], remembered = [], protectedPaths = [], autoApprove = 'off' }: { settings?: SourcedRule[]; remembered?: SourcedRule[]; protectedPaths?: string[]; autoApprove?: AutoApprove } = {}) {
  return new Policy({ settings: new RuleSet(settings), remembered: new RuleSet(remembered), protectedPaths, autoApprove });
}
const write = (...paths: string[]) => ({ kind: 'write' as const, paths });

test('writes to the protected paths ask, compared case-insensitively and anywhere in the tree; other writes are allowed', () => {
  const p = policy();
  const asked = ['.vscode/settings.json', '.vscode/tasks.json', '.git/hooks/pre-commit', '.git', 'evil.code-workspace', '.env', '.env.local', '.envrc', '.npmrc', '.ssh/id_rsa', '.VSCode/Settings.JSON', 'EVIL.Code-Workspace', 'packages/app/.git/config', 'sub/.vscode/launch.json', 'home/me/.ssh/config'];
  for (const file of asked) assert.equal(p.decide(write(file)).decision, 'ask', file);
  for (const file of ['src/app.ts', 'README.md', 'vscode/notes.md', 'environment.ts', 'docs/.gitkeep.md', 'git/hooks.md']) assert.equal(p.decide(write(file)).decision, 'allow', file);
  const verdict = p.decide(write('.git/hooks/pre-commit'));
  assert.deepEqual(verdict.reason, { by: 'protected', glob: '**/.git/**' });
});

test('a symlink cannot hide a protected target: any of the paths a write touches counts', () => {
  assert.equal(policy().decide(write('notes.txt', '.git/hooks/pre-commit')).decision, 'ask');
});

test('reads, terminals and other requests are allowed by default; acpHost.protectedPaths adds globs', () => {
  const p = policy({ protectedPaths: ['secrets/**'] });
  assert.equal(p.decide({ kind: 'read', paths: ['.env'] }).decision, 'allow');
  assert.equal(p.decide({ kind: 'terminal', paths: [], command: 'rm -rf build' }).decision, 'allow');
  assert.equal(p.decide(write('Secrets/prod.key')).decision, 'ask');
});

test('precedence: the user\'s rules, then remembered choices, then the defaults; among matching rules deny beats ask beats allow', () => {
  const allowVscode: SourcedRule = { request: 'write', path: '.vscode/settings.json', decision: 'allow', source: 'workspace' };
  assert.equal(policy({ remembered: [allowVscode] }).decide(write('.vscode/settings.json')).decision, 'allow', 'a remembered allow answers the default ask');
  const denyAll: SourcedRule = { request: 'write', path: '.vscode/**', decision: 'deny', source: 'settings' };
  const verdict = policy({ settings: [denyAll], remembered: [allowVscode] }).decide(write('.vscode/settings.json'));
  assert.deepEqual(verdict, { decision: 'deny', reason: { by: 'rule', rule: denyAll } }, 'the user\'s deny beats a remembered allow');
  const both: SourcedRule[] = [
    { request: '*', decision: 'allow', source: 'settings' },
    { request: 'terminal', command: 'git push*', decision: 'ask', source: 'settings' },
    { request: 'terminal', command: 'git push --force*', decision: 'deny', source: 'settings' },
  ];
  const p = policy({ settings: both });
  assert.equal(p.decide({ kind: 'terminal', paths: [], command: 'git push origin main' }).decision, 'ask');
  assert.equal(p.decide({ kind: 'terminal', paths: [], command: 'git push --force origin' }).decision, 'deny');
  assert.equal(p.decide({ kind: 'terminal', paths: [], command: 'git status' }).decision, 'allow');
  assert.equal(p.decide(write('.git/config')).decision, 'allow', 'the user\'s own allow-everything rule comes before the defaults');
});

test('a rule matches only what it names: request kind, tool kind, path and command must all fit', () => {
  const rules: SourcedRule[] = [{ request: 'permission', toolKind: ['execute'], decision: 'deny', source: 'settings' }];
  const p = policy({ settings: rules, autoApprove: 'allButProtected' });
  assert.equal(p.decide({ kind: 'permission', paths: [], toolKind: 'execute' }).decision, 'deny');
  assert.equal(p.decide({ kind: 'permission', paths: [], toolKind: 'edit' }).decision, 'allow');
  assert.equal(p.decide({ kind: 'permission', paths: [] }).decision, 'allow', 'no tool kind: the tool-kind rule does not match');
});

test('auto-approve: off asks the user; safe answers read, search and think; allButProtected answers all but what touches a protected path', () => {
  const ask = (mode: AutoApprove, toolKind: string, ...paths: string[]) => policy({ autoApprove: mode }).decide({ kind: 'permission', paths, toolKind }).decision;
  assert.equal(ask('off', 'read'), 'ask');
  for (const kind of ['read', 'search', 'think']) assert.equal(ask('safe', kind), 'allow', kind);
  for (const kind of ['fetch', 'edit', 'execute', 'delete', 'move', 'other']) assert.equal(ask('safe', kind), 'ask', kind);
  assert.equal(ask('safe', 'read', '.env'), 'ask', 'reading a protected file is not "safe"');
  assert.equal(ask('allButProtected', 'execute', 'build/out.js'), 'allow');
  assert.equal(ask('allButProtected', 'edit', '.vscode/settings.json'), 'ask');
  assert.deepEqual(policy({ autoApprove: 'safe' }).decide({ kind: 'permission', paths: [], toolKind: 'search' }).reason, { by: 'auto', mode: 'safe' });
});

test('fetch sends data out: safe answers it only when the user added it (alsoSafe), and never for a protected path', () => {
  const layers = { settings: new RuleSet([]), remembered: new RuleSet([]), protectedPaths: [], autoApprove: 'safe' as const };
  const fetch = (alsoSafe: string[] | undefined, ...paths: string[]) => new Policy({ ...layers, alsoSafe }).decide({ kind: 'permission', paths, toolKind: 'fetch' }).decision;
  assert.equal(fetch(undefined), 'ask');
  assert.equal(fetch([]), 'ask');
  assert.equal(fetch(['fetch']), 'allow');
  assert.equal(fetch(['fetch'], '.env'), 'ask', 'added to safe, still not for a protected path');
  assert.equal(new Policy({ ...layers, autoApprove: 'off', alsoSafe: ['fetch'] }).decide({ kind: 'permission', paths: [], toolKind: 'fetch' }).decision, 'ask', 'alsoSafe adds to safe: it turns nothing on');
});

test('command patterns: * is any text, \\* a star; remembered choices match exactly what was allowed', () => {
  assert.equal(commandMatcher('npm run *')('npm run build'), true);
  assert.equal(commandMatcher('npm run *')('npm install'), false);
  assert.equal(commandMatcher('echo \\*')('echo *'), true);
  assert.equal(commandMatcher('echo \\*')('echo x'), false);
  const exact = new RuleSet([{ request: 'terminal', command: exactCommandPattern('rm -rf * && ls'), decision: 'allow', source: 'session' }]);
  assert.ok(exact.match({ kind: 'terminal', paths: [], command: 'rm -rf * && ls' }));
  assert.equal(exact.match({ kind: 'terminal', paths: [], command: 'rm -rf / && ls' }), undefined);
  const file = new RuleSet([{ request: 'write', path: exactPathGlob('.vscode/[x]{a,b}*.json'), decision: 'allow', source: 'workspace' }]);
  assert.ok(file.match(write('.vscode/[x]{a,b}*.json')));
  assert.equal(file.match(write('.vscode/xa.json')), undefined);
  assert.equal(describeRule({ request: 'write', path: exactPathGlob('.vscode/a*.json'), decision: 'allow', source: 'workspace' }), 'write .vscode/a*.json: allow (this workspace)');
});

test('the names of a path: relative to the folder it is in, and through a symlink to what it really is (also for a file not yet created)', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-policy-')));
  fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), '');
  fs.symlinkSync(path.join(root, '.git', 'hooks', 'pre-commit'), path.join(root, 'notes.txt'));
  fs.symlinkSync(path.join(root, '.git'), path.join(root, 'innocent'));
  assert.deepEqual(await names(path.join(root, 'notes.txt'), [root]), ['notes.txt', '.git/hooks/pre-commit']);
  assert.deepEqual(await names(path.join(root, 'innocent', 'hooks', 'post-merge'), [root]), ['innocent/hooks/post-merge', '.git/hooks/post-merge'], 'a new file under a symlinked folder');
  assert.deepEqual(await names(path.join(root, 'src', 'a.ts'), [root]), ['src/a.ts']);
  const outside = await names('/home/someone/.ssh/config', [root]);
  assert.deepEqual(outside, ['home/someone/.ssh/config']);
  assert.equal(policy().decide(write(...(await policyPaths(path.join(root, 'notes.txt'), [root])))).decision, 'ask');
});

test('the names of a path with several roots (a multi-root session): protected paths are protected in every root, and through a symlink from one into another', async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-policy-roots-')));
  const [app, lib] = [path.join(base, 'app'), path.join(base, 'lib')];
  fs.mkdirSync(path.join(app, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(lib, '.vscode'), { recursive: true });
  fs.symlinkSync(path.join(app, '.git', 'hooks'), path.join(lib, 'scripts'));
  const roots = [app, lib];
  try {
    assert.deepEqual(await names(path.join(lib, '.vscode', 'settings.json'), roots), ['.vscode/settings.json']);
    assert.deepEqual(await names(path.join(lib, 'src', 'index.ts'), roots), ['src/index.ts']);
    assert.deepEqual(await names(path.join(lib, 'scripts', 'pre-push'), roots), ['scripts/pre-push', '.git/hooks/pre-push']);
    for (const file of [path.join(lib, '.vscode', 'settings.json'), path.join(lib, 'scripts', 'pre-push'), path.join(app, '.git', 'hooks', 'pre-commit')]) {
      assert.equal(policy().decide(write(...(await policyPaths(file, roots)))).decision, 'ask', file);
    }
    assert.equal(policy().decide(write(...(await policyPaths(path.join(lib, 'src', 'index.ts'), roots)))).decision, 'allow');
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

const terminal = (command: string) => ({ kind: 'terminal' as const, paths: [], command });

test('a deny or ask rule about a command matches it anywhere in the line: after operators, inside sh -c and substitutions, behind wrappers, named by its path', () => {
  const deny: SourcedRule = { request: 'terminal', command: 'rm *', decision: 'deny', source: 'settings' };
  const p = policy({ settings: [deny] });
  for (const line of ['rm -rf x', 'make && rm -rf x', 'sh -c "rm -rf x"', 'bash -c "make; rm x"', 'env VAR=1 rm x', 'sudo rm x', 'command rm x', '/bin/rm -rf x', 'echo $(rm x)', 'make\nrm x', 'ls | xargs rm -f']) {
    assert.deepEqual(p.decide(terminal(line)), { decision: 'deny', reason: { by: 'rule', rule: deny } }, line);
  }
  for (const line of ['make', 'echo rm x', 'git rm --cached x', 'rmdir x']) assert.equal(p.decide(terminal(line)).decision, 'allow', line);
  assert.equal(policy({ settings: [deny] }).decide(terminal('rm "x')).decision, 'deny', 'a line the parser does not understand still meets deny rules as a whole');
});

test('an allow rule about a command allows a line only when it allows every command in it, as written', () => {
  const allow = new RuleSet([{ request: 'terminal', command: 'npm test*', decision: 'allow', source: 'settings' }]);
  assert.ok(allow.match(terminal('npm test')));
  assert.ok(allow.match(terminal('npm test -- --watch')));
  for (const line of ['npm test && curl x | sh', 'npm test; rm -rf ~', 'npm test\nrm -rf ~', 'npm test $(curl x)', 'npm test "unclosed', './npm test']) {
    assert.equal(allow.match(terminal(line)), undefined, line);
  }
  const remembered = new RuleSet([{ request: 'terminal', command: exactCommandPattern('npm test && ls'), decision: 'allow', source: 'session' }]);
  assert.ok(remembered.match(terminal('npm test && ls')), 'a remembered choice names the whole line it allowed');
});

test('a terminal command that names a protected path asks by default, and says which', () => {
  const p = policy({ protectedPaths: ['secrets/**'] });
  const cases: [string, string, string][] = [
    ['echo x >> .git/hooks/pre-commit', '.git/hooks/pre-commit', '**/.git/**'],
    ['cp evil .vscode/settings.json', '.vscode/settings.json', '**/.vscode/**'],
    ['cat ~/.ssh/id_rsa', '~/.ssh/id_rsa', '**/.ssh/**'],
    ['ln -s /tmp/x .git/config', '.git/config', '**/.git/**'],
    ['sh -c "cat > ./src/../.env"', 'cat > ./src/../.env', '**/.env*'],
    ['tar xf a.tar -C secrets/', 'secrets/', 'secrets/**'],
    ['cat /home/me/.aws/credentials', '/home/me/.aws/credentials', '**/.aws/**'],
    ['echo "unclosed > .git/config', '.git/config', '**/.git/**'],
  ];
  for (const [line, named, glob] of cases) assert.deepEqual(p.decide(terminal(line)), { decision: 'ask', reason: { by: 'protected', glob, named } }, line);
  for (const line of ['npm test', 'ls src && cat README.md', 'git status', 'echo .gitignore > notes.txt']) assert.equal(p.decide(terminal(line)).decision, 'allow', line);
});

test('a terminal that runs in a protected folder asks, and a relative word is judged from the folder it runs in', () => {
  const p = policy();
  const inFolder = (line: string, cwd: string) => ({ kind: 'terminal' as const, paths: [cwd], absolutePaths: [`r/${cwd}`], command: line });
  assert.deepEqual(p.decide(inFolder('ls', '.git/hooks')), { decision: 'ask', reason: { by: 'protected', glob: '**/.git/**', named: 'its working folder .git/hooks' } });
  assert.deepEqual(p.decide(inFolder('echo x > ../.git/config', 'src')), { decision: 'ask', reason: { by: 'protected', glob: '**/.git/**', named: '../.git/config' } });
  assert.deepEqual(p.decide(inFolder('cp evil settings.json', '.vscode')).decision, 'ask');
  for (const line of ['ls', 'echo x > notes.txt', 'cat ../README.md']) assert.equal(p.decide(inFolder(line, 'src')).decision, 'allow', line);
});
