// Path escapes of every form, sent by an agent over a live AcpConnection as fs/read_text_file,
// fs/write_text_file and terminal/create `cwd`: none is accepted, and nothing outside the
// workspace is read, written or run in. The real confinement (host/workspacePaths.ts) and the
// real TerminalPort run here; the few `vscode` names they touch are stubbed (workspace folders,
// settings, Uri.file, a terminal that shows nothing), so the decisions and the I/O are the real ones.
import test from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpConnection } from '../../src/agent/connection';
import { currentEnv } from '../../src/agent/environment';
import { clientMethods, ErrorCodes } from '../../src/protocol';
import { FakePeer, recordingLog } from './helpers/streams';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-paths-')));
const ws = path.join(root, 'workspace');
const outside = path.join(root, 'sentinel');
const disposables: { dispose(): void }[] = [];

const fakeVscode = {
  Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
  // Settings: none set (the defaults apply).
  workspace: { workspaceFolders: [{ uri: { scheme: 'file', fsPath: ws } }], getConfiguration: () => ({ get: () => undefined, inspect: () => undefined }) },
  EventEmitter: class {
    event = () => ({ dispose() {} });
    fire() {}
    dispose() {}
  },
  ThemeIcon: class {},
  window: { createTerminal: () => ({ dispose() {} }), onDidCloseTerminal: () => ({ dispose() {} }) },
};
const moduleInternals = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = moduleInternals._load;
moduleInternals._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, ...rest);
};
// After the stub is in place (an import would be hoisted above it).
const { resolveWorkspacePath } = require('../../src/host/editor/workspacePaths') as typeof import('../../src/host/editor/workspacePaths');
const { TerminalPort } = require('../../src/host/terminals/terminalPort') as typeof import('../../src/host/terminals/terminalPort');

/** Every file and symlink under `dir` with its content or target: the sentinel must not change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = e.isFile() ? readFileSync(p, 'utf8') : e.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

test.before(() => {
  mkdirSync(path.join(outside, 'deeper'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'sentinel secret');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  writeFileSync(path.join(ws, 'file.txt'), 'inside');
  symlinkSync(outside, path.join(ws, 'link-out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link-file'));
  symlinkSync(path.join(outside, 'not-yet', 'x'), path.join(ws, 'dangling'));
  symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
  symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
  symlinkSync(path.join(ws, 'sub'), path.join(ws, 'link-in')); // inside: allowed
});
test.after(() => {
  disposables.forEach((d) => d.dispose());
  rmSync(root, { recursive: true, force: true });
});

const o = () => path.basename(outside);
/** Every form of escape; none may be accepted. */
const escapes = (): string[] => [
  'secret.txt',
  './secret.txt',
  '../sentinel/secret.txt',
  `${ws}/../${o()}/secret.txt`,
  `${ws}/sub/../../${o()}/secret.txt`,
  `${ws}/./../${o()}`,
  `${ws}/..`,
  `${outside}/secret.txt`,
  `${outside}/deeper`,
  `${ws}/link-out/secret.txt`,
  `${ws}/link-out`,
  `${ws}/link-out/.`,
  `${ws}/link-out/`,
  `${ws}/link-out/deeper/`,
  `${ws}/link-out/new.txt`,
  `${ws}/link-file`,
  `${ws}/dangling`,
  `${ws}/dangling/new.txt`,
  `${ws}/loop-a`,
  `${ws}/loop-a/x`,
  `/proc/self/root${outside}/secret.txt`,
  '~',
  `~/${o()}`,
  `~root/.bashrc`,
  '\\\\server\\share\\secret.txt',
  '//server/share/secret.txt',
  `//${outside}/secret.txt`,
  `file://${outside}/secret.txt`,
  `FILE:${outside}/secret.txt`,
  `${ws}/file.txt\0/../../${o()}/secret.txt`,
  `${ws}/\0`,
  `${ws}/${'a/'.repeat(3000)}x`,
  `${ws}/${'x'.repeat(300)}`,
  `${ws.toUpperCase()}/file.txt`,
  `${path.dirname(ws)}/WORKSPACE/file.txt`,
  `${ws}/sub\n/../../${o()}/secret.txt`,
  `${ws}/../${o()}/secret.txt\n`,
  `${ws}-evil/secret.txt`,
  '',
];

