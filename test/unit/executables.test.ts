// Agents, terminals and MCP servers never take their executable from the workspace
// (src/agent/executables.ts): a bare name is found in PATH entries that are absolute and outside
// the workspace's folders, never in the cwd (Windows' spawn looks there first) nor in a relative
// entry (``, `.`, `./bin`). Both path flavours with a fake file system; then real files, a real
// client terminal and a real agent start on this system.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { currentEnv } from '../../src/agent/environment';
import { resolveExecutable } from '../../src/agent/executables';
import type { ExecutableFiles } from '../../src/agent/executables';
import { startAgent } from '../../src/agent/launch';
import { AgentStartError } from '../../src/agent/startError';
import { terminalProgram } from '../../src/agent/terminalCommand';
import { TerminalManager } from '../../src/agent/terminals';

const SLOW = { timeout: 20_000 };
const posix = process.platform !== 'win32';

/** A file system of the given executables; realpath follows `links` (a directory → its target). */
function fakeFiles(executables: string[], links: Record<string, string> = {}, caseless = false): ExecutableFiles {
  const fold = (p: string) => (caseless ? p.toLowerCase() : p);
  const set = new Set(executables.map(fold));
  return { isExecutable: (file) => set.has(fold(file)), realpath: (dir) => links[dir] ?? dir };
}

describe('Windows (path.win32 semantics, PATHEXT)', () => {
  const workspace = 'C:\\repo';
  const files = fakeFiles(['C:\\repo\\opencode.exe', 'C:\\Tools\\opencode.exe', 'C:\\repo\\bin\\evil.exe', 'C:\\Other\\evil.exe', 'C:\\node\\npx.cmd', 'C:\\Program Files\\x\\tool.EXE'], {}, true);
  const search = (PATH: string, extra: Record<string, string> = {}) => ({ env: { Path: PATH, ...extra }, cwd: workspace, excluded: [workspace], platform: 'win32' as const, files });

  test('the cwd has opencode.exe and PATH has another: PATH’s wins (the cwd is never searched)', () => {
    // The extension as PATHEXT spells it: Windows compares names without case.
    assert.equal(resolveExecutable('opencode', search('C:\\Tools')), 'C:\\Tools\\opencode.EXE');
    assert.equal(resolveExecutable('opencode', search('C:\\Nothing')), undefined);
  });

  test('PATH entries that are empty, relative (`.`, `bin`) or inside the workspace are skipped', () => {
    assert.equal(resolveExecutable('opencode', search(';.;bin;C:\\repo;C:\\REPO\\bin\\;C:\\Tools')), 'C:\\Tools\\opencode.EXE');
    assert.equal(resolveExecutable('evil', search('C:\\repo\\bin;c:\\Repo\\Bin;C:\\Other')), 'C:\\Other\\evil.EXE');
    assert.equal(resolveExecutable('evil', search('C:\\repo\\bin')), undefined);
  });

  test('PATHEXT: each extension unless the name has one; quoted entries; PATH and PATHEXT in any case', () => {
    assert.equal(resolveExecutable('npx', search('C:\\node')), 'C:\\node\\npx.CMD');
    assert.equal(resolveExecutable('npx.cmd', search('C:\\node')), 'C:\\node\\npx.cmd');
    assert.equal(resolveExecutable('npx', search('C:\\node', { PATHEXT: '.EXE' })), undefined);
    assert.equal(resolveExecutable('tool', search('"C:\\Program Files\\x"')), 'C:\\Program Files\\x\\tool.EXE');
  });

  test('an absolute path stays as it is; a relative one with a separator is resolved against the cwd, explicitly', () => {
    assert.equal(resolveExecutable('D:\\agents\\a.exe', search('')), 'D:\\agents\\a.exe');
    assert.equal(resolveExecutable('.\\bin\\agent.exe', search('')), 'C:\\repo\\bin\\agent.exe');
    assert.equal(resolveExecutable('tools/agent.exe', search('')), 'C:\\repo\\tools\\agent.exe');
    assert.equal(resolveExecutable('./x', { env: {}, excluded: [], platform: 'win32', files }), undefined, 'no cwd: not resolved');
  });

  test('a terminal command line runs in ComSpec found outside the workspace; a bare cmd.exe is searched like any program', () => {
    const shellFiles = fakeFiles(['C:\\repo\\cmd.exe', 'C:\\Windows\\System32\\cmd.exe'], {}, true);
    const env = { Path: '.;C:\\repo;C:\\Windows\\System32' };
    const run = (command: string, extra: Record<string, string> = {}) => {
      const program = terminalProgram({ command }, { ...env, ...extra }, workspace, [workspace], 'win32');
      return 'file' in program ? program.file : program.notFound;
    };
    assert.equal(resolveExecutable('cmd.exe', { env, cwd: workspace, excluded: [workspace], platform: 'win32', files: shellFiles }), 'C:\\Windows\\System32\\cmd.exe');
    assert.equal(run('dir /b', { ComSpec: 'C:\\Windows\\System32\\cmd.exe' }), 'C:\\Windows\\System32\\cmd.exe');
  });
});

