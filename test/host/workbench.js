// A real VS Code workbench, offline: code-server (npm, = VS Code 1.139.1 with its Node extension
// host) rendered by headless Debian Chromium through playwright-core. Used by
// test/host/run-integration.js (mocha inside the extension host) and by e2e tests that drive the
// UI with Playwright. Plain CommonJS so it runs without a build step.
//
// Everything it starts listens on 127.0.0.1 only and lives in a fresh state dir
// (${ACP_HOST_CACHE}/runs/<id>/): user data, extensions, HOME, XDG_*, Chromium profile, logs;
// and a TMPDIR of its own in the system's, removed with it. code-server would otherwise write
// into ~ and query a marketplace.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const util = require('util');

const REPO = path.resolve(__dirname, '..', '..');
const CACHE = path.resolve(process.env.ACP_HOST_CACHE || path.join(REPO, '.vscode-test'));
// Keep these two in sync with test/host/setup.sh (it installs exactly these versions).
const NODE_VERSION = '24.22.3';
const CODE_SERVER_VERSION = '4.139.1';
const NODE_BIN = path.join(CACHE, `node-v${NODE_VERSION}`, 'bin');
const CODE_SERVER_ENTRY = path.join(CACHE, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS_DIR = path.join(CACHE, 'runs');
const ARTIFACTS = path.resolve(process.env.ACP_TEST_ARTIFACTS || path.join(REPO, 'test-results'));
const HARNESS_DIR = path.join(__dirname, 'harness');

// Settings every workbench starts with; opts.userSettings is merged over them.
const DEFAULT_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  // Else VS Code starts its own agent host as soon as any chat UI opens.
  'chat.disableAIFeatures': true,
  // Else an empty chat side bar takes a third of every screenshot.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  // The web workbench defaults to afterDelay (desktop: off); tests checking isDirty would race it.
  'files.autoSave': 'off',
  'git.enabled': false,
};

// Flags from the reference setup; --disable-quic/background-networking/component-update/sync keep
// Chromium from trying to reach the internet.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-default-apps', '--disable-extensions', '--no-default-browser-check'];

