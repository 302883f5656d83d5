// Start-up and size: what the VSIX ships (release bundles, raw and gzipped), the VSIX itself,
// and the activation of the bundled extension. Activation is measured in fresh Node processes
// with a stub vscode API (activate.cjs), not in VS Code's extension host: it is
// require('dist/extension.js') + activate(context), without VS Code's own overhead.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bytes, median, ms, repeat, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 7;

function shipped() {
  const css = (dir) => readdirSync(join(REPO, dir)).filter((f) => f.endsWith('.css')).map((f) => `${dir}/${f}`);
  return ['dist/extension.js', 'dist/demo-agent.js', 'media/webview.js', ...css('media'), ...css('media/codicons'), 'media/codicons/codicon.ttf']
    .filter((file) => existsSync(join(REPO, file)));
}

export async function startup() {
  const vsix = join(REPO, 'acp-host.vsix');
  if (!existsSync(vsix)) throw new Error('acp-host.vsix is missing: `npm run bench` builds it with `npm run package`');
  const rows = shipped().map((file) => {
    const content = readFileSync(join(REPO, file));
    return [file, bytes(content.length), bytes(gzipSync(content).length)];
  });
  rows.push(['acp-host.vsix', bytes(statSync(vsix).size), '(zip)']);
  table('4. Start-up and size: what the VSIX ships (release build: minified, no source maps)', [['file', 'size', 'gzip'], ...rows]);

  const runs = await repeat(RUNS, () => JSON.parse(execFileSync(process.execPath, [join(REPO, 'bench', 'activate.cjs')], { encoding: 'utf8' })));
  const load = median(runs.map((r) => r.require));
  const activate = median(runs.map((r) => r.activate));
  const total = median(runs.map((r) => r.require + r.activate));
  table(`4. Start-up: activation, require+activate with a stub vscode API (not VS Code's extension host), fresh Node process each, median of ${RUNS}`, [
    ['step', 'time'],
    ["require('dist/extension.js')", ms(load)],
    ['activate(context)', ms(activate)],
    ['total', ms(total)],
  ]);
  return { load, activate, total, vsix: statSync(vsix).size };
}

if (import.meta.url === `file://${process.argv[1]}`) await startup();
