#!/usr/bin/env node
// Starts VS Code (code-server, in your browser) with the freshly built acp-host.vsix installed,
// on a sample workspace. Used by the README's "install and start" command after the build.
//
//   node scripts/start-demo.js          then open the printed http://127.0.0.1:8080/?folder=... URL
//
// Env: PORT (default 8080), ACP_HOST_CACHE (default <repo>/.vscode-test), ACP_HOST_VSIX
// (default <repo>/acp-host.vsix), ACP_HOST_DEMO_WORKSPACE (default ~/.cache/acp-host-demo/workspace).
// The demo profile persists in ${ACP_HOST_CACHE}/demo/ (user-data, extensions): settings you change
// there survive restarts, and the VSIX is reinstalled on every start so a rebuild is picked up.
// The sample workspace lives outside this repository, so VS Code does not offer the repository
// found in its parent folders as the demo's. Stop with Ctrl+C.
//
// Unlike the test runs, HOME and PATH stay yours: agents started by the extension (Claude Code,
// Codex, Gemini CLI, ...) need their usual config and credentials.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const wb = require('../test/host/workbench');

const { REPO, CACHE } = wb.paths;
const DEMO = path.join(CACHE, 'demo');
const VSIX = path.resolve(process.env.ACP_HOST_VSIX || path.join(REPO, 'acp-host.vsix'));
const PORT = Number(process.env.PORT || 8080);
const CACHE_HOME = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');

/** The git repository `dir` or one of its parents is in, if any. */
function enclosingRepository(dir) {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Where the sample workspace lives: stable across runs, and in no git repository (a home kept in
 * git, say, falls back to the OS temp folder).
 */
function demoWorkspace() {
  if (process.env.ACP_HOST_DEMO_WORKSPACE) return path.resolve(process.env.ACP_HOST_DEMO_WORKSPACE);
  for (const base of [path.join(CACHE_HOME, 'acp-host-demo'), path.join(os.tmpdir(), 'acp-host-demo')]) {
    const repository = enclosingRepository(path.dirname(base));
    if (!repository) return path.join(base, 'workspace');
    log(`not using ${base}: it is inside the git repository ${repository}`);
  }
  throw new Error('Every place for the demo workspace is inside a git repository: set ACP_HOST_DEMO_WORKSPACE to a folder outside one.');
}

const log = (...m) => console.log('[demo]', ...m);

function portFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

function openBrowser(url) {
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  try {
    const p = cp.spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
    p.on('error', () => {}); // no xdg-open: the printed URL is enough
    p.unref();
    return true;
  } catch { return false; }
}

async function main() {
  if (!Number.isInteger(PORT) || PORT <= 0 || PORT > 65535) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
  if (!fs.existsSync(VSIX)) {
    throw new Error(`${VSIX} not found: build and package the extension first (see README).`);
  }
  wb.ensureSetup(); // idempotent; installs Node 24 + code-server (+ Chromium) on first use

  const userData = path.join(DEMO, 'user-data');
  const extensions = path.join(DEMO, 'extensions');
  const workspace = demoWorkspace();
  const config = path.join(DEMO, 'config.yaml');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(extensions, { recursive: true });
  if (!fs.existsSync(config)) fs.writeFileSync(config, ''); // else code-server writes ~/.config/code-server
  const settings = path.join(userData, 'User', 'settings.json');
  if (!fs.existsSync(settings)) {
    // Same quiet defaults as the tests, written once; edit them in the demo as you like.
    const { 'git.enabled': _git, ...defaults } = wb.DEFAULT_SETTINGS;
    fs.writeFileSync(settings, JSON.stringify(defaults, null, 2));
  }
  if (!fs.existsSync(workspace)) {
    // The workspace of earlier demos (inside the repository) keeps what was done in it.
    const earlier = path.join(DEMO, 'workspace');
    fs.cpSync(fs.existsSync(earlier) ? earlier : path.join(REPO, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
    log(`sample workspace copied to ${workspace}`);
  }

  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  if (env.EXTENSIONS_GALLERY === undefined) env.EXTENSIONS_GALLERY = '{}'; // no marketplace queries

  wb.installVsix([VSIX], { userDataDir: userData, extensionsDir: extensions, configFile: config, env, log });

  if (!(await portFree(PORT))) throw new Error(`127.0.0.1:${PORT} is already in use; start with another port, e.g. PORT=8081`);
  const logFile = path.join(DEMO, 'code-server.log');
  const server = await wb.startCodeServer({
    baseArgs: [wb.paths.CODE_SERVER_ENTRY, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensions],
    port: PORT, env, logFile,
  });
  wb.startWatchdog(server.child.pid); // ends code-server even if this process is SIGKILLed

  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    log('stopping code-server');
    await wb.stopGroup(server.child.pid, server.exited);
    process.exit(code);
  };
  // Kill the whole group (file watcher, extension host, agents it spawned), not just the leader.
  process.on('exit', () => { try { process.kill(-server.child.pid, 'SIGKILL'); } catch {} });
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) process.on(sig, () => stop(code));
  server.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`[demo] code-server exited (${code ?? signal}); log: ${logFile}`);
    process.exit(1);
  });

  const folder = workspace.split(path.sep).map(encodeURIComponent).join('/');
  const url = `http://127.0.0.1:${server.port}/?folder=${folder}`;
  console.log('');
  console.log(`  ACP Host demo is running. Open this in your browser:\n\n    ${url}\n`);
  console.log(`  (profile ${DEMO}, log ${logFile}; Ctrl+C stops it)`);
  console.log('');
  if (openBrowser(url)) log('asked xdg-open to open it');
}

main().catch((e) => {
  console.error(`[demo] ${e && e.message || e}`);
  process.exit(1);
});
