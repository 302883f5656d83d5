// The pure half of path confinement (src/workspace/pathPolicy.ts): every hostile form an agent can
// send is refused before any I/O, on POSIX and on Windows path rules.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MAX_PATH_LENGTH, checkAgentPath, isInside } from '../../src/workspace/pathPolicy';

const posix = (p: unknown) => checkAgentPath(p, path.posix);
const win = (p: unknown) => checkAgentPath(p, path.win32);

function refused(result: ReturnType<typeof checkAgentPath>, why: RegExp): void {
  assert.equal(result.ok, false, `expected a refusal, got ${JSON.stringify(result)}`);
  if (!result.ok) assert.match(result.reason, why);
}

test('pathPolicy.ts is vscode-free (unit-testable)', () => {
  const text = readFileSync(path.resolve(__dirname, '../../../src/workspace/pathPolicy.ts'), 'utf8');
  assert.doesNotMatch(text, /from ['"]vscode['"]/);
});

test('plain absolute paths pass, normalized', () => {
  assert.deepEqual(posix('/ws/src/a.ts'), { ok: true, path: '/ws/src/a.ts' });
  assert.deepEqual(posix('/ws/src/../README.md'), { ok: true, path: '/ws/README.md' });
  assert.deepEqual(posix('/ws/./a//b'), { ok: true, path: '/ws/a/b' });
  assert.deepEqual(posix('/ws/名前 with spaces/%2e%2e.txt'), { ok: true, path: '/ws/名前 with spaces/%2e%2e.txt' });
  assert.deepEqual(win('C:\\ws\\src\\..\\a.ts'), { ok: true, path: 'C:\\ws\\a.ts' });
  assert.deepEqual(win('c:/ws/a.ts'), { ok: true, path: 'c:\\ws\\a.ts' });
});

test('an escaping .. is folded lexically, so the workspace check sees where it really goes', () => {
  const r = posix('/ws/../../etc/passwd');
  assert.deepEqual(r, { ok: true, path: '/etc/passwd' });
  assert.equal(isInside('/ws', '/etc/passwd', path.posix), false);
});

test('not a string, empty, overlong', () => {
  refused(posix(undefined), /not a string/);
  refused(posix(42), /not a string/);
  refused(posix(''), /empty/);
  refused(posix('/' + 'a/'.repeat(MAX_PATH_LENGTH)), /longer than/);
  refused(posix(`/ws/${'x'.repeat(256)}`), /segment is longer/);
  assert.equal(posix(`/ws/${'x'.repeat(255)}`).ok, true);
});

test('NUL bytes', () => {
  refused(posix('/ws/a\0.txt'), /NUL/);
  refused(posix('/ws/a.txt\0/../../etc/passwd'), /NUL/);
  refused(win('C:\\ws\\a\0'), /NUL/);
});

test('relative paths', () => {
  for (const p of ['a.txt', './a.txt', '../a.txt', 'src/../../x', '.', '..']) refused(posix(p), /not an absolute/);
  for (const p of ['a.txt', '..\\x', 'C:a.txt', '\\ws\\a.txt', '/ws/a.txt']) refused(win(p), /not an absolute path with a drive/);
});

test('~ and ~user', () => {
  for (const p of ['~', '~/.ssh/id_rsa', '~root/.bashrc', '~user']) {
    refused(posix(p), /home-relative/);
    refused(win(p), /home-relative/);
  }
});

test('UNC, //server/share and device namespaces', () => {
  for (const p of ['\\\\server\\share\\a.txt', '//server/share/a.txt', '\\\\?\\C:\\Windows\\x', '\\\\.\\PhysicalDrive0', '/\\server\\share', '\\/server']) {
    refused(posix(p), /network|absolute/);
    refused(win(p), /network/);
  }
});

test('URIs are refused: agents send paths', () => {
  for (const p of ['file:///etc/passwd', 'file://localhost/ws/a.txt', 'FILE:///ws/a', 'vscode-remote://ssh/ws/a', 'http://example.com/a', 'untitled:Untitled-1']) {
    refused(posix(p), /URI/);
    refused(win(p), /URI/);
  }
  // A drive letter is not a scheme.
  assert.equal(win('D:\\ws\\a').ok, true);
});

test('Windows: alternate data streams and device names', () => {
  refused(win('C:\\ws\\a.txt:secret'), /alternate data stream/);
  refused(win('C:\\ws\\a.txt::$DATA'), /alternate data stream/);
  for (const name of ['CON', 'nul', 'NUL.txt', 'com1', 'LPT9.log', 'aux.', 'prn ']) refused(win(`C:\\ws\\${name}`), /device/);
  assert.equal(win('C:\\ws\\console.txt').ok, true);
  // On POSIX these are ordinary names.
  assert.equal(posix('/ws/CON').ok, true);
});

test('isInside compares whole segments', () => {
  assert.equal(isInside('/ws', '/ws', path.posix), true);
  assert.equal(isInside('/ws', '/ws/a/b', path.posix), true);
  assert.equal(isInside('/ws', '/ws/..foo', path.posix), true, 'a name that starts with .. is inside');
  assert.equal(isInside('/ws', '/ws-other/a', path.posix), false, 'a sibling with the same prefix is outside');
  assert.equal(isInside('/ws', '/', path.posix), false);
  assert.equal(isInside('/ws', '/etc/passwd', path.posix), false);
  assert.equal(isInside('/ws/sub', '/ws', path.posix), false);
  assert.equal(isInside('C:\\ws', 'c:\\WS\\a.txt', path.win32), true, 'Windows paths compare case-insensitively');
  assert.equal(isInside('C:\\ws', 'D:\\ws\\a.txt', path.win32), false, 'another drive');
  assert.equal(isInside('C:\\ws', 'C:\\ws2', path.win32), false);
});
