#!/usr/bin/env node
// Runs a mocha suite INSIDE the real VS Code extension host (code-server + headless Chromium,
// see workbench.js), the way @vscode/test-electron would with a desktop VS Code.
//
//   node test/host/run-integration.js [options]
//     --install-vsix FILE            install this VSIX first (repeatable); the extension under test
//                                    then comes from the run's extensions dir
//     --extensionDevelopmentPath DIR development extension (default with --install-vsix: the empty
//                                    harness in test/host/harness; required otherwise)
//     --extensionTestsPath FILE      mocha loader run by the extension host
//                                    (default: out/test/integration/index.js)
//     --workspace DIR|FILE           folder (or .code-workspace file) to open (default:
//                                    test/fixtures/workspace); a fresh copy of it (of a file, of its
//                                    folder) is opened each run, tests may write into it
//     --no-copy-workspace            open DIR itself instead of a copy
//     --setting key=jsonValue        user setting (repeatable; a value that is not JSON is a string)
//     --env KEY=VALUE                extra environment for the extension host (repeatable)
//     --grep REGEX                   only tests whose full title matches
//     --label NAME                   names the artifacts (default: vsix or dev)
//     --timeout S                    whole run, default 300
//     --keep-state                   keep the run's state dir (it is always kept on failure)
//     --verbose                      echo workbench/extension-host console output
//
// Exit code 0 only when the suite's results file shows >0 tests and 0 failures: a crashed
// extension host also reports exit code 0 to the workbench, so the file is the truth.
// On failure, logs and a screenshot go to ${ACP_TEST_ARTIFACTS:-<repo>/test-results}.
'use strict';
const fs = require('fs');
const path = require('path');
const wb = require('./workbench');

const { REPO, ARTIFACTS, HARNESS_DIR } = wb.paths;

