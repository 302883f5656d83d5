// The Agent panel's webview in a real browser, without VS Code: headless Debian Chromium through
// playwright-core, the built media/ served from a local http server, and a page built like the
// host's (src/host/panel/agentView.ts): the same CSP, the same assets in the same order, one nonce'd
// inline script standing in for VS Code's `acquireVsCodeApi()`, and VS Code-like theme variables.
// Messages go in the way VS Code delivers them (window 'message' events); what the webview posts
// is collected in window.__posted. Everything a test may want to assert never happened (dialogs,
// console errors, page errors, CSP violations, navigations, requests leaving the local server)
// is recorded per page.
'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const REPO = path.resolve(__dirname, '..', '..');
const MEDIA = path.join(REPO, 'media');
const CODICONS_FALLBACK = path.join(REPO, 'node_modules', '@vscode', 'codicons', 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARTIFACTS = path.resolve(process.env.ACP_TEST_ARTIFACTS || path.join(REPO, 'test-results'));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-default-apps', '--disable-extensions', '--no-default-browser-check'];

// ------------------------------------------------------------------ protocol (compiled zod schemas)

let schemas;
/** HostToViewSchema / ViewToHostSchema from out/ (`npm run compile`). */
function protocol() {
  if (!schemas) {
    const file = path.join(REPO, 'out', 'src', 'webview-protocol', 'messages.js');
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run compile\` first`);
    schemas = require(file);
  }
  return schemas;
}

// ------------------------------------------------------------------ themes (real VS Code colours)

const FONT = {
  '--vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-font-weight': 'normal',
  '--vscode-editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  '--vscode-editor-font-size': '14px',
  '--vscode-editor-font-weight': 'normal',
  '--monaco-monospace-font': '"SF Mono", Monaco, Menlo, Consolas, "Ubuntu Mono", "Liberation Mono", "DejaVu Sans Mono", "Courier New", monospace',
};

