// The protected list (src/policy/protectedPaths.ts) covers what makes tools run code, and on
// Windows names are compared as NTFS stores them (src/policy/windowsNames.ts, git's verify_path
// rules): trailing dots and spaces, 8.3 short names, streams; also for a file not yet created.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Policy } from '../../src/policy/policy';
import { PROTECTED_PATHS } from '../../src/policy/protectedPaths';
import { RuleSet } from '../../src/policy/rules';
import { shortNames, windowsForms } from '../../src/policy/windowsNames';

const policy = (windowsNames: boolean) => new Policy({ settings: new RuleSet([]), remembered: new RuleSet([]), protectedPaths: [], autoApprove: 'off', windowsNames });
const decision = (p: Policy, file: string) => p.decide({ kind: 'write', paths: [file] }).decision;

test('each entry of the protected list, anywhere in the tree, asks; its near neighbours do not', () => {
  const p = policy(false);
  const protectedFiles = [
    '.claude/settings.json', 'pkg/.claude/hooks/x.sh', '.mcp.json', '.gemini/settings.json', '.codex/config.toml',
    'opencode.json', 'opencode.jsonc', '.opencode/plugin/x.ts', '.cursor/mcp.json', '.continue/config.yaml',
    '.github/workflows/ci.yml', '.gitlab-ci.yml', '.circleci/config.yml', '.pre-commit-config.yaml',
    'lefthook.yml', 'lefthook.yaml', '.lefthook/pre-commit/x.sh', '.devcontainer.json', '.idea/workspace.xml',
    '.bash_profile', '.zshenv', '.zprofile', '.profile', '.config/fish/config.fish', '.config/git/config',
    '.cargo/config', '.cargo/config.toml', 'sub/project/.github/workflows/release.yml',
    '.zed/tasks.json', '.exrc', '.nvim.lua', '.nvimrc', '.hg/hgrc', '.lefthook.yml', 'lefthook-local.yaml', '.lefthook-local.yml',
    '.qwen/settings.json', '.kilocode/mcp.json', '.roo/mcp.json', '.windsurf/rules/x.md', '.amazonq/mcp.json', '.kiro/hooks/x.json',
    '.vscode-server/extensions/x/main.js', '.vscode-server-insiders/data/User/settings.json', '.config/Code/User/settings.json',
    '.config/Code - Insiders/User/keybindings.json', 'Library/Application Support/Code/User/settings.json', 'AppData/Roaming/Code/User/settings.json',
    '.local/share/code-server/User/settings.json', '.config/code-server/config.yaml', '.vscode-oss/extensions/x.js',
    '.aider.conf.yml', '.travis.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', 'Jenkinsfile', '.buildkite/pipeline.yml', '.drone.yml',
  ];
  for (const file of protectedFiles) assert.equal(decision(p, file), 'ask', file);
  const ordinary = ['claude.md', 'src/mcp.json', '.github/CODEOWNERS', '.github/ISSUE_TEMPLATE/bug.md', 'docs/lefthook.md', 'cargo/config.toml', '.config/nvim/init.lua', 'opencode.md', 'idea/notes.txt', 'zed/notes.md', 'docs/jenkinsfile.md', '.hg/store/data', 'qwen.md'];
  for (const file of ordinary) assert.equal(decision(p, file), 'allow', file);
});

test('each entry says why it is protected', () => {
  for (const { glob, why } of PROTECTED_PATHS) assert.ok(why.length > 10, glob);
  assert.equal(new Set(PROTECTED_PATHS.map((p) => p.glob)).size, PROTECTED_PATHS.length, 'no entry twice');
});

test('on Windows, .GIT., GIT~1, .git::$INDEX_ALLOCATION and ".vscode " are the protected folders they name; elsewhere they are other names', () => {
  const windows = policy(true);
  const posix = policy(false);
  for (const file of ['GIT~1/hooks/x', 'git~2/config', '.git::$INDEX_ALLOCATION/hooks/x', 'sub/.git:stream/hooks/x', '.vscode /settings.json', 'VSCODE~1/tasks.json', '.vscode./settings.json', 'GITMOD~1', '.gitmodules. ', 'GITHUB~1/workflows/ci.yml', 'ENV~1.LOC', 'ENVRC~1', '.cargo/CONFIG~1.TOM', '.npmrc:secret', 'CLAUDE~1/settings.json']) {
    assert.equal(decision(windows, file), 'ask', file);
  }
  for (const file of ['GIT~1/hooks/x', '.vscode /settings.json', 'VSCODE~1/tasks.json', 'GITMOD~1']) assert.equal(decision(posix, file), 'allow', `${file} (not Windows)`);
  for (const file of ['src/notes~1.txt', 'GIT~1.md', 'docs/gitter/readme', 'a:b.txt', 'src/app.ts. ']) assert.equal(decision(windows, file), 'allow', file);
  assert.equal(decision(windows, '.GIT.'), 'ask', '.GIT. itself: a file named so replaces the .git folder');
});

test('on Windows an allow covers a path only in every form Windows may store it as', () => {
  const allowGit83 = new RuleSet([{ request: 'write', path: 'GIT~1/**', decision: 'allow', source: 'settings' }]);
  const p = new Policy({ settings: allowGit83, remembered: new RuleSet([]), protectedPaths: [], autoApprove: 'off', windowsNames: true });
  assert.equal(decision(p, 'GIT~1/hooks/pre-commit'), 'ask', 'the rule names GIT~1, not .git');
});

test('windowsForms: segments cut at a stream and stripped of trailing dots and spaces; a short name stands for every long name it may abbreviate', () => {
  const short = shortNames(['**/.config/fish/**', '**/.cargo/config*', '**/.git/**']);
  assert.deepEqual(windowsForms('.cargo/CONFIG~1', short), ['.cargo/CONFIG~1', '.cargo/.config', '.cargo/config']);
  assert.deepEqual(windowsForms('a. /b::$DATA/c', short), ['a/b/c']);
  assert.deepEqual(windowsForms('../x', short), ['../x']);
});
