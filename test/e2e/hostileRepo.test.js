// A repository the user merely cloned, and an agent talked into attacking it, in the real
// workbench: the `.code-workspace` lists the repository's `.git` as its FIRST folder (so a path
// relative to the first root hides `.git/`), the agent (hostile-repo-agent.js) writes a git hook
// and agent configuration, asks for unlimited terminal output and starts a `setsid` sleeper that
// leaves its process group. Each protected write stops on a card and Deny writes nothing; the
// ordinary edit still lands; the output is held to the user's limit; and when the window goes,
// the sleeper goes with it. Screenshots: test-results/screenshots/hostile-repo-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, findFrame, screenshot } = require('../host/workbench');

const REPO = path.resolve(__dirname, '../..');
const VSIX = path.join(REPO, 'acp-host.vsix');
const AGENT = path.join(REPO, 'test/fixtures/agents/hostile-repo-agent.js');

/** A cloned repository: a real git repository whose workspace file opens its `.git` first. */
function clonedRepository() {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-repo-'));
  execFileSync('git', ['init', '-q', repo]);
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src', 'app.js'), 'console.log("broken");\n');
  fs.writeFileSync(path.join(repo, 'project.code-workspace'), JSON.stringify({ folders: [{ path: '.git' }, { path: '.' }] }));
  return repo;
}

/** The pids of processes whose command line is exactly `sleep <seconds>` (Linux: CI's and this suite's platform). */
function sleepers(seconds) {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === `sleep ${seconds}`;
    } catch {
      return false;
    }
  });
}

test('a cloned repository with .git as its first folder and a hostile agent get nothing they were not given; an ordinary edit works', async () => {
  const repo = clonedRepository();
  const seconds = 86400 + Math.floor(Math.random() * 100000);
  // It takes the workspace's other folders (additionalDirectories), as Claude Agent and Codex do: the session's roots are `.git`, then the repository.
  const capabilities = { sessionCapabilities: { additionalDirectories: {} } };
  const hostile = { name: 'Hostile', command: process.execPath, args: [AGENT], env: { FAKE_AGENT_CAPABILITIES: JSON.stringify(capabilities) } };
  const wb = await openWorkbench({
    label: 'e2e-hostile-repo',
    vsix: [VSIX],
    workspace: path.join(repo, 'project.code-workspace'),
    userSettings: { 'acpHost.agents': [hostile], 'acpHost.defaultAgent': 'Hostile', 'workbench.colorTheme': 'Default Dark Modern' },
  });
  let closed = false;
  try {
    await wb.page.locator('.activitybar [aria-label^="ACP Host"]').first().click({ timeout: 30000 });
    const frame = await findFrame(wb.page, '#prompt', 60000);
    await frame.locator('#prompt').fill(JSON.stringify({ repo, sleep: seconds }));
    await frame.locator('#prompt').press('Enter');

    // Each protected write waits on a card; Deny answers it. The edit of src/app.js asks nothing.
    for (const [i, name] of [/pre-commit/, /\.claude[\\/]settings\.json/].entries()) {
      const card = frame.locator('.entry-tool', { has: frame.locator('.policy-note', { hasText: name }) });
      await card.locator('button.option[data-option-id="acp-host:deny"]').waitFor({ timeout: 60000 });
      assert.match(await card.locator('.policy-note').first().textContent(), /protected path/);
      if (i === 0) await screenshot(wb.page, 'hostile-repo-hook-asks');
      await card.locator('button.option[data-option-id="acp-host:deny"]').click();
    }

    const answer = frame.locator('.entry-agent', { hasText: '"sleeper"' });
    await answer.waitFor({ timeout: 60000 });
    const report = JSON.parse((await answer.textContent()).match(/\{.*\}/s)[0]);
    assert.equal(report.hook.ok, false, 'the hook write is refused');
    assert.equal(report.claude.ok, false, 'the agent configuration write is refused');
    assert.equal(report.edit.ok, true, `the ordinary edit works: ${JSON.stringify(report.edit)}`);
    assert.equal(report.unlimited.ok, true, JSON.stringify(report.unlimited));
    assert.equal(report.unlimited.truncated, true, 'the output was cut at the user limit');
    assert.ok(report.unlimited.length <= 1024 * 1024, `at most the user's 1 MiB, got ${report.unlimited.length} bytes`);
    assert.equal(report.sleeper.ok, true, JSON.stringify(report.sleeper));
    assert.equal(fs.existsSync(path.join(repo, '.git', 'hooks', 'pre-commit')), false, 'no hook was written');
    assert.equal(fs.existsSync(path.join(repo, '.claude', 'settings.json')), false, 'no agent configuration was written');
    assert.equal(fs.readFileSync(path.join(repo, 'src', 'app.js'), 'utf8'), 'console.log("fixed");\n');
    await screenshot(wb.page, 'hostile-repo-done');

    assert.equal(sleepers(seconds).length, 1, 'the setsid sleeper runs while the window does');
    await wb.close();
    closed = true;
    const deadline = Date.now() + 10000;
    while (sleepers(seconds).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(sleepers(seconds), [], 'the sleeper that left its process group ended with the window');
  } finally {
    if (!closed) await wb.close();
    for (const pid of sleepers(seconds)) process.kill(Number(pid), 'SIGKILL');
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