// Dark Modern, Light Modern and Dark High Contrast, as VS Code 1.100 resolves them.
const THEMES = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      '--vscode-foreground': '#cccccc',
      '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-errorForeground': '#f85149',
      '--vscode-icon-foreground': '#cccccc',
      '--vscode-focusBorder': '#0078d4',
      '--vscode-widget-border': '#313131',
      '--vscode-sideBar-background': '#181818',
      '--vscode-sideBar-foreground': '#cccccc',
      '--vscode-sideBar-border': '#2b2b2b',
      '--vscode-sideBarSectionHeader-border': '#2b2b2b',
      '--vscode-panel-border': '#2b2b2b',
      '--vscode-editor-background': '#1f1f1f',
      '--vscode-editor-foreground': '#cccccc',
      '--vscode-editorWidget-background': '#202020',
      '--vscode-button-background': '#0078d4',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#026ec1',
      '--vscode-button-border': '#ffffff12',
      '--vscode-button-secondaryBackground': '#313131',
      '--vscode-button-secondaryForeground': '#cccccc',
      '--vscode-button-secondaryHoverBackground': '#3c3c3c',
      '--vscode-badge-background': '#616161',
      '--vscode-badge-foreground': '#f8f8f8',
      '--vscode-input-background': '#313131',
      '--vscode-input-foreground': '#cccccc',
      '--vscode-input-border': '#3c3c3c',
      '--vscode-input-placeholderForeground': '#989898',
      '--vscode-inputOption-activeBorder': '#2488db',
      '--vscode-inputValidation-errorBackground': '#5a1d1d',
      '--vscode-inputValidation-errorBorder': '#be1100',
      '--vscode-dropdown-background': '#313131',
      '--vscode-dropdown-foreground': '#cccccc',
      '--vscode-dropdown-border': '#3c3c3c',
      '--vscode-dropdown-listBackground': '#1f1f1f',
      '--vscode-checkbox-background': '#313131',
      '--vscode-checkbox-border': '#3c3c3c',
      '--vscode-checkbox-foreground': '#cccccc',
      '--vscode-textLink-foreground': '#4daafc',
      '--vscode-textLink-activeForeground': '#4daafc',
      '--vscode-textPreformat-foreground': '#d0d0d0',
      '--vscode-textPreformat-background': '#3c3c3c',
      '--vscode-textCodeBlock-background': '#2b2b2b',
      '--vscode-textBlockQuote-background': '#2b2b2b',
      '--vscode-textBlockQuote-border': '#616161',
      '--vscode-textSeparator-foreground': '#21262d',
      '--vscode-list-hoverBackground': '#2a2d2e',
      '--vscode-list-activeSelectionBackground': '#04395e',
      '--vscode-list-activeSelectionForeground': '#ffffff',
      '--vscode-list-focusOutline': '#0078d4',
      '--vscode-quickInputList-focusBackground': '#04395e',
      '--vscode-quickInputList-focusForeground': '#ffffff',
      '--vscode-editorSuggestWidget-background': '#202020',
      '--vscode-editorSuggestWidget-border': '#454545',
      '--vscode-editorSuggestWidget-selectedBackground': '#04395e',
      '--vscode-diffEditor-insertedTextBackground': '#9ccc2c33',
      '--vscode-diffEditor-removedTextBackground': '#ff000033',
      '--vscode-diffEditor-insertedLineBackground': '#9bb95533',
      '--vscode-diffEditor-removedLineBackground': '#ff000033',
      '--vscode-gitDecoration-addedResourceForeground': '#81b88b',
      '--vscode-gitDecoration-deletedResourceForeground': '#c74e39',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-red': '#f14c4c',
      '--vscode-charts-yellow': '#cca700',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-testing-iconPassed': '#73c991',
      '--vscode-testing-iconFailed': '#f14c4c',
      '--vscode-testing-iconQueued': '#cca700',
      '--vscode-editorError-foreground': '#f14c4c',
      '--vscode-editorWarning-foreground': '#cca700',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-progressBar-background': '#0078d4',
      '--vscode-toolbar-hoverBackground': '#5a5d5e50',
      '--vscode-scrollbarSlider-background': '#79797966',
      '--vscode-scrollbarSlider-hoverBackground': '#646464b3',
      '--vscode-scrollbarSlider-activeBackground': '#bfbfbf66',
      '--vscode-keybindingLabel-background': '#8080802b',
      '--vscode-keybindingLabel-foreground': '#cccccc',
      '--vscode-keybindingLabel-border': '#33333399',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      '--vscode-foreground': '#3b3b3b',
      '--vscode-descriptionForeground': '#3b3b3b',
      '--vscode-errorForeground': '#f85149',
      '--vscode-icon-foreground': '#3b3b3b',
      '--vscode-focusBorder': '#005fb8',
      '--vscode-widget-border': '#e5e5e5',
      '--vscode-sideBar-background': '#f8f8f8',
      '--vscode-sideBar-foreground': '#3b3b3b',
      '--vscode-sideBar-border': '#e5e5e5',
      '--vscode-sideBarSectionHeader-border': '#e5e5e5',
      '--vscode-panel-border': '#e5e5e5',
      '--vscode-editor-background': '#ffffff',
      '--vscode-editor-foreground': '#3b3b3b',
      '--vscode-editorWidget-background': '#f8f8f8',
      '--vscode-button-background': '#005fb8',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#0258a8',
      '--vscode-button-border': '#0000001a',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-button-secondaryHoverBackground': '#cccccc',
      '--vscode-badge-background': '#cccccc',
      '--vscode-badge-foreground': '#3b3b3b',
      '--vscode-input-background': '#ffffff',
      '--vscode-input-foreground': '#3b3b3b',
      '--vscode-input-border': '#cecece',
      '--vscode-input-placeholderForeground': '#767676',
      '--vscode-inputOption-activeBorder': '#005fb8',
      '--vscode-inputValidation-errorBackground': '#f2dede',
      '--vscode-inputValidation-errorBorder': '#be1100',
      '--vscode-dropdown-background': '#ffffff',
      '--vscode-dropdown-foreground': '#3b3b3b',
      '--vscode-dropdown-border': '#cecece',
      '--vscode-dropdown-listBackground': '#ffffff',
      '--vscode-checkbox-background': '#f8f8f8',
      '--vscode-checkbox-border': '#cecece',
      '--vscode-checkbox-foreground': '#3b3b3b',
      '--vscode-textLink-foreground': '#005fb8',
      '--vscode-textLink-activeForeground': '#005fb8',
      '--vscode-textPreformat-foreground': '#3b3b3b',
      '--vscode-textPreformat-background': '#0000001f',
      '--vscode-textCodeBlock-background': '#f8f8f8',
      '--vscode-textBlockQuote-background': '#f8f8f8',
      '--vscode-textBlockQuote-border': '#e5e5e5',
      '--vscode-textSeparator-foreground': '#0000002e',
      '--vscode-list-hoverBackground': '#f2f2f2',
      '--vscode-list-activeSelectionBackground': '#e8e8e8',
      '--vscode-list-activeSelectionForeground': '#000000',
      '--vscode-list-focusOutline': '#005fb8',
      '--vscode-quickInputList-focusBackground': '#e8e8e8',
      '--vscode-quickInputList-focusForeground': '#000000',
      '--vscode-editorSuggestWidget-background': '#f8f8f8',
      '--vscode-editorSuggestWidget-border': '#c8c8c8',
      '--vscode-editorSuggestWidget-selectedBackground': '#e8e8e8',
      '--vscode-diffEditor-insertedTextBackground': '#9ccc2c40',
      '--vscode-diffEditor-removedTextBackground': '#ff000033',
      '--vscode-diffEditor-insertedLineBackground': '#9bb95533',
      '--vscode-diffEditor-removedLineBackground': '#ff000033',
      '--vscode-gitDecoration-addedResourceForeground': '#587c0c',
      '--vscode-gitDecoration-deletedResourceForeground': '#ad0707',
      '--vscode-charts-green': '#388a34',
      '--vscode-charts-red': '#e51400',
      '--vscode-charts-yellow': '#bf8803',
      '--vscode-charts-blue': '#1a85ff',
      '--vscode-testing-iconPassed': '#388a34',
      '--vscode-testing-iconFailed': '#f14c4c',
      '--vscode-testing-iconQueued': '#cca700',
      '--vscode-editorError-foreground': '#e51400',
      '--vscode-editorWarning-foreground': '#bf8803',
      '--vscode-editorInfo-foreground': '#1a85ff',
      '--vscode-progressBar-background': '#005fb8',
      '--vscode-toolbar-hoverBackground': '#b8b8b850',
      '--vscode-scrollbarSlider-background': '#64646466',
      '--vscode-scrollbarSlider-hoverBackground': '#646464b3',
      '--vscode-scrollbarSlider-activeBackground': '#00000099',
      '--vscode-keybindingLabel-background': '#dddddd66',
      '--vscode-keybindingLabel-foreground': '#555555',
      '--vscode-keybindingLabel-border': '#cccccc66',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      '--vscode-foreground': '#ffffff',
      '--vscode-descriptionForeground': '#ffffff',
      '--vscode-errorForeground': '#f48771',
      '--vscode-icon-foreground': '#ffffff',
      '--vscode-focusBorder': '#f38518',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-widget-border': '#6fc3df',
      '--vscode-sideBar-background': '#000000',
      '--vscode-sideBar-foreground': '#ffffff',
      '--vscode-sideBar-border': '#6fc3df',
      '--vscode-panel-border': '#6fc3df',
      '--vscode-editor-background': '#000000',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-editorWidget-background': '#0c141f',
      '--vscode-button-background': '#000000',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-border': '#6fc3df',
      '--vscode-button-secondaryBackground': '#000000',
      '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-badge-background': '#000000',
      '--vscode-badge-foreground': '#ffffff',
      '--vscode-input-background': '#000000',
      '--vscode-input-foreground': '#ffffff',
      '--vscode-input-border': '#6fc3df',
      '--vscode-input-placeholderForeground': '#ffffffb3',
      '--vscode-inputOption-activeBorder': '#6fc3df',
      '--vscode-inputValidation-errorBackground': '#000000',
      '--vscode-inputValidation-errorBorder': '#6fc3df',
      '--vscode-dropdown-background': '#000000',
      '--vscode-dropdown-foreground': '#ffffff',
      '--vscode-dropdown-border': '#6fc3df',
      '--vscode-dropdown-listBackground': '#000000',
      '--vscode-checkbox-background': '#000000',
      '--vscode-checkbox-border': '#6fc3df',
      '--vscode-checkbox-foreground': '#ffffff',
      '--vscode-textLink-foreground': '#21a6ff',
      '--vscode-textLink-activeForeground': '#21a6ff',
      '--vscode-textPreformat-foreground': '#ffffff',
      '--vscode-textPreformat-background': '#ffffff1a',
      '--vscode-textCodeBlock-background': '#000000',
      '--vscode-textBlockQuote-background': '#000000',
      '--vscode-textBlockQuote-border': '#ffffff',
      '--vscode-textSeparator-foreground': '#000000',
      '--vscode-list-activeSelectionBackground': '#000000',
      '--vscode-list-focusOutline': '#f38518',
      '--vscode-list-hoverBackground': '#000000',
      '--vscode-quickInputList-focusBackground': '#000000',
      '--vscode-editorSuggestWidget-background': '#0c141f',
      '--vscode-editorSuggestWidget-border': '#6fc3df',
      '--vscode-editorSuggestWidget-selectedBackground': '#000000',
      '--vscode-diffEditor-insertedTextBorder': '#33ff2e',
      '--vscode-diffEditor-removedTextBorder': '#ff008f',
      '--vscode-gitDecoration-addedResourceForeground': '#a1e3ad',
      '--vscode-gitDecoration-deletedResourceForeground': '#c74e39',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-red': '#f14c4c',
      '--vscode-charts-yellow': '#cca700',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-testing-iconPassed': '#73c991',
      '--vscode-testing-iconFailed': '#f14c4c',
      '--vscode-testing-iconQueued': '#cca700',
      '--vscode-editorError-foreground': '#f48771',
      '--vscode-editorWarning-foreground': '#cca700',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-progressBar-background': '#6fc3df',
      '--vscode-scrollbarSlider-background': '#6fc3df99',
      '--vscode-scrollbarSlider-hoverBackground': '#6fc3dfcc',
      '--vscode-scrollbarSlider-activeBackground': '#6fc3df',
      '--vscode-keybindingLabel-foreground': '#ffffff',
      '--vscode-keybindingLabel-border': '#6fc3df',
    },
  },
};