const t0 = Date.now();
function defaultLog(...m) { console.error(`[workbench ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...m); }

// ------------------------------------------------------------------ process bookkeeping
// Every live code-server process group, so they end even if a test throws, forgets close(),
// or the process is interrupted. Chromium is spawned by Playwright in its own group, and
// Playwright kills it from its own 'exit' handler.
const live = new Set(); // { pgid, stateDir, tmpDir, keep }
let hooksInstalled = false;

function killGroup(pgid, signal) {
  try { process.kill(-pgid, signal); return true; } catch { return false; }
}

function killAllSync() {
  for (const w of live) {
    killGroup(w.pgid, 'SIGKILL');
    rmrf(w.tmpDir);
    if (!w.keep) rmrf(w.stateDir);
    else console.error(`[workbench] state kept in ${w.stateDir}`);
  }
  live.clear();
}

function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAllSync);
  // Node's default action for these signals skips 'exit' handlers, and Playwright's own
  // SIGTERM/SIGHUP handlers close the browser without exiting. Exit with the conventional
  // code so the 'exit' handlers (ours: code-server; Playwright's: Chromium) run.
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.on(sig, () => process.exit(code));
  }
}

function rmrf(dir) {
  try { fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); } catch {}
}

function pidAlive(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

// Leftovers of runs whose owner died without running exit hooks (SIGKILL, OOM): end their
// code-server group if it still runs (checked against its command line, so a reused pid is
// never hit) and delete the dir, unless it was kept on purpose.
function pruneStaleRuns() {
  let entries = [];
  try { entries = fs.readdirSync(RUNS_DIR); } catch { return; }
  for (const name of entries) {
    const dir = path.join(RUNS_DIR, name);
    let info;
    try { info = JSON.parse(fs.readFileSync(path.join(dir, 'owner.json'), 'utf8')); } catch { continue; }
    if (info.keep || pidAlive(info.ownerPid)) continue;
    if (info.codeServerPid && pidAlive(info.codeServerPid)) {
      let cmdline = '';
      try { cmdline = fs.readFileSync(`/proc/${info.codeServerPid}/cmdline`, 'utf8'); } catch {}
      if (cmdline.includes(dir)) killGroup(info.codeServerPid, 'SIGKILL');
    }
    if (info.tmpDir) rmrf(info.tmpDir);
    rmrf(dir);
  }
}

// A SIGKILLed owner runs no exit hooks. This tiny detached watcher ends code-server's group
// when the owner process disappears, and exits by itself as soon as code-server is gone.
const WATCHDOG = `
const [owner, pgid] = process.argv.slice(1).map(Number);
const alive = (p) => { try { process.kill(p, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const timer = setInterval(() => {
  if (!alive(pgid)) process.exit(0);
  if (alive(owner)) return;
  clearInterval(timer);
  try { process.kill(-pgid, 'SIGTERM'); } catch {}
  setTimeout(() => { try { process.kill(-pgid, 'SIGKILL'); } catch {} process.exit(0); }, 2000);
}, 1000);`;

function startWatchdog(pgid) {
  const w = cp.spawn(process.execPath, ['-e', WATCHDOG, String(process.pid), String(pgid)], { detached: true, stdio: 'ignore' });
  w.unref();
}

// ------------------------------------------------------------------ helpers
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

let setupDone = false;
// setup.sh is idempotent and returns in milliseconds once everything is installed; running it
// here means a fresh checkout works with a single command.
function ensureSetup() {
  if (setupDone) return;
  const r = cp.spawnSync('bash', [path.join(__dirname, 'setup.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`test/host/setup.sh failed (exit ${r.status ?? r.signal})`);
  setupDone = true;
}

function copyDir(src, dest) {
  fs.cpSync(src, dest, { recursive: true, dereference: false, preserveTimestamps: true });
}

function hostEnv(stateDir, tmpDir, extra) {
  const env = { ...process.env };
  // When the tests are started from a VS Code terminal these would connect the server to that
  // VS Code instead of this one.
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  Object.assign(env, {
    PATH: `${NODE_BIN}${path.delimiter}${process.env.PATH || ''}`,
    HOME: path.join(stateDir, 'home'),
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    XDG_CACHE_HOME: path.join(stateDir, 'xdg-cache'),
    XDG_RUNTIME_DIR: path.join(stateDir, 'xdg-runtime'),
    // The VS Code server and Chromium put their sockets in TMPDIR (see openWorkbench).
    TMPDIR: tmpDir,
    // No marketplace at all (code-server would otherwise query open-vsx.org).
    EXTENSIONS_GALLERY: '{}',
  }, extra);
  return env;
}

function codeServerArgs(stateDir) {
  return [CODE_SERVER_ENTRY,
    '--config', path.join(stateDir, 'config.yaml'), // else it writes ~/.config/code-server/config.yaml
    '--user-data-dir', path.join(stateDir, 'user-data'),
    '--extensions-dir', path.join(stateDir, 'extensions')];
}

/**
 * Install VSIX files into a user-data/extensions pair with code-server's CLI. Throws with the
 * CLI's output when an install fails. (Exported for scripts/start-demo.js.)
 */
function installVsix(vsixFiles, { userDataDir, extensionsDir, configFile, env, log = defaultLog }) {
  const files = [].concat(vsixFiles || []).map((f) => path.resolve(f));
  if (!files.length) return;
  for (const f of files) if (!fs.existsSync(f)) throw new Error(`VSIX not found: ${f}`);
  const args = [CODE_SERVER_ENTRY, '--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  for (const f of files) args.push('--install-extension', f);
  args.push('--force'); // reinstall even when the same version is already there
  const t = Date.now();
  const r = cp.spawnSync(path.join(NODE_BIN, 'node'), args, { env, encoding: 'utf8', timeout: 120000 });
  const out = `${r.stdout || ''}${r.stderr || ''}`.trim();
  if (r.status !== 0 || /Failed Installing/i.test(out)) {
    throw new Error(`installing ${files.map((f) => path.basename(f)).join(', ')} failed (exit ${r.status ?? r.signal}):\n${out}`);
  }
  log(`installed ${files.map((f) => path.basename(f)).join(', ')} in ${Date.now() - t} ms`);
}

/**
 * Start code-server detached (own process group, so the whole tree -- file watcher, extension
 * host, pty host -- can be ended at once; killing its pid alone leaves those behind).
 * Resolves once it listens; `exited` resolves when the group leader exits.
 * (Exported for scripts/start-demo.js, which keeps its own profile.)
 */
async function startCodeServer({ baseArgs, port, env, logFile, extraArgs = [], startTimeoutMs = 60000 }) {
  const args = [...baseArgs, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
    ...extraArgs];
  const child = cp.spawn(path.join(NODE_BIN, 'node'), args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = fs.createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(out); child.stderr.pipe(out);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const spawnError = new Promise((_, reject) => child.on('error', reject));
  let seen = '';
  const listening = new Promise((resolve) => {
    const onData = (d) => {
      seen += d;
      const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) { child.stdout.off('data', onData); resolve(Number(m[1])); }
    };
    child.stdout.on('data', onData);
  });
  // (its own promise with a no-op catch: once startup succeeded, the normal exit at close()
  // must not surface as an unhandled rejection)
  const earlyExit = exited.then(({ code, signal }) => {
    throw new Error(`code-server exited during startup (${code ?? signal}):\n${seen.slice(-4000)}`);
  });
  earlyExit.catch(() => {});
  let timer;
  try {
    const actualPort = await Promise.race([
      listening,
      spawnError,
      earlyExit,
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`code-server did not start in ${startTimeoutMs} ms:\n${seen.slice(-4000)}`)), startTimeoutMs); }),
    ]);
    return { child, port: actualPort, exited };
  } catch (e) {
    killGroup(child.pid, 'SIGKILL');
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function stopGroup(pgid, exited, graceMs = 3000) {
  killGroup(pgid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  // The leader may be gone while children (watchers, ext host) still run: always SIGKILL the group.
  await new Promise((r) => setTimeout(r, 200));
  killGroup(pgid, 'SIGKILL');
}

// ------------------------------------------------------------------ openWorkbench
/**
 * Open a fresh VS Code workbench in headless Chromium.
 *
 * opts:
 *   workspace                folder (or .code-workspace file) to open; omit for an empty window
 *   copyWorkspace            copy the workspace folder into the state dir first and open the copy
 *                            (tests may write into it; default false here, the CLI defaults to true);
 *                            a .code-workspace file is copied with the folder it is in (its folders
 *                            are relative to it), and the copy's file is opened
 *   vsix                     VSIX file(s) to install (--install-extension --force) before starting
 *   userSettings             merged over DEFAULT_SETTINGS into the user settings.json
 *   machineSettings          the machine's settings.json (code-server's "Remote" settings: where
 *                            machine-scoped settings such as acpHost.registryUrl are read)
 *   extensionDevelopmentPath dir (or array) loaded as development extension(s); defaults to the
 *                            empty test/host/harness when only extensionTestsPath is given
 *   extensionTestsPath       module whose run() the extension host executes (mocha loader)
 *   env                      extra env for code-server (and so the extension host); an object or
 *                            ({ stateDir, workspace }) => object
 *   onAutomationLog(type, text)  extension-host/workbench console lines sent via codeAutomationLog
 *   onAutomationExit(code)   called when the workbench reports the test run finished
 *   label                    prefix of the state dir name
 *   keep                     never delete the state dir (also on abnormal exit)
 *   viewport                 default { width: 1400, height: 900 }
 *   verbose                  echo browser console messages to stderr
 *   log                      logger (default: stderr with timestamps)
 *   startTimeoutMs           for code-server startup and the workbench render (default 60000)
 */
async function openWorkbench(opts = {}) {
  const log = opts.log || defaultLog;
  ensureSetup();
  installExitHooks();
  pruneStaleRuns();

  fs.mkdirSync(RUNS_DIR, { recursive: true });
  const stateDir = fs.mkdtempSync(path.join(RUNS_DIR, `${(opts.label || 'wb').replace(/[^\w.-]/g, '_')}-`));
  // Sockets go in TMPDIR (the VS Code server's IPC, Chromium's SingletonSocket), and a socket
  // path may not be longer than 107 bytes: under the state dir, a checkout in a folder a few
  // characters longer could not start Chromium. So TMPDIR is short, in the system's.
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-run-'));
  const rec = { pgid: 0, stateDir, tmpDir, keep: !!opts.keep };
  live.add(rec);
  const writeOwner = () => fs.writeFileSync(path.join(stateDir, 'owner.json'),
    JSON.stringify({ ownerPid: process.pid, codeServerPid: rec.pgid || undefined, keep: rec.keep, tmpDir }));
  writeOwner();

  let context;
  let server;
  let closed = false;
  const close = async ({ keep = false } = {}) => {
    if (closed) return;
    closed = true;
    rec.keep = rec.keep || keep;
    if (context) {
      // A wedged browser must not block the teardown; Playwright kills it on process exit anyway.
      await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 10000))]);
    }
    if (server) await stopGroup(server.child.pid, server.exited);
    live.delete(rec);
    rmrf(tmpDir); // only sockets and scratch files: nothing to look at after a failure
    if (rec.keep) { writeOwner(); log(`state kept in ${stateDir}`); } else rmrf(stateDir);
  };

  try {
    const dirs = ['user-data/User', 'extensions', 'home', 'xdg-config', 'xdg-data', 'xdg-cache', 'xdg-runtime'];
    for (const d of dirs) fs.mkdirSync(path.join(stateDir, d), { recursive: true });
    fs.chmodSync(path.join(stateDir, 'xdg-runtime'), 0o700);
    fs.writeFileSync(path.join(stateDir, 'config.yaml'), '');
    fs.writeFileSync(path.join(stateDir, 'user-data', 'User', 'settings.json'),
      JSON.stringify({ ...DEFAULT_SETTINGS, ...(opts.userSettings || {}) }, null, 2));
    if (opts.machineSettings) {
      fs.mkdirSync(path.join(stateDir, 'user-data', 'Machine'), { recursive: true });
      fs.writeFileSync(path.join(stateDir, 'user-data', 'Machine', 'settings.json'), JSON.stringify(opts.machineSettings, null, 2));
    }
    const logs = {
      codeServer: path.join(stateDir, 'code-server.log'),
      automation: path.join(stateDir, 'automation.log'),
      browser: path.join(stateDir, 'browser.log'),
    };
    for (const f of Object.values(logs)) fs.writeFileSync(f, '');

    let workspace = opts.workspace ? path.resolve(opts.workspace) : undefined;
    if (workspace && opts.copyWorkspace) {
      const file = workspace.endsWith('.code-workspace') ? path.basename(workspace) : undefined;
      const folder = file ? path.dirname(workspace) : workspace;
      if (!fs.statSync(folder).isDirectory()) throw new Error(`copyWorkspace needs a folder or a .code-workspace file: ${workspace}`);
      const copy = path.join(stateDir, 'workspace', path.basename(folder));
      copyDir(folder, copy);
      workspace = file ? path.join(copy, file) : copy;
    }

    const extra = typeof opts.env === 'function' ? opts.env({ stateDir, workspace }) : opts.env;
    const env = hostEnv(stateDir, tmpDir, {
      // Visible to the extension host, so suites can tell where they run.
      ACP_TEST_STATE_DIR: stateDir,
      ACP_TEST_EXTENSIONS_DIR: path.join(stateDir, 'extensions'),
      ...(workspace ? { ACP_TEST_WORKSPACE: workspace } : {}),
      ...(extra || {}),
    });

    installVsix(opts.vsix, {
      userDataDir: path.join(stateDir, 'user-data'), extensionsDir: path.join(stateDir, 'extensions'),
      configFile: path.join(stateDir, 'config.yaml'), env, log,
    });

    server = await startCodeServer({
      baseArgs: codeServerArgs(stateDir), port: await freePort(), env, logFile: logs.codeServer,
      startTimeoutMs: opts.startTimeoutMs || 60000,
      // Built products ignore the URL payload's extensionDevelopmentPath/extensionTestsPath
      // unless this is set: without it a test run just hangs.
      extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
    });
    rec.pgid = server.child.pid;
    writeOwner();
    startWatchdog(server.child.pid);
    const port = server.port;
    log(`code-server on 127.0.0.1:${port} (pid ${server.child.pid}), state ${stateDir}`);

    const { chromium } = require('playwright-core');
    context = await chromium.launchPersistentContext(path.join(stateDir, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: opts.viewport || { width: 1400, height: 900 },
      env,
    });
    const page = context.pages()[0] || await context.newPage();
    const browserLog = (line) => { try { fs.appendFileSync(logs.browser, line + '\n'); } catch {} };
    page.on('console', (m) => {
      browserLog(`[${m.type()}] ${m.text()}`);
      if (opts.verbose) log('[browser]', m.type(), m.text().slice(0, 500));
    });
    page.on('pageerror', (e) => { browserLog(`[pageerror] ${e && e.stack || e}`); log('PAGE ERROR', String(e).slice(0, 500)); });
    page.on('crash', () => { browserLog('[crash]'); log('PAGE CRASHED'); });

    // Hooks the web workbench calls when started with extensionTestsPath (VS Code's
    // test/integration/browser uses the same): console output of the test run, and its end.
    let resolveExit;
    const automationExit = new Promise((r) => { resolveExit = r; });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      try { fs.appendFileSync(logs.automation, `[${type}] ${text}\n`); } catch {}
      if (opts.onAutomationLog) opts.onAutomationLog(type, text);
    });
    await page.exposeFunction('codeAutomationExit', (code, exitLogs) => {
      // Newer workbenches hand over their log files here; keep them with the run's logs.
      if (Array.isArray(exitLogs)) {
        for (const l of exitLogs) {
          if (!l || typeof l.relativePath !== 'string') continue;
          const dest = path.join(stateDir, 'exit-logs', l.relativePath.replace(/\.\.(\/|\\)/g, ''));
          try { fs.mkdirSync(path.dirname(dest), { recursive: true }); fs.writeFileSync(dest, l.contents ?? ''); } catch {}
        }
      }
      if (opts.onAutomationExit) opts.onAutomationExit(code);
      resolveExit(code);
    });

    const host = `127.0.0.1:${port}`;
    const remote = (p) => `vscode-remote://${host}${path.resolve(p).split('/').map(encodeURIComponent).join('/')}`;
    const payload = [['skipWelcome', 'true']];
    // The workbench runs extensionTestsPath only for a development extension; when the extension
    // under test comes from a VSIX, the empty harness plays that part.
    const devPaths = [].concat(opts.extensionDevelopmentPath || (opts.extensionTestsPath ? HARNESS_DIR : []));
    for (const d of devPaths) payload.push(['extensionDevelopmentPath', remote(d)]);
    if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
    if (devPaths.length) payload.push(['enableProposedApi', '']);
    let url = `http://${host}/`;
    const query = [];
    if (workspace) query.push(`${workspace.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(workspace)}`);
    else query.push('ew=true'); // empty window instead of the last opened folder
    query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    url += `?${query.join('&')}`;

    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: opts.startTimeoutMs || 60000 });
    log('workbench rendered');

    return {
      page, context, stateDir, url, port, workspace, logs,
      extensionsDir: path.join(stateDir, 'extensions'),
      userDataDir: path.join(stateDir, 'user-data'),
      codeServerPid: server.child.pid,
      /** resolves with the code the workbench passes to codeAutomationExit (test run finished) */
      automationExit,
      /** resolves with { code, signal } when the code-server process exits */
      serverExit: server.exited,
      close,
    };
  } catch (e) {
    // Keep the logs of a workbench that did not come up; they are the only clue.
    await close({ keep: true });
    if (e && typeof e.message === 'string') e.message += `\n(workbench state and logs kept in ${stateDir})`;
    throw e;
  }
}

// ------------------------------------------------------------------ UI helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Webview views are nested iframes (workbench -> webview host -> content), so page.$ cannot see
 * into them. Polls every frame of the page for one containing `selector` and returns it.
 * Frames detach and navigate while the webview loads; those errors are skipped.
 */
async function findFrame(page, selector, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      try { if (await f.$(selector)) return f; } catch { /* detached or navigating */ }
    }
    if (Date.now() > deadline) {
      const urls = page.frames().map((f) => f.url().slice(0, 120)).join('\n  ');
      throw new Error(`no frame contains ${selector} after ${timeoutMs} ms; frames:\n  ${urls}`);
    }
    await sleep(250);
  }
}