function connect() {
  const peer = new FakePeer();
  const log = recordingLog();
  const connection = new AcpConnection(peer.toClient, peer.fromClient, { log });
  connection.onRequest(clientMethods.fsReadTextFile, async (p) => ({ content: readFileSync((await resolveWorkspacePath(p.path, [ws], log)).fsPath, 'utf8') }));
  connection.onRequest(clientMethods.fsWriteTextFile, async (p) => {
    const target = (await resolveWorkspacePath(p.path, [ws], log)).fsPath;
    mkdirSync(path.dirname(target), { recursive: true }); // the real writer creates missing folders too
    writeFileSync(target, p.content);
    return {};
  });
  const port = new TerminalPort({ baseEnv: () => currentEnv(), roots: () => [ws], onUpdate: () => undefined, log, manager: { killGraceMs: 200 } });
  disposables.push(port, connection);
  connection.onRequest(clientMethods.terminalCreate, (p) => port.create(p));
  return { peer, log, port };
}

test('no path escape is accepted by fs/read_text_file, fs/write_text_file or terminal/create, and the sentinel is untouched', { timeout: 30_000 }, async () => {
  const { peer, log } = connect();
  const before = snapshot(outside);
  const paths = escapes();
  let id = 0;
  const sent: Array<{ id: number; what: string; path: string }> = [];
  for (const p of paths) {
    const params = { sessionId: 's' };
    for (const [method, extra] of [
      ['fs/read_text_file', { path: p }],
      ['fs/write_text_file', { path: p, content: 'PWNED' }],
      ['terminal/create', { command: process.execPath, args: ['-e', "require('fs').writeFileSync('pwned.txt', 'PWNED')"], cwd: p }],
    ] as const) {
      // An empty cwd means "the session cwd" (as absent): it is not an escape for terminal/create.
      if (method === 'terminal/create' && p === '') continue;
      sent.push({ id: ++id, what: method, path: p });
      peer.send({ jsonrpc: '2.0', id, method, params: { ...params, ...extra } });
    }
  }
  const accepted: string[] = [];
  for (const s of sent) {
    const answer = await peer.responseTo(s.id, 10_000);
    if (answer.error?.code !== ErrorCodes.InvalidParams) accepted.push(`${s.what} ${JSON.stringify(s.path)} → ${JSON.stringify(answer)}`);
  }
  assert.deepEqual(accepted, [], 'accepted escapes');
  await new Promise((r) => setTimeout(r, 300)); // a command that had started would have written by now
  assert.deepEqual(snapshot(outside), before, 'the sentinel directory changed');
  assert.equal(readdirSync(root).sort().join(), ['sentinel', 'workspace'].join(), 'nothing was created beside the workspace');
  const refusals = log.entries.filter((e) => e.level === 'warn' && e.message.startsWith('Refused path')).length;
  console.log(`paths: ${paths.length} forms × 3 methods, ${sent.length} requests, 0 accepted, ${refusals} refusals logged`);
  assert.equal(refusals, sent.length, 'every refusal is logged');
  // Refusals are logged on one line each: a newline in a path cannot forge a log line.
  for (const e of log.entries) assert.doesNotMatch(e.message, /\n/);
});

test('lookalikes that stay inside are served inside: %2e%2e is a name, .. that stays in, a symlink within', { timeout: 30_000 }, async () => {
  const { peer, port } = connect();
  const before = snapshot(outside);
  const inside = [
    [`${ws}/%2e%2e/%2e%2e/${o()}/secret.txt`, `${ws}/%2e%2e/%2e%2e/${o()}/secret.txt`],
    [`${ws}/sub/../file.txt`, `${ws}/file.txt`],
    [`${ws}/link-in/new.txt`, `${ws}/sub/new.txt`],
    [`${ws}/sub/..foo`, `${ws}/sub/..foo`],
    [`${ws}/name\nwith newline.txt`, `${ws}/name\nwith newline.txt`],
  ];
  let id = 100;
  for (const [requested, real] of inside) {
    peer.send({ jsonrpc: '2.0', id: ++id, method: 'fs/write_text_file', params: { sessionId: 's', path: requested, content: `wrote ${id}` } });
    assert.deepEqual((await peer.responseTo(id)).result, {}, requested);
    assert.equal(readFileSync(real, 'utf8'), `wrote ${id}`);
  }
  // A cwd through a symlink inside runs in its real directory.
  peer.send({ jsonrpc: '2.0', id: 200, method: 'terminal/create', params: { sessionId: 's', command: process.execPath, args: ['-e', 'process.stdout.write(process.cwd())'], cwd: `${ws}/link-in` } });
  const { terminalId } = (await peer.responseTo(200)).result;
  await port.waitForExit({ sessionId: 's', terminalId });
  assert.equal((await port.output({ sessionId: 's', terminalId })).output, path.join(ws, 'sub'));
  assert.deepEqual(snapshot(outside), before);
  assert.ok(statSync(path.join(ws, 'sub', 'new.txt')).isFile());
});