// What VS Code's webview host puts in front of every webview document (src/vs/workbench/contrib/
// webview/browser/pre/index.html, `_defaultStyles`), before the document's own CSP applies.
const DEFAULT_STYLES = `
html { scrollbar-color: var(--vscode-scrollbarSlider-background) var(--vscode-editor-background); background-color: var(--vscode-sideBar-background); }
body { overscroll-behavior-x: none; background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family); font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:hover { color: var(--vscode-textLink-activeForeground); }
a:focus, input:focus, select:focus, textarea:focus { outline: 1px solid -webkit-focus-ring-color; outline-offset: -1px; }
code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
kbd { background-color: var(--vscode-keybindingLabel-background); color: var(--vscode-keybindingLabel-foreground); border-style: solid; border-width: 1px; border-radius: 3px; border-color: var(--vscode-keybindingLabel-border); border-bottom-color: var(--vscode-keybindingLabel-bottomBorder); box-shadow: inset 0 -1px 0 var(--vscode-widget-shadow); vertical-align: middle; padding: 1px 3px; }
::-webkit-scrollbar { width: 10px; height: 10px; }
::-webkit-scrollbar-corner { background-color: var(--vscode-editor-background); }
::-webkit-scrollbar-thumb { background-color: var(--vscode-scrollbarSlider-background); }
::-webkit-scrollbar-thumb:hover { background-color: var(--vscode-scrollbarSlider-hoverBackground); }
::-webkit-scrollbar-thumb:active { background-color: var(--vscode-scrollbarSlider-activeBackground); }`;

