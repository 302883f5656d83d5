import * as path from 'node:path';
import { loadWithCodeCache } from './codeCache';

// The extension's entry (`main` in package.json, bundled to dist/extension.js): a few lines that
// load the extension's bundle (src/extension.ts, dist/main.js) through V8's code cache, and hand
// it activate and deactivate. It imports nothing of the extension, so that it stays this small.

type Main = typeof import('../extension');

/** What the loader reads of the ExtensionContext (the rest goes to the extension as it is). */
interface Context {
  readonly globalStorageUri: { readonly fsPath: string };
}

let main: Main | undefined;

export function activate(context: Context): ReturnType<Main['activate']> {
  main ??= loadWithCodeCache(path.join(__dirname, 'main.js'), path.join(context.globalStorageUri.fsPath, 'code-cache'), require).exports as Main;
  return main.activate(context as Parameters<Main['activate']>[0]);
}

export function deactivate(): ReturnType<Main['deactivate']> | undefined {
  return main?.deactivate();
}
