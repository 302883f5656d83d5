// Start-up and size: what the VSIX ships (release bundles, raw and gzipped), the VSIX itself,
// and the activation of the bundled extension, two ways: cold in the real extension host
// (code-server, the VSIX installed, test/host/run-integration.js running only the test that
// activates it and reports the time of ext.activate()), and in fresh Node processes with a stub
// vscode API (activate.cjs): require('dist/extension.js') + activate(context) alone, split in two.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bytes, median, ms, repeat, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 7;
const HOST_RUNS = 3; // about 12 s each: a code-server and a workbench per run

/** Cold activations in the real extension host, in ms; or why there are none. */
function hostActivations() {
  const dir = mkdtempSync(join(tmpdir(), 'acp-bench-'));
  const times = [];
  try {
    for (let i = 0; i < HOST_RUNS; i++) {
      const file = join(dir, `activation-${i}.json`);
      execFileSync(process.execPath, [join(REPO, 'test/host/run-integration.js'), '--install-vsix', join(REPO, 'acp-host.vsix'), '--grep', 'activates',
        '--env', `ACP_BENCH_ACTIVATION_FILE=${file}`, '--label', 'act', '--timeout', '120'], { cwd: REPO, stdio: 'ignore' });
      if (!existsSync(file)) return { why: 'the extension was already active when the test ran' };
      times.push(JSON.parse(readFileSync(file, 'utf8')).activationMs);
    }
    return { times };
  } catch (error) {
    return { why: `the extension host did not run (${error.message.split('\n')[0]}); \`npm run setup:host\` installs it` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
  const host = hostActivations();
  const inHost = host.times ? median(host.times) : NaN;
  table(`4. Start-up: cold activation in the real extension host (code-server, VSIX installed), median of ${HOST_RUNS} fresh windows`, [
    ['step', 'time'],
    ['ext.activate(): load dist/extension.js, activate(context)', host.times ? ms(inHost) : `not measured: ${host.why}`],
  ]);
  const size = (file) => statSync(join(REPO, file)).size;
  return { load, activate, total, inHost, vsix: statSync(vsix).size, extension: size('dist/extension.js'), webview: size('media/webview.js') };
}

if (import.meta.url === `file://${process.argv[1]}`) await startup();
