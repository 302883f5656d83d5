// Proves the integration runner itself: the extension under test is the expected copy, a
// workspace is open, and real workspace.fs / TextDocument / WorkspaceEdit calls work.
//
// Env from test/host/run-integration.js (see test/integration/index.ts for the mocha ones):
//   ACP_TEST_FROM_VSIX=1       the extension was installed from a VSIX; it must then be loaded from
//   ACP_TEST_EXTENSIONS_DIR    this run's extensions dir (not from a dev folder or ~/.vscode)
//   ACP_TEST_DEV_PATH          otherwise: the --extensionDevelopmentPath it must be loaded from
//   ACP_TEST_WORKSPACE         the folder the workbench opened (a fresh copy per run)
//   ACP_TEST_EXTENSION_ID      id to check (default acp-host.acp-host; lets the runner be tried
//                              against another extension)
//   ACP_BENCH_ACTIVATION_FILE  where to write the cold activation time, as JSON (bench/startup.mjs)
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { testLog } from './index';

const EXT_ID = process.env.ACP_TEST_EXTENSION_ID || 'acp-host.acp-host';

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

suite('integration host', () => {
  test(`extension ${EXT_ID} is installed, loaded from the expected place, and activates`, async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} not found; have: ${vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')).join(', ')}`);
    testLog(`    [info] ${EXT_ID} ${ext.packageJSON.version} from ${ext.extensionPath}`);
    if (process.env.ACP_TEST_FROM_VSIX === '1') {
      const extDir = process.env.ACP_TEST_EXTENSIONS_DIR;
      assert.ok(extDir, 'ACP_TEST_EXTENSIONS_DIR not set');
      assert.ok(isInside(ext.extensionPath, extDir), `${ext.extensionPath} is not under ${extDir}`);
    } else if (process.env.ACP_TEST_DEV_PATH) {
      assert.strictEqual(path.resolve(ext.extensionPath), path.resolve(process.env.ACP_TEST_DEV_PATH));
    }
    // Run alone (npm run bench does, with --grep), nothing has activated it yet: then this is the
    // cold activation in a real extension host, loading dist/extension.js included.
    const cold = !ext.isActive;
    const started = performance.now();
    await ext.activate();
    const activationMs = performance.now() - started;
    assert.strictEqual(ext.isActive, true);
    if (cold) testLog(`    [info] cold activation took ${activationMs.toFixed(1)} ms`);
    const benchFile = process.env.ACP_BENCH_ACTIVATION_FILE;
    if (benchFile && cold) fs.writeFileSync(benchFile, JSON.stringify({ activationMs }));
  });

  test('runs in a Node extension host with one workspace folder', async () => {
    assert.match(vscode.version, /^1\.\d+\./);
    assert.strictEqual(typeof process.versions.node, 'string');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1, `workspace folders: ${folders.map((f) => f.uri.toString()).join(', ')}`);
    const root = folders[0].uri;
    assert.strictEqual(root.scheme, 'file');
    if (process.env.ACP_TEST_WORKSPACE) assert.strictEqual(root.fsPath, path.resolve(process.env.ACP_TEST_WORKSPACE));
    const stat = await vscode.workspace.fs.stat(root);
    assert.strictEqual(stat.type & vscode.FileType.Directory, vscode.FileType.Directory);
    testLog(`    [info] vscode ${vscode.version}, node ${process.version}, workspace ${root.fsPath}`);
  });

  test('workspace.fs + TextDocument + WorkspaceEdit round trip', async () => {
    const root = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(root, `.host-test-${Date.now()}`);
    const file = vscode.Uri.joinPath(dir, 'a.txt');
    try {
      await vscode.workspace.fs.createDirectory(dir);
      await vscode.workspace.fs.writeFile(file, Buffer.from('line one\n'));
      const doc = await vscode.workspace.openTextDocument(file);
      assert.strictEqual(doc.getText(), 'line one\n');
      await vscode.window.showTextDocument(doc);

      const edit = new vscode.WorkspaceEdit();
      edit.insert(file, new vscode.Position(1, 0), 'line two\n');
      assert.strictEqual(await vscode.workspace.applyEdit(edit), true);
      assert.strictEqual(doc.getText(), 'line one\nline two\n');
      assert.strictEqual(doc.isDirty, true);
      assert.strictEqual(await doc.save(), true);

      // File operations go through WorkspaceEdit too.
      const created = vscode.Uri.joinPath(dir, 'b.txt');
      const fileEdit = new vscode.WorkspaceEdit();
      fileEdit.createFile(created, { contents: Buffer.from('created by WorkspaceEdit\n') });
      assert.strictEqual(await vscode.workspace.applyEdit(fileEdit), true);

      const text = async (u: vscode.Uri) => Buffer.from(await vscode.workspace.fs.readFile(u)).toString('utf8');
      assert.strictEqual(await text(file), 'line one\nline two\n');
      assert.strictEqual(await text(created), 'created by WorkspaceEdit\n');
      const names = (await vscode.workspace.fs.readDirectory(dir)).map(([n]) => n).sort();
      assert.deepStrictEqual(names, ['a.txt', 'b.txt']);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    }
  });
});