function usage(msg) {
  if (msg) console.error(`run-integration: ${msg}`);
  const lines = fs.readFileSync(__filename, 'utf8').split('\n');
  const head = lines.slice(4, lines.findIndex((l) => !l.startsWith('//') && !l.startsWith('#!'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n');
  console.error(head);
  process.exit(2);
}

function parseArgs(argv) {
  const a = {
    vsix: [], dev: undefined, tests: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
    workspace: path.join(REPO, 'test', 'fixtures', 'workspace'), copyWorkspace: true,
    settings: {}, env: {}, grep: undefined, label: undefined, timeout: 300, keep: false, verbose: false,
  };
  const keyValue = (s, flag) => {
    const i = s ? s.indexOf('=') : -1;
    if (i <= 0) usage(`${flag} needs key=value, got ${s}`);
    return [s.slice(0, i), s.slice(i + 1)];
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${k} needs a value`); return argv[++i]; };
    switch (k) {
      case '--install-vsix': a.vsix.push(path.resolve(v())); break;
      case '--extensionDevelopmentPath': a.dev = path.resolve(v()); break;
      case '--extensionTestsPath': a.tests = path.resolve(v()); break;
      case '--workspace': a.workspace = path.resolve(v()); break;
      case '--no-copy-workspace': a.copyWorkspace = false; break;
      case '--setting': {
        const [key, raw] = keyValue(v(), k);
        try { a.settings[key] = JSON.parse(raw); } catch { a.settings[key] = raw; }
        break;
      }
      case '--env': { const [key, val] = keyValue(v(), k); a.env[key] = val; break; }
      case '--grep': a.grep = v(); break;
      case '--label': a.label = v(); break;
      case '--timeout': a.timeout = Number(v()); if (!(a.timeout > 0)) usage('--timeout needs seconds > 0'); break;
      case '--keep-state': a.keep = true; break;
      case '--verbose': a.verbose = true; break;
      case '-h': case '--help': usage(); break;
      default: usage(`unknown argument ${k}`);
    }
  }
  if (!a.dev) {
    if (!a.vsix.length) usage('need --extensionDevelopmentPath or --install-vsix');
    a.dev = HARNESS_DIR;
  }
  for (const [what, p] of [['extensionTestsPath', a.tests], ['extensionDevelopmentPath', a.dev], ['workspace', a.workspace], ...a.vsix.map((f) => ['VSIX', f])]) {
    if (!fs.existsSync(p)) usage(`${what} does not exist: ${p}${what === 'extensionTestsPath' ? ' (build the tests first: tsc -p .)' : ''}`);
  }
  a.label = (a.label || (a.vsix.length ? 'vsix' : 'dev')).replace(/[^\w.-]+/g, '_');
  return a;
}

const t0 = Date.now();
const log = (...m) => console.error(`[run-integration ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...m);

// Streams new bytes of the mocha log (written by test/integration/index.ts) to stdout.
function tailer(file) {
  let pos = 0;
  return () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
      const size = fs.fstatSync(fd).size;
      if (size > pos) {
        const buf = Buffer.alloc(size - pos);
        fs.readSync(fd, buf, 0, buf.length, pos);
        pos = size;
        process.stdout.write(buf);
      }
    } catch { /* not created yet / already removed */ } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  };
}

function saveArtifacts(w, label, results) {
  const dir = path.join(ARTIFACTS, `integration-${label}`);
  fs.rmSync(dir, { recursive: true, force: true }); // no stale results from an earlier run
  fs.mkdirSync(dir, { recursive: true });
  if (results) fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results, null, 2));
  for (const [name, file] of Object.entries(w.logs)) {
    try { fs.copyFileSync(file, path.join(dir, `${name}.log`)); } catch {}
  }
  return dir;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  let resultsFile, mochaLog;
  log(`${a.label}: tests ${path.relative(REPO, a.tests)}, dev ${a.dev}` + (a.vsix.length ? `, vsix ${a.vsix.map((f) => path.basename(f)).join(', ')}` : ''));

  const w = await wb.openWorkbench({
    label: `integration-${a.label}`,
    workspace: a.workspace,
    copyWorkspace: a.copyWorkspace,
    vsix: a.vsix,
    userSettings: a.settings,
    extensionDevelopmentPath: a.dev,
    extensionTestsPath: a.tests,
    keep: a.keep,
    verbose: a.verbose,
    log,
    env: ({ stateDir }) => {
      resultsFile = path.join(stateDir, 'results.json');
      mochaLog = path.join(stateDir, 'mocha.log');
      fs.writeFileSync(mochaLog, '');
      return {
        ACP_TEST_RESULTS_FILE: resultsFile,
        ACP_TEST_MOCHA_LOG: mochaLog,
        ACP_TEST_FROM_VSIX: a.vsix.length ? '1' : '0',
        ...(a.vsix.length ? {} : { ACP_TEST_DEV_PATH: a.dev }),
        ...(a.grep ? { ACP_TEST_GREP: a.grep } : {}),
        ...a.env,
      };
    },
    onAutomationLog: a.verbose ? (type, text) => console.error(`[vscode:${type}] ${text}`) : undefined,
  });

  const pump = tailer(mochaLog);
  const pumpTimer = setInterval(pump, 200);
  let timer;
  const outcome = await Promise.race([
    w.automationExit.then((code) => ({ kind: 'exit', code })),
    w.serverExit.then(({ code, signal }) => ({ kind: 'server', why: `code-server exited during the run (${code ?? signal})` })),
    // --timeout counts from the start; startup itself is bounded by openWorkbench's own limits.
    new Promise((r) => { timer = setTimeout(() => r({ kind: 'timeout', why: `TIMEOUT after ${a.timeout}s` }), Math.max(0, t0 + a.timeout * 1000 - Date.now())); }),
  ]);
  clearTimeout(timer);
  clearInterval(pumpTimer);
  pump();

  let results = null;
  try { results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch {}
  let ok = false;
  if (outcome.kind !== 'exit') log(outcome.why);
  else if (!results) log(`NO results file: the extension host died or the suite never ran (the workbench reported code ${outcome.code})`);
  else {
    const s = results.stats || {};
    ok = outcome.code === 0 && results.failures === 0 && s.tests > 0;
    console.log(`${a.label}: ${s.passes || 0} passed, ${s.failures || 0} failed` + (s.pending ? `, ${s.pending} pending` : '') +
      ` (${s.tests || 0} tests, workbench code ${outcome.code})`);
    if (s.tests === 0) log('the suite ran 0 tests: is the build in out/test/integration up to date, or is --grep too narrow?');
  }

  if (!ok) {
    try { log(`screenshot: ${await wb.screenshot(w.page, `integration-${a.label}-failed`)}`); } catch {}
    const dir = saveArtifacts(w, a.label, results);
    log(`logs copied to ${dir}; last automation log lines:`);
    try {
      const lines = fs.readFileSync(w.logs.automation, 'utf8').trimEnd().split('\n');
      console.error(lines.slice(-30).map((l) => `  ${l.slice(0, 400)}`).join('\n'));
    } catch {}
  } else if (results) {
    saveArtifacts(w, a.label, results);
  }
  await w.close({ keep: a.keep || !ok });
  const code = ok ? 0 : outcome.kind === 'timeout' ? 124 : 1;
  log(`exit ${code}`);
  process.exit(code);
}

main().catch((e) => {
  console.error('run-integration:', e && e.stack || e);
  // openWorkbench already cleaned up after itself; the exit hook ends anything else.
  process.exit(1);
});