/** Polls `probe` (sync or async) until it is truthy: for workbench states no event announces. */
async function until(probe, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The ACP Host panel after `page.reload()`. The panel that was open comes back by itself; on a
 * loaded machine that can take a while, and clicking the activity bar icon of a container already
 * shown closes it: wait before clicking.
 */
async function panelAfterReload(page) {
  const icon = page.locator('.activitybar [aria-label^="ACP Host"]').first();
  await icon.waitFor({ timeout: 60000 });
  const frame = await findFrame(page, '#prompt', 30000).catch(() => undefined);
  if (frame) return frame;
  await icon.click({ timeout: 30000 });
  return findFrame(page, '#prompt', 60000);
}

/**
 * Run a command from the command palette by its title as shown there ("ACP: New Chat"; the
 * category may be left out). Case-insensitive, but otherwise the title must match exactly.
 */
async function runCommand(page, title, { timeoutMs = 30000 } = {}) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  // Palette labels are "Category: Title"; accept the title with or without its category, and
  // only an exact match, so a typo fails loudly instead of running some other command.
  const wanted = title.trim().toLowerCase();
  const matches = (label) => { const l = label.toLowerCase(); return l === wanted || l.endsWith(`: ${wanted}`); };
  const deadline = Date.now() + timeoutMs;
  let labels = [];
  for (;;) {
    await openPalette(page, input);
    await input.fill(`>${title}`);
    // An open palette does not pick up commands registered after it opened (extensions still
    // activating right after startup), so poll a little, then close and reopen it.
    const reopenAt = Math.min(deadline, Date.now() + 2500);
    while (Date.now() < reopenAt) {
      labels = await rows.evaluateAll((els) => els.map((e) =>
        ((e.querySelector('.label-name') || e).textContent || '').trim())).catch(() => []);
      const i = labels.findIndex(matches);
      if (i >= 0) {
        if (i === 0) await input.press('Enter'); // the usual case: first entry, Enter
        else await rows.nth(i).click();
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
        return;
      }
      await sleep(150);
    }
    await page.keyboard.press('Escape');
    if (Date.now() >= deadline) {
      throw new Error(`command "${title}" not in the command palette after ${timeoutMs} ms; it showed: ${labels.slice(0, 10).join(' | ') || '(nothing)'}`);
    }
  }
}

