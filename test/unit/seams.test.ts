// The layering of DESIGN.md, checked: only host/ and extension.ts may import vscode, and the
// webview imports nothing of ours but the shared host↔view protocol.
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

for (const layer of ['protocol', 'agent', 'session', 'webview-protocol', 'webview', 'demo-agent']) {
  test(`src/${layer} does not import vscode`, () => {
    const offenders = sources(path.join(SRC, layer)).filter((f) => imports(f).includes('vscode'));
    assert.deepEqual(offenders.map((f) => path.relative(SRC, f)), []);
  });
}

for (const layer of ['protocol', 'session', 'webview-protocol']) {
  test(`src/${layer} is pure: no node:* modules`, () => {
    const offenders = sources(path.join(SRC, layer)).filter((f) => imports(f).some((i) => i.startsWith('node:') || i === 'fs' || i === 'child_process'));
    assert.deepEqual(offenders.map((f) => path.relative(SRC, f)), []);
  });
}

test('src/webview imports only webview-protocol of ours', () => {
  const offenders = sources(path.join(SRC, 'webview')).flatMap((f) =>
    imports(f)
      .filter((i) => i.startsWith('.'))
      .map((i) => path.resolve(path.dirname(f), i))
      .filter((target) => !target.startsWith(path.join(SRC, 'webview')) && !target.startsWith(path.join(SRC, 'webview-protocol')))
      .map((target) => `${path.relative(SRC, f)} -> ${path.relative(SRC, target)}`),
  );
  assert.deepEqual(offenders, []);
});