test('several roots (a multi-root session): any root is served; a symlink leaving every root, a folder beside them, a root the session lacks are refused', { timeout: 30_000 }, async () => {
  const second = path.join(root, 'second');
  const beside = path.join(root, 'beside');
  mkdirSync(second);
  mkdirSync(beside);
  writeFileSync(path.join(beside, 'secret.txt'), 'beside secret');
  symlinkSync(outside, path.join(second, 'link-out'));
  symlinkSync(ws, path.join(second, 'link-first')); // into the other root: served there
  const log = recordingLog();
  const roots = [ws, second];
  const port = new TerminalPort({ baseEnv: () => currentEnv(), roots: () => roots, onUpdate: () => undefined, log, manager: { killGraceMs: 200 } });
  disposables.push(port);
  const refused = (error: { code?: number }) => error.code === ErrorCodes.InvalidParams;
  try {
    assert.equal((await resolveWorkspacePath(`${second}/new.txt`, roots, log)).fsPath, path.join(second, 'new.txt'));
    assert.equal((await resolveWorkspacePath(`${ws}/file.txt`, roots, log)).fsPath, path.join(ws, 'file.txt'));
    assert.equal((await resolveWorkspacePath(`${second}/link-first/file.txt`, roots, log)).fsPath, path.join(ws, 'file.txt'));
    for (const escape of [
      `${second}/link-out/secret.txt`,
      `${second}/link-out/new.txt`,
      `${second}/link-out`,
      `${beside}/secret.txt`,
      `${second}/../beside/secret.txt`,
      `${ws}/../beside/secret.txt`,
      `${second}-evil/x.txt`,
      root,
    ]) {
      await assert.rejects(resolveWorkspacePath(escape, roots, log), refused, escape);
    }
    // The same paths for a session confined to its cwd (its agent does not take additionalDirectories).
    await assert.rejects(resolveWorkspacePath(`${second}/new.txt`, [ws], log), refused);
    // No folder open (an empty cwd): nothing is inside, whatever the process's own cwd.
    const cwd = process.cwd();
    process.chdir(root);
    try {
      await assert.rejects(resolveWorkspacePath(`${ws}/file.txt`, [''], log), refused);
    } finally {
      process.chdir(cwd);
    }

    // terminal/create: a cwd in the second root runs there; none is the first root (the session cwd); beside them is refused.
    const run = async (cwd?: string) => {
      const { terminalId } = await port.create({ sessionId: 's', command: process.execPath, args: ['-e', 'process.stdout.write(process.cwd())'], ...(cwd ? { cwd } : {}) });
      await port.waitForExit({ sessionId: 's', terminalId });
      return (await port.output({ sessionId: 's', terminalId })).output;
    };
    assert.equal(await run(second), second);
    assert.equal(await run(), ws);
    await assert.rejects(port.create({ sessionId: 's', command: process.execPath, args: ['-e', ''], cwd: beside }), refused);
    await assert.rejects(port.create({ sessionId: 's', command: process.execPath, args: ['-e', ''], cwd: `${second}/link-out` }), refused);
    assert.equal(readFileSync(path.join(beside, 'secret.txt'), 'utf8'), 'beside secret');
  } finally {
    rmSync(second, { recursive: true, force: true });
    rmSync(beside, { recursive: true, force: true });
  }
});