function themeVars(name) {
  const theme = THEMES[name];
  if (!theme) throw new Error(`unknown theme ${name}`);
  return { bodyClass: theme.bodyClass, vars: { ...FONT, ...theme.vars } };
}

// ------------------------------------------------------------------ the local server

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.map': 'application/json', '.html': 'text/html' };

function startServer() {
  const pages = new Map(); // id → html
  const served = []; // every path asked for
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    served.push(url.pathname);
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname.startsWith('/panel/')) {
      const html = pages.get(url.pathname.slice('/panel/'.length));
      return html ? send(200, 'text/html; charset=utf-8', html) : send(404, 'text/plain', 'no such page');
    }
    if (url.pathname.startsWith('/media/')) {
      const rel = decodeURIComponent(url.pathname.slice('/media/'.length));
      const candidates = [path.join(MEDIA, rel)];
      // Until media/codicons/ is copied in by the build, take the package's own files.
      if (rel.startsWith('codicons/')) candidates.push(path.join(CODICONS_FALLBACK, rel.slice('codicons/'.length)));
      for (const file of candidates) {
        const base = file.startsWith(MEDIA) ? MEDIA : CODICONS_FALLBACK;
        if (!file.startsWith(base + path.sep)) continue;
        try {
          const body = fs.readFileSync(file);
          return send(200, TYPES[path.extname(file)] || 'application/octet-stream', body);
        } catch { /* next */ }
      }
    }
    send(404, 'text/plain', 'not found');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ origin: `http://127.0.0.1:${port}`, pages, served, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/**
 * The host's own page (out/src/view/panelHtml.js: the same CSP, nonce and assets), with what
 * VS Code adds around it: its default styles before the CSP, and the acquireVsCodeApi glue
 * before our script.
 */