describe('POSIX (path.posix semantics)', () => {
  const files = fakeFiles(['/repo/opencode', '/repo/node_modules/.bin/tsc', '/usr/bin/opencode', '/usr/local/bin/tsc', '/home/u/link/tool', '/opt/tool']);
  const search = (PATH: string, links: Record<string, string> = {}) => ({ env: { PATH }, cwd: '/repo', excluded: ['/repo'], platform: 'linux' as const, files: { ...files, realpath: (d: string) => links[d] ?? d } });

  test('PATH containing `.`, an empty entry, `./bin` or a workspace folder: skipped', () => {
    assert.equal(resolveExecutable('opencode', search('.:/usr/bin')), '/usr/bin/opencode');
    assert.equal(resolveExecutable('opencode', search(':/usr/bin')), '/usr/bin/opencode');
    assert.equal(resolveExecutable('opencode', search('/usr/bin:')), '/usr/bin/opencode');
    assert.equal(resolveExecutable('tsc', search('./node_modules/.bin:/repo/node_modules/.bin:/usr/local/bin')), '/usr/local/bin/tsc');
    assert.equal(resolveExecutable('tsc', search('/repo/node_modules/.bin')), undefined);
    assert.equal(resolveExecutable('opencode', search('/repo')), undefined);
  });

  test('an entry whose real path lies in the workspace (a link into it) is skipped too; a sibling named like it is not', () => {
    assert.equal(resolveExecutable('tool', search('/home/u/link:/opt', { '/home/u/link': '/repo/tools' })), '/opt/tool');
    const sibling = { env: { PATH: '/repo2' }, excluded: ['/repo'], platform: 'linux' as const, files: fakeFiles(['/repo2/x']) };
    assert.equal(resolveExecutable('x', sibling), '/repo2/x');
  });

  test('an absolute path stays; `./bin/agent` is resolved against the cwd; no cwd: not resolved', () => {
    assert.equal(resolveExecutable('/opt/agent', search('')), '/opt/agent');
    assert.equal(resolveExecutable('./bin/agent', search('')), '/repo/bin/agent');
    assert.equal(resolveExecutable('./bin/agent', { env: {}, excluded: [], platform: 'linux', files }), undefined);
  });
});

describe('on this system', { skip: !posix }, () => {
  /** A workspace holding `name` (a script that prints "workspace") and a tools dir holding one that prints "installed". */
  function layout(name: string) {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-exec-')));
    const workspace = path.join(root, 'repo');
    const tools = path.join(root, 'tools');
    for (const [dir, says] of [[workspace, 'workspace'], [tools, 'installed']]) {
      mkdirSync(dir);
      writeFileSync(path.join(dir, name), `#!/bin/sh\necho ${says}\n`);
      chmodSync(path.join(dir, name), 0o755);
    }
    symlinkSync(workspace, path.join(root, 'into-repo'));
    return { root, workspace, tools, cleanUp: () => rmSync(root, { recursive: true, force: true }) };
  }

  test('a client terminal runs the installed program, not the workspace’s, whatever PATH says; with none installed, it says why', SLOW, async () => {
    const { root, workspace, tools, cleanUp } = layout('opencode');
    const PATH = `.::${path.join(root, 'into-repo')}:${workspace}:${tools}:${process.env.PATH}`;
    const manager = new TerminalManager({ baseEnv: () => ({ ...currentEnv(), PATH }), defaultCwd: workspace, excludedDirs: () => [workspace] });
    try {
      const bare = await manager.create({ command: 'opencode' });
      const withArgs = await manager.create({ command: 'opencode', args: ['--version'] });
      const missing = await manager.create({ command: 'opencode', env: [{ name: 'PATH', value: `.:${workspace}` }] });
      await Promise.all([bare, withArgs, missing].map((id) => manager.waitForExit(id)));
      assert.equal(manager.output(bare).output, 'installed\n');
      assert.equal(manager.output(withArgs).output, 'installed\n');
      assert.match(manager.output(missing).output, /Could not start opencode: it was not found on PATH \(relative PATH entries and folders of the workspace are not searched\)/);
      assert.deepEqual((await manager.waitForExit(missing)).exitCode, 127);
    } finally {
      manager.dispose();
      cleanUp();
    }
  });

  test('an agent whose bare command is found only in the workspace (PATH has `.` and the folder) does not start', SLOW, async () => {
    const { workspace, cleanUp } = layout('some-agent');
    try {
      const start = startAgent(
        { command: 'some-agent', args: [], cwd: workspace, env: { ...currentEnv(), PATH: `.:${workspace}` } },
        { name: 'Some agent', clientInfo: { name: 't', version: '0' }, clientCapabilities: {}, initializeTimeoutMs: 2000, excludedDirs: [workspace], log: console },
      );
      await assert.rejects(start, (error: unknown) => error instanceof AgentStartError && error.failure === 'not-found' && /folders of the workspace are not searched/.test(error.message));
    } finally {
      cleanUp();
    }
  });
});