// F1 is the palette key in the web workbench too (Ctrl+Shift+P as a fallback). If focus sits
// inside a webview that did not forward the key, click the status bar and try again.
async function openPalette(page, input) {
  for (const attempt of ['F1', 'Control+Shift+P', 'focus']) {
    if (attempt === 'focus') {
      await page.locator('.part.statusbar').click({ position: { x: 2, y: 2 }, timeout: 2000 }).catch(() => {});
      await page.keyboard.press('F1');
    } else {
      await page.keyboard.press(attempt);
    }
    try { await input.waitFor({ state: 'visible', timeout: 3000 }); return; } catch { /* next attempt */ }
  }
  throw new Error('the command palette did not open');
}

/** Save a PNG of the page to ${ACP_TEST_ARTIFACTS:-<repo>/test-results}/screenshots/<name>.png. */
async function screenshot(page, name) {
  const dir = path.join(ARTIFACTS, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${String(name).replace(/[^\w.-]+/g, '_').replace(/\.png$/i, '')}.png`);
  await page.screenshot({ path: file });
  return file;
}

module.exports = {
  openWorkbench,
  findFrame,
  until,
  panelAfterReload,
  runCommand,
  screenshot,
  // lower-level pieces, shared with run-integration.js and scripts/start-demo.js
  ensureSetup,
  installVsix,
  startCodeServer,
  startWatchdog,
  stopGroup,
  hostEnv,
  freePort,
  paths: { REPO, CACHE, NODE_BIN, CODE_SERVER_ENTRY, CHROMIUM, RUNS_DIR, ARTIFACTS, HARNESS_DIR },
  DEFAULT_SETTINGS,
};
