// The product as a user meets it: the built VSIX installed in a real VS Code (code-server) in
// headless Chromium, the Agent panel opened from the activity bar, a prompt typed into the real
// webview, and assertions on its DOM. Screenshots land in test-results/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, findFrame, panelAfterReload, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const WORKSPACE = path.join(REPO, 'test/fixtures/workspace');
const FIXTURES = path.join(REPO, 'test/fixtures/agents');

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a, b) {
  const luminance = (rgb) => {
    const [r, g, bl] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The panel follows the workbench theme through --vscode-* variables: the text of an agent
 * reply and the status line are readable on the side bar's background, and the page is light
 * or dark as the theme is.
 */
async function checkTheme(frame, kind) {
  const colors = await frame.evaluate(() => {
    const style = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return {
      background: getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background').trim(),
      body: style('body', 'color'),
      agent: style('.entry-agent', 'color'),
      status: style('#status', 'color'),
    };
  });
  const background = await frame.evaluate((bg) => {
    const probe = document.createElement('div');
    probe.style.color = bg;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color;
    probe.remove();
    return rgb;
  }, colors.background);
  const lum = background.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0) / 3;
  if (kind === 'light') assert.ok(lum > 180, `light theme background ${background}`);
  else assert.ok(lum < 80, `dark theme background ${background}`);
  for (const key of ['body', 'agent', 'status']) {
    assert.ok(contrast(colors[key], background) >= 4.5, `${kind}: ${key} ${colors[key]} on ${background} has contrast ${contrast(colors[key], background).toFixed(2)}`);
  }
}

async function openPanel(userSettings) {
  const wb = await openWorkbench({ label: 'e2e', vsix: [VSIX], workspace: WORKSPACE, copyWorkspace: true, userSettings });
  try {
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(wb.page, '#prompt', 60000);
    return { wb, frame };
  } catch (error) {
    await wb.close({ keep: true });
    throw error;
  }
}

test('a turn with the demo agent streams into the panel, asks permission inline, and ends with its stop reason', async () => {
  const { wb, frame } = await openPanel({ 'workbench.colorTheme': 'Default Dark Modern' });
  try {
    await frame.locator('#prompt').fill('hello from playwright');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-user').first().waitFor({ timeout: 30000 });
    const allow = frame.locator('.entry-tool button[data-option-kind="allow_once"]');
    await allow.waitFor({ timeout: 30000 });
    await screenshot(wb.page, 'panel-permission');
    await allow.click();
    await frame.locator('.entry-turnEnd[data-stop-reason="end_turn"]').waitFor({ timeout: 30000 });
    assert.equal(await frame.locator('.entry-user .text').first().textContent(), 'hello from playwright');
    assert.match(await frame.locator('.entry-agent').allTextContents().then((t) => t.join('\n')), /hello from playwright/);
    assert.equal(await frame.locator('.entry-plan').count(), 1);
    assert.equal(await frame.locator('.entry-turnEnd').textContent(), 'Turn ended.');
    assert.equal(await frame.locator('.entry-tool button[data-option-id]').count(), 0, 'the chooser is gone once answered');
    assert.match(await frame.locator('#status').textContent(), /Demo agent: ready/);
    await screenshot(wb.page, 'panel-dark');
    await checkTheme(frame, 'dark');

    // The model picker (a config option): the next turn runs with the model picked.
    const model = frame.locator('#pickers select.config').filter({ has: frame.locator('optgroup') }).first();
    const choice = await model.locator('option:not(:checked)').first();
    const [value, name] = [await choice.getAttribute('value'), (await choice.textContent()).trim()];
    await model.selectOption(value);
    await frame.locator('#prompt').fill('which model now?');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-tool button[data-option-kind="reject_once"]').click({ timeout: 30000 });
    await frame.locator('.entry-turnEnd').nth(1).waitFor({ timeout: 30000 });
    assert.match(await frame.locator('.entry-agent').allTextContents().then((t) => t.join('\n')), new RegExp(name));
  } finally {
    await wb.close();
  }
});

test('Stop cancels a running turn and the panel shows it cancelled', async () => {
  const slow = {
    name: 'Slow agent',
    command: process.execPath,
    args: [path.join(FIXTURES, 'well-behaved.js')],
    env: { FAKE_CHUNKS: '1000', FAKE_CHUNK_DELAY_MS: '20' },
  };
  const { wb, frame } = await openPanel({ 'acpHost.agents': [slow], 'acpHost.defaultAgent': 'Slow agent' });
  try {
    await frame.locator('#prompt').fill('please talk for a while');
    await frame.locator('#send').click();
    await frame.locator('.entry-agent').first().waitFor({ timeout: 30000 });
    await frame.locator('#stop').click();
    await frame.locator('.entry-turnEnd[data-stop-reason="cancelled"]').waitFor({ timeout: 15000 });
    assert.equal(await frame.locator('.entry-turnEnd').textContent(), 'Turn cancelled.');
    assert.equal(await frame.locator('#stop').isHidden(), true);
    await screenshot(wb.page, 'panel-cancelled');
  } finally {
    await wb.close();
  }
});

test('slash-command completion and a mode switch in the real panel, light theme', async () => {
  const rich = { name: 'Rich', command: process.execPath, args: [path.join(FIXTURES, 'rich-session.js')] };
  const { wb, frame } = await openPanel({ 'acpHost.agents': [rich], 'acpHost.defaultAgent': 'Rich', 'workbench.colorTheme': 'Default Light Modern' });
  try {
    const prompt = frame.locator('#prompt');
    await prompt.fill('warm up');
    await prompt.press('Enter');
    await frame.locator('.entry-turnEnd').first().waitFor({ timeout: 30000 });

    // Completion from available_commands_update: "/ec" offers /echo, Enter takes it.
    await prompt.fill('');
    await prompt.pressSequentially('/ec');
    await frame.locator('#commands li[data-command="echo"]').waitFor({ timeout: 10000 });
    assert.deepEqual(await frame.locator('#commands li[role="option"]').evaluateAll((els) => els.map((e) => e.dataset.command)), ['echo']);
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/echo ');
    assert.equal(await frame.locator('#commands').isHidden(), true);
    await prompt.pressSequentially('over the wire');
    await prompt.press('Enter');
    await frame.locator('.entry-agent', { hasText: 'echo: over the wire' }).waitFor({ timeout: 30000 });

    // The mode picker (legacy modes: this agent has no config options) goes through session/set_mode.
    const mode = frame.locator('select#mode');
    assert.equal(await mode.inputValue(), 'ask');
    await mode.selectOption('code');
    await prompt.fill('/mode');
    await prompt.press('Enter');
    await frame.locator('.entry-agent', { hasText: 'mode: code' }).waitFor({ timeout: 30000 });

    // Following the agent opens the file in the editor, and the prompt box keeps the keyboard.
    await prompt.fill('/follow src/hello.ts 3');
    await prompt.press('Enter');
    await wb.page.locator('.tabs-container .tab', { hasText: 'hello.ts' }).waitFor({ timeout: 30000 });
    assert.deepEqual(await frame.evaluate(() => [document.hasFocus(), document.activeElement && document.activeElement.id]), [true, 'prompt']);
    await screenshot(wb.page, 'panel-light');
    await checkTheme(frame, 'light');
  } finally {
    await wb.close();
  }
});

test('conversations survive reloading the window, with and without session/load; the switcher holds sessions of two agents', async () => {
  const sessionFile = path.join(require('node:fs').mkdtempSync(path.join(require('node:os').tmpdir(), 'acp-e2e-')), 'sessions.json');
  const keeper = { name: 'Keeper', command: process.execPath, args: [path.join(FIXTURES, 'history-agent.js')], env: { FAKE_SESSION_FILE: sessionFile } };
  const plain = { name: 'Plain', command: process.execPath, args: [path.join(FIXTURES, 'well-behaved.js')] };
  const { wb, frame } = await openPanel({ 'acpHost.agents': [keeper, plain], 'acpHost.defaultAgent': 'Keeper' });
  const say = async (f, text) => {
    await f.locator('#prompt').fill(text);
    await f.locator('#prompt').press('Enter');
    await f.locator('.entry-agent', { hasText: text }).waitFor({ timeout: 30000 });
  };
  try {
    await say(frame, 'remember the milk');
    // A second session, with an agent that cannot replay sessions (no session/load).
    await frame.locator('select#agent').selectOption('Plain');
    await frame.locator('#status', { hasText: 'Plain: ready' }).waitFor({ timeout: 30000 });
    await say(frame, 'plain words');
    assert.deepEqual(await frame.locator('#session option').allTextContents(), ['remember the milk — Keeper', 'plain words — Plain']);
    await frame.locator('select#session').selectOption({ label: 'remember the milk — Keeper' });
    await frame.locator('.entry-user', { hasText: 'remember the milk' }).waitFor({ timeout: 30000 });

    // The workbench writes extension storage (workspaceState) to IndexedDB shortly after a change,
    // not synchronously: a user reloading within a second of switching could see the previous tab.
    await new Promise((r) => setTimeout(r, 1500));
    await wb.page.reload();
    const reloaded = await panelAfterReload(wb.page);
    // Both sessions are back, each with its conversation, before any agent has started.
    await reloaded.locator('.entry-agent', { hasText: 'remember the milk' }).waitFor({ timeout: 60000 });
    assert.deepEqual(await reloaded.locator('#session option').allTextContents(), ['remember the milk — Keeper', 'plain words — Plain']);
    await screenshot(wb.page, 'panel-after-reload');
    // The next prompt starts Keeper, which brings the session back with session/load and answers in it.
    await say(reloaded, 'and the bread');
    assert.deepEqual(await reloaded.locator('.entry-user .text').allTextContents(), ['remember the milk', 'and the bread']);
    await reloaded.locator('select#session').selectOption({ label: 'plain words — Plain' });
    await reloaded.locator('.entry-agent', { hasText: 'plain words' }).waitFor({ timeout: 30000 });
  } finally {
    await wb.close();
  }
});

// ---- nothing left running: an agent that ignores stdin EOF and SIGTERM, with a child of its
// own and a client terminal whose command tree ignores SIGTERM (test/fixtures/agents/outlives-window.js).

function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie waiting to be reaped runs nothing.
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Starts the stubborn agent in a real window and has it run its terminal; resolves with every pid it recorded. */
async function stubbornWindow() {
  const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-e2e-pids-')), 'pids.json');
  const stubborn = { name: 'Stubborn', command: process.execPath, args: [path.join(FIXTURES, 'outlives-window.js')], env: { FAKE_PID_FILE: pidFile } };
  const { wb, frame } = await openPanel({ 'acpHost.agents': [stubborn], 'acpHost.defaultAgent': 'Stubborn' });
  try {
    await frame.locator('#prompt').fill('leak');
    await frame.locator('#prompt').press('Enter');
    await frame.locator('.entry-agent', { hasText: '"terminalChild"' }).waitFor({ timeout: 60000 });
    const recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
    fs.rmSync(path.dirname(pidFile), { recursive: true, force: true });
    const pids = ownPids(recorded);
    assert.equal(pids.length, 4, JSON.stringify(recorded));
    assert.ok(pids.every(processAlive), JSON.stringify(recorded));
    return { wb, frame, recorded, pids };
  } catch (error) {
    // What it started so far must not outlive a failed start (the extension host is not ours to end).
    await wb.close({ keep: true });
    try {
      cleanUp(ownPids(JSON.parse(fs.readFileSync(pidFile, 'utf8'))));
    } catch {
      // No pid file: nothing was recorded.
    }
    fs.rmSync(path.dirname(pidFile), { recursive: true, force: true });
    throw error;
  }
}

/** The agent's pids as recorded, never the extension host's. */
function ownPids(recorded) {
  return [recorded.agent, recorded.child, recorded.terminal, recorded.terminalChild].filter((p) => Number.isSafeInteger(p) && p > 1);
}

/** Polls until none of `pids` runs; fails with those left after `timeoutMs`. */
async function allGone(pids, what, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(pids.filter(processAlive), [], `left running ${timeoutMs / 1000} s after ${what}`);
}

/** What a test leaves behind goes, by pid (each was checked to be one the agent recorded). */
function cleanUp(pids) {
  for (const pid of pids) if (Number.isSafeInteger(pid) && pid > 1 && processAlive(pid)) process.kill(pid, 'SIGKILL');
}

test('reloading the window ends the agent, its child and its terminal, though they ignore EOF and SIGTERM', async () => {
  const { wb, pids } = await stubbornWindow();
  try {
    await wb.page.reload();
    await allGone(pids, 'the reload');
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().waitFor({ timeout: 60000 });
  } finally {
    cleanUp(pids);
    await wb.close();
  }
});

test('closing the window ends the agent, its child and its terminal', async () => {
  const { wb, pids } = await stubbornWindow();
  try {
    await wb.page.close({ runBeforeUnload: true });
    await allGone(pids, 'the window closed');
  } finally {
    cleanUp(pids);
    await wb.close();
  }
});

test('an extension host killed outright (SIGKILL: no deactivate, no exit handler) still takes them with it', async () => {
  const { wb, recorded, pids } = await stubbornWindow();
  try {
    // Only the extension host this agent reported as its parent, and only if it is one.
    const cmdline = fs.readFileSync(`/proc/${recorded.host}/cmdline`, 'utf8');
    assert.match(cmdline, /--type=extensionHost/, `pid ${recorded.host} is the extension host`);
    process.kill(recorded.host, 'SIGKILL');
    await allGone([recorded.host, ...pids], 'the extension host was killed', 5000);
  } finally {
    cleanUp(pids);
    await wb.close();
  }
});