function pageHtml({ origin, nonce, theme, state }) {
  const { panelHtml } = require(path.join(REPO, 'out', 'src', 'view', 'panelHtml.js'));
  const asset = (name) => `${origin}/media/${name}`;
  const { bodyClass, vars } = themeVars(theme);
  // The stand-in for VS Code's webview glue: acquireVsCodeApi (callable once), and the recorders.
  const boot = `
(() => {
  window.__posted = [];
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile + ':' + e.lineNumber });
  });
  let state = ${JSON.stringify(state === undefined ? null : state)};
  window.__getState = () => state;
  let acquired = false;
  const api = Object.freeze({
    postMessage(message) {
      window.__posted.push(structuredClone(message));
      window.__toHost?.(structuredClone(message)); // a benchmark's host, when it has one
    },
    getState() { return state === null ? undefined : structuredClone(state); },
    setState(next) { state = structuredClone(next); return next; },
  });
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return api;
  };
  const root = document.documentElement;
  for (const [k, v] of Object.entries(${JSON.stringify(vars)})) root.style.setProperty(k, v);
  document.body.classList.add(${JSON.stringify(bodyClass)});
  document.body.dataset.vscodeThemeKind = ${JSON.stringify(bodyClass)};
})();`;
  const page = panelHtml({ cspSource: origin, nonce, asset });
  const script = `<script nonce="${nonce}" src="${asset('webview.js')}">`;
  if (!page.includes(script)) throw new Error('panelHtml no longer loads webview.js as the harness expects');
  return page
    // Replacer functions: the inserted text must not be read for $& patterns.
    .replace('<head>', () => `<head>\n<style id="_defaultStyles">${DEFAULT_STYLES}</style>`)
    .replace(script, () => `<script nonce="${nonce}">${boot}</script>\n${script}`);
}

// ------------------------------------------------------------------ browser and pages

