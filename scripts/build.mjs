// Bundles the extension host code, the demo agent and the webview with esbuild.
// Development builds carry source maps; `--release` minifies and drops them (what the VSIX ships).
// Both copy the codicon font and stylesheet next to the webview (its CSP allows only media/).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';

const release = process.argv.includes('--release');
const common = { bundle: true, minify: release, sourcemap: release ? false : 'linked', logLevel: 'warning', legalComments: 'none' };

rmSync('dist', { recursive: true, force: true });
rmSync('media/webview.js.map', { force: true });

mkdirSync('media/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `media/codicons/${file}`);

await Promise.all([
  // The extension (dist/main.js), and the entry VS Code loads (dist/extension.js), which loads it through V8's code cache (src/boot/).
  build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/main.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/boot/loader.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // Unpacking agents' archives (tar, yauzl): loaded only when ACP: Browse Agents… installs a binary (runtime/registry/install.ts).
  build({ ...common, entryPoints: ['src/runtime/registry/archive.ts'], outfile: 'dist/archive.js', platform: 'node', format: 'cjs', target: 'node20' }),
  // Loaded when first used, so that activation does not carry them: ACP: Browse Agents… (host/registry/registry.ts).
  build({ ...common, entryPoints: ['src/host/registry/registryBrowser.ts'], outfile: 'dist/registryBrowser.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  // ACP's schemas, with their own zod: loaded when an agent's first message is read or sent (protocol/lazySchemas.ts).
  build({ ...common, entryPoints: ['src/protocol/acpSchemas.ts'], outfile: 'dist/acpSchemas.js', platform: 'node', format: 'cjs', target: 'node20' }),
  build({ ...common, entryPoints: ['src/demo-agent/main.ts'], outfile: 'dist/demo-agent.js', platform: 'node', format: 'cjs', target: 'node20' }),
  build({ ...common, entryPoints: ['src/webview/main.ts'], outfile: 'media/webview.js', platform: 'browser', format: 'iife', target: 'es2022' }),
]);
// The panel loads this in every webview: its validation (zod/mini), markdown-it and DOMPurify are
// most of it. A release over budget fails here rather than ship (classic zod alone would double it).
const WEBVIEW_BUDGET = 250 * 1024;
const webviewBytes = statSync('media/webview.js').size;
if (release && webviewBytes > WEBVIEW_BUDGET) throw new Error(`media/webview.js is ${webviewBytes} bytes, over its budget of ${WEBVIEW_BUDGET}`);
console.log(`built ${release ? 'release' : 'development'} bundles`);
