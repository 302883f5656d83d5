// Start-up and size: what the VSIX ships (release bundles, raw and gzipped), the VSIX itself,
// and the activation of the bundled extension, two ways: cold in the real extension host
// (code-server, the VSIX installed, test/host/run-integration.js running only the test that
// activates it and reports the time of ext.activate()), and in fresh Node processes with a stub
// vscode API (activate.cjs): require('dist/extension.js') + activate(context) alone, split in two,
// at the first start of a build (no code cache yet) and at every later one (src/boot/codeCache.ts).
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
  const bundles = readdirSync(join(REPO, 'dist')).filter((f) => f.endsWith('.js')).map((f) => `dist/${f}`);
  return [...bundles, 'media/webview.js', ...css('media'), ...css('media/codicons'), 'media/codicons/codicon.ttf'].filter((file) => existsSync(join(REPO, file)));
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

  const storage = mkdtempSync(join(tmpdir(), 'acp-bench-storage-'));
  const shared = join(storage, 'shared');
  const activation = (...args) => JSON.parse(execFileSync(process.execPath, [join(REPO, 'bench', 'activate.cjs'), ...args], { encoding: 'utf8' }));
  // First starts: a global storage folder of their own each, so no cache; the last one writes the cache the later starts read.
  const first = await repeat(RUNS, (run) => (run === RUNS - 1 ? activation(shared, '--save-cache') : activation(join(storage, `first-${run}`))));
  const later = await repeat(RUNS, () => activation(shared));
  rmSync(storage, { recursive: true, force: true });
  const med = (runs, key) => median(runs.map(key));
  const rowsOf = (key) => [med(first, key), med(later, key)].map(ms);
  const total = med(later, (r) => r.require + r.activate);
  const firstTotal = med(first, (r) => r.require + r.activate);
  table(`4. Start-up: activation, require+activate with a stub vscode API (not VS Code's extension host), fresh Node process each, median of ${RUNS}`, [
    ['step', 'first start of a build (no code cache)', 'every later start (code cache)'],
    ["require('dist/extension.js'): the loader", ...rowsOf((r) => r.require)],
    ['activate(context): load dist/main.js, then its activate', ...rowsOf((r) => r.activate)],
    ['total', ms(firstTotal), ms(total)],
  ]);
  const host = hostActivations();
  const inHost = host.times ? median(host.times) : NaN;
  table(`4. Start-up: cold activation in the real extension host (code-server, VSIX installed), median of ${HOST_RUNS} fresh windows`, [
    ['step', 'time'],
    ['ext.activate(): load dist/extension.js, activate(context)', host.times ? ms(inHost) : `not measured: ${host.why}`],
  ]);
  const size = (file) => statSync(join(REPO, file)).size;
  return { total, firstTotal, inHost, vsix: statSync(vsix).size, extension: size('dist/extension.js') + size('dist/main.js'), webview: size('media/webview.js') };
}

if (import.meta.url === `file://${process.argv[1]}`) await startup();