/** One browser and one server per test file. */
async function launch() {
  const webviewJs = path.join(MEDIA, 'webview.js');
  if (!fs.existsSync(webviewJs)) throw new Error(`${webviewJs} is missing: run \`npm run build\` first`);
  const { chromium } = require('playwright-core');
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    server,
    origin: server.origin,
    async close() {
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

/**
 * A fresh context and page showing the panel, after the webview posted `ready`.
 * opts: theme ('dark'), state (what getState returns at load), viewport, waitForReady (true).
 */
async function openPanel(env, opts = {}) {
  const id = crypto.randomBytes(8).toString('hex');
  const nonce = crypto.randomBytes(16).toString('base64');
  env.server.pages.set(id, pageHtml({ origin: env.origin, nonce, theme: opts.theme || 'dark', state: opts.state }));
  const context = await env.browser.newContext({ viewport: opts.viewport || { width: 420, height: 760 }, deviceScaleFactor: 1 });
  // Fail fast: a contract element that never shows should not cost Playwright's default 30 s.
  context.setDefaultTimeout(opts.timeout || 5000);
  const page = await context.newPage();
  const log = { dialogs: [], consoleErrors: [], consoleWarnings: [], pageErrors: [], externalRequests: [], navigations: [], popups: [] };
  page.__log = log;
  page.__context = context;
  const pageUrl = `${env.origin}/panel/${id}`;
  page.on('dialog', (d) => { log.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on('console', (m) => {
    if (m.type() === 'error') log.consoleErrors.push(m.text());
    else if (m.type() === 'warning') log.consoleWarnings.push(m.text());
  });
  page.on('pageerror', (e) => log.pageErrors.push(String(e && e.stack || e)));
  page.on('popup', (p) => log.popups.push(p.url()));
  page.on('request', (r) => { if (!r.url().startsWith(env.origin + '/')) log.externalRequests.push(r.url()); });
  page.on('framenavigated', (f) => { if (f === page.mainFrame() && log.loaded) log.navigations.push(f.url()); });
  // Nothing leaves the machine, whatever the page asks for (it is still recorded above).
  await context.route((url) => !url.href.startsWith(env.origin + '/'), (route) => route.abort('blockedbyclient'));
  await page.goto(pageUrl, { waitUntil: 'load' });
  log.loaded = true;
  if (opts.waitForReady !== false) {
    await page.waitForFunction(() => window.__posted.some((m) => m && m.type === 'ready'), null, { timeout: 10000 });
  }
  return page;
}

async function closePanel(page) {
  await page.__context.close().catch(() => {});
}

/** Posts HostToView messages into the page as VS Code does, and waits until the webview's listener ran. */
async function send(page, ...messages) {
  await sendRaw(page, ...messages.map((m) => {
    const parsed = protocol().HostToViewSchema.safeParse(m);
    if (!parsed.success) throw new Error(`test bug: not a HostToView message: ${parsed.error.issues[0].message} ${JSON.stringify(m).slice(0, 300)}`);
    return m;
  }));
}

/** As send, without validating (to post malformed messages). */
async function sendRaw(page, ...messages) {
  await page.evaluate((list) => new Promise((resolve) => {
    let seen = 0;
    // Registered after the webview's own listener, so it runs after it for each message.
    const onMessage = () => {
      if (++seen === list.length) {
        window.removeEventListener('message', onMessage);
        resolve();
      }
    };
    window.addEventListener('message', onMessage);
    for (const m of list) window.postMessage(m, '*');
  }), messages);
}

/** Resolves after the next animation frames ran (the webview applies its batches on rAF). */
async function waitForFrame(page, frames = 2) {
  await page.evaluate((n) => new Promise((resolve) => {
    const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  }), frames);
}

/** send + waitForFrame. */
async function render(page, ...messages) {
  await send(page, ...messages);
  await waitForFrame(page);
}

/** What the webview posted (ViewToHost messages), in order. */
async function posted(page) {
  return page.evaluate(() => window.__posted);
}

/** Forgets what was posted so far. */
async function clearPosted(page) {
  await page.evaluate(() => { window.__posted.length = 0; });
}

/** CSP violations seen by the page. */
async function cspViolations(page) {
  return page.evaluate(() => window.__csp);
}

/** Switches the VS Code theme variables and body class, as VS Code does on a theme change. */
async function setTheme(page, name) {
  const { bodyClass, vars } = themeVars(name);
  await page.evaluate(({ bodyClass, vars }) => {
    const root = document.documentElement;
    for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
    // Variables only some themes define must not leak into the next one.
    for (const k of [...root.style]) if (k.startsWith('--vscode-') && !(k in vars)) root.style.removeProperty(k);
    document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
    document.body.classList.add(bodyClass);
    document.body.dataset.vscodeThemeKind = bodyClass;
  }, { bodyClass, vars });
  await waitForFrame(page);
}

async function screenshot(page, name, opts = {}) {
  const dir = path.join(ARTIFACTS, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, ...opts });
  return file;
}

/** Asserts nothing suspicious happened on the page: no page error, dialog, CSP violation, request out. */
async function assertClean(page, assert, { allowConsoleErrors = false } = {}) {
  const log = page.__log;
  assert.deepEqual(log.pageErrors, [], 'page errors');
  assert.deepEqual(log.dialogs, [], 'dialogs');
  assert.deepEqual(log.externalRequests, [], 'requests not to the local server');
  assert.deepEqual(await cspViolations(page), [], 'CSP violations');
  if (!allowConsoleErrors) assert.deepEqual(log.consoleErrors, [], 'console errors');
}

// ------------------------------------------------------------------ message builders

/**
 * Every entry element of the transcript, in the DOM's own structure (src/webview/transcript.ts:
 * sections of groups of entries), and entry i.
 */
const ENTRIES = '#transcript > .entry-section > .entry-group > .entry';
const entry = (i) => `${ENTRIES}[data-index="${i}"]`;

const status = (phase = 'ready', extra = {}) => ({ agentName: 'Demo agent', phase, ...extra });
const session = (over = {}) => ({ title: null, commands: [], modes: null, configOptions: [], usage: null, queue: [], review: [], follow: true, ...over });
const snapshot = (entries = [], { status: st = status(), session: se = session() } = {}) => ({ type: 'snapshot', status: st, session: se, entries });

module.exports = {
  ENTRIES,
  entry,
  REPO,
  ARTIFACTS,
  protocol,
  launch,
  openPanel,
  closePanel,
  send,
  sendRaw,
  render,
  waitForFrame,
  posted,
  clearPosted,
  cspViolations,
  setTheme,
  screenshot,
  assertClean,
  status,
  session,
  snapshot,
  THEMES: Object.keys(THEMES),
};

// ------------------------------------------------------------------ a mirror of the host's state

/** Applies HostToView messages to a plain {status, session, entries} state, as the contract says. */
function reduce(state, message) {
  const next = state ? { status: state.status, session: state.session, entries: [...state.entries] } : { status: null, session: null, entries: [] };
  for (const m of message.type === 'batch' ? message.messages : [message]) {
    switch (m.type) {
      case 'snapshot': next.status = m.status; next.session = m.session; next.entries = [...m.entries]; break;
      case 'entry': next.entries[m.index] = m.entry; break;
      case 'append': next.entries[m.index] = { ...next.entries[m.index], text: next.entries[m.index].text + m.text }; break;
      case 'status': next.status = m.status; break;
      case 'session': next.session = m.session; break;
      default: throw new Error(`unknown message ${m.type}`);
    }
  }
  return next;
}

module.exports.reduce = reduce;

/**
 * A structural picture of a subtree: tags, attributes (sorted; ids left out, they may be
 * generated) and text, one node per line, so two renderings can be compared exactly.
 */
async function domSignature(page, selector) {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    if (!root) return null;
    const lines = [];
    const walk = (node, depth) => {
      const pad = ' '.repeat(depth);
      if (node.nodeType === Node.TEXT_NODE) {
        if (node.data !== '') lines.push(pad + JSON.stringify(node.data));
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const attrs = [...node.attributes].filter((a) => a.name !== 'id' && a.name !== 'aria-activedescendant' && a.name !== 'aria-controls' && a.name !== 'aria-labelledby' && a.name !== 'aria-describedby')
        .map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort();
      const props = [];
      if (node instanceof HTMLDetailsElement) props.push(`(open=${node.open})`);
      lines.push(`${pad}<${node.tagName.toLowerCase()}${attrs.length ? ' ' + attrs.join(' ') : ''}>${props.join('')}`);
      for (const child of node.childNodes) walk(child, depth + 1);
    };
    walk(root, 0);
    return lines.join('\n');
  }, selector);
}

/** Every message the webview posted is a valid ViewToHost; returns them. */
async function assertPostedValid(page, assert) {
  const list = await posted(page);
  for (const m of list) {
    const parsed = protocol().ViewToHostSchema.safeParse(m);
    assert.ok(parsed.success, `the webview posted an invalid ViewToHost message ${JSON.stringify(m).slice(0, 300)}: ${parsed.success ? '' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return list;
}

/** Runs fn(page) on a fresh panel; afterwards checks posted messages and page errors, and closes it. */
async function withPanel(env, opts, fn) {
  const page = await openPanel(env, opts);
  try {
    await fn(page);
    await assertPostedValid(page, require('node:assert/strict'));
    require('node:assert/strict').deepEqual(page.__log.pageErrors, [], 'page errors');
  } finally {
    await closePanel(page);
  }
}

Object.assign(module.exports, { domSignature, assertPostedValid, withPanel });
