// The layering of docs/ARCHITECTURE.md, checked: which folder of src/ may import which, that the
// VS Code-free core stays free of vscode (so it runs in plain Node), and that files stay small.
// Every folder of src/ must have a rule here: a new folder cannot escape the check.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** The top folder of src/ a relative import lands in ('extension' for src/extension.ts). */
function layerOf(target: string): string {
  const rel = path.relative(SRC, target);
  return rel.includes(path.sep) ? rel.split(path.sep)[0] : rel.replace(/\.ts$/, '');
}

const NODE_BUILTIN = (i: string) => i.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'crypto'].includes(i);

/**
 * Per folder: the folders of ours it may import, and whether it may import vscode / node
 * built-ins. base (lifetimes) may be used by every layer of the extension. protocol, session, forms, webview-protocol and the webview are pure; the core
 * (agent, runtime, session, view, workspace) never sees vscode; only host/ and extension.ts do.
 * The session model knows nothing of the panel's view model: view/projection.ts maps it.
 */
const RULES: Record<string, { ours: string[]; vscode: boolean; node: boolean; nodeIn?: string }> = {
  // As in VS Code's own src/vs/base: pure, but for base/node/, the helpers that need Node.
  base: { ours: [], vscode: false, node: false, nodeIn: 'node' },
  protocol: { ours: [], vscode: false, node: false },
  policy: { ours: [], vscode: false, node: false },
  audit: { ours: ['base'], vscode: false, node: false },
  agent: { ours: ['base', 'protocol'], vscode: false, node: true },
  runtime: { ours: ['base', 'protocol', 'agent', 'session', 'policy', 'audit', 'workspace'], vscode: false, node: true },
  session: { ours: ['base', 'protocol', 'agent', 'runtime', 'forms', 'policy', 'audit'], vscode: false, node: false },
  view: { ours: ['base', 'session', 'webview-protocol'], vscode: false, node: false },
  forms: { ours: [], vscode: false, node: false },
  workspace: { ours: [], vscode: false, node: true },
  'webview-protocol': { ours: ['forms'], vscode: false, node: false },
  webview: { ours: ['webview-protocol'], vscode: false, node: false },
  'demo-agent': { ours: [], vscode: false, node: true },
  // The entry VS Code loads: it names the extension's module only as a type (what it loads from dist/main.js).
  boot: { ours: ['extension'], vscode: false, node: true },
  host: { ours: ['base', 'protocol', 'policy', 'agent', 'runtime', 'session', 'view', 'workspace', 'forms', 'webview-protocol', 'audit'], vscode: true, node: true },
};

test('every folder of src/ has a layering rule', () => {
  const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.deepEqual(folders.filter((f) => !(f in RULES)), []);
});

for (const [layer, rule] of Object.entries(RULES)) {
  test(`src/${layer} imports only ${rule.ours.length ? rule.ours.join(', ') : 'itself'} of ours${rule.vscode ? '' : ', no vscode'}${rule.node ? '' : `, no node built-ins${rule.nodeIn ? ` (but in ${rule.nodeIn}/)` : ''}`}`, () => {
    const offenders = sources(path.join(SRC, layer)).flatMap((file) =>
      imports(file)
        .filter((i) => {
          if (i === 'vscode') return !rule.vscode;
          if (NODE_BUILTIN(i)) return !(rule.node || (rule.nodeIn !== undefined && file.startsWith(path.join(SRC, layer, rule.nodeIn) + path.sep)));
          if (!i.startsWith('.')) return false;
          const target = layerOf(path.resolve(path.dirname(file), i));
          return target !== layer && !rule.ours.includes(target);
        })
        .map((i) => `${path.relative(SRC, file)} -> ${i}`),
    );
    assert.deepEqual(offenders, []);
  });
}

test('what the panel bundles validates with zod/mini: classic zod (its methods pull in all of it) would more than double media/webview.js', () => {
  const classic = ['webview', 'webview-protocol', 'forms']
    .flatMap((layer) => sources(path.join(SRC, layer)))
    .flatMap((file) => imports(file).filter((i) => i === 'zod' || (i.startsWith('zod/') && i !== 'zod/mini')).map((i) => `${path.relative(SRC, file)} -> ${i}`));
  assert.deepEqual(classic, []);
});

test('src/ takes vscode as the module itself (`import vscode = require`), never as an ES namespace', () => {
  // The bundle turns each `import * as vscode` into a copy of the module's ~200 exports, one
  // getter each, in every importing file: about 5 ms of every activation (bench/startup.mjs).
  const namespaces = sources(SRC).filter((file) => /import \* as \w+ from 'vscode'/.test(readFileSync(file, 'utf8'))).map((file) => path.relative(SRC, file));
  assert.deepEqual(namespaces, []);
});

test('no file in src/ is over 350 lines', () => {
  const long = sources(SRC)
    .map((file) => ({ file: path.relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter((f) => f.lines > 350);
  assert.deepEqual(long, []);
});

test('activate stays thin: under 30 lines', () => {
  const text = readFileSync(path.join(SRC, 'extension.ts'), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /export (async )?function activate\(/.test(l));
  assert.notEqual(start, -1, 'activate is declared in src/extension.ts');
  const end = lines.findIndex((l, i) => i > start && l === '}');
  assert.ok(end - start + 1 < 30, `activate is ${end - start + 1} lines`);
});

test('events are emitters (vscode-jsonrpc in the core, VS Code in host/), not hand-rolled sets of listeners', () => {
  // A collection of callbacks that a class walks, calling each, to "emit": what Emitter already
  // does, with a disposable per subscription and a listener that throws kept from breaking the
  // others. (Checked on the idiom, so a listener type by any name is caught.)
  const handRolled = sources(SRC)
    .filter((file) => /for \(const (\w+) of this\.\w+(?:\.values\(\))?\)\s*\1\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(SRC, file));
  assert.deepEqual(handRolled, ['agent/connection.ts'], 'only the connection keeps callbacks: the rejections of requests in flight, run once when it closes');
});
