#!/usr/bin/env node
// Records test/fixtures/webview/demo-session.json: every HostToView message the host's ViewFeed
// posts while the real demo agent (dist/demo-agent.js) runs through the real AgentSession
// (out/src/, plain Node: no vscode import), for the prompts "hello" (permission answered
// allow_once) and "/help". The last message is the snapshot a freshly (re)loaded view gets at the
// end, so the replay test can check that snapshot == patches.
//
//   npm run build && npm run compile && node test/webview/record.js
//
// The workspace is a temporary copy of test/fixtures/workspace; its absolute path is replaced by
// /workspace in the output so the fixture does not depend on the machine.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const OUT = path.join(REPO, 'out');
const DEMO = path.join(REPO, 'dist', 'demo-agent.js');
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'webview', 'demo-session.json');
const STABLE_WORKSPACE = '/workspace';

function need(file, how) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`${how}\` first`);
  return file;
}

async function main() {
  const { AgentSession } = require(need(path.join(OUT, 'src/session/agentSession.js'), 'npm run compile'));
  const { ViewFeed } = require(need(path.join(OUT, 'src/view/viewFeed.js'), 'npm run compile'));
  const { HostToViewSchema } = require(need(path.join(OUT, 'src/webview-protocol/messages.js'), 'npm run compile'));
  need(DEMO, 'npm run build');

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-webview-record-'));
  const workspace = path.join(tmp, 'workspace');
  fs.cpSync(path.join(REPO, 'test/fixtures/workspace'), workspace, { recursive: true });

  const logs = [];
  const log = { info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`), error: (m) => logs.push(`error ${m}`) };
  const controller = new AgentSession(
    {
      name: 'Demo agent',
      launch: async () => ({
        command: process.execPath,
        args: [DEMO],
        cwd: workspace,
        // A short pause still streams in several chunks per post and over several posts.
        env: { ...process.env, ACP_DEMO_DELAY_MS: process.env.ACP_DEMO_DELAY_MS || '15', ACP_DEMO_STATE_DIR: path.join(workspace, '.demo-state') },
      }),
    },
    { initializeTimeoutMs: 20000, maxLineBytes: 1 << 24, workspaceFolder: workspace, clientVersion: '0.0.0-record' },
    {
      readTextFile: async (req) => {
        const text = fs.readFileSync(req.path, 'utf8');
        if (req.line == null && req.limit == null) return text;
        const lines = text.split('\n');
        const from = Math.max(0, (req.line ?? 1) - 1);
        return lines.slice(from, req.limit == null ? undefined : from + req.limit).join('\n');
      },
      log,
      onTrace: () => {},
    },
  );
  if (!controller.session) throw new Error('AgentSession has no `session` yet (the ViewFeed needs it): run this again once it has');

  const messages = [];
  const feed = new ViewFeed((message) => {
    const checked = HostToViewSchema.safeParse(message);
    if (!checked.success) throw new Error(`the feed posted an invalid message: ${checked.error.issues[0].message}`);
    messages.push(JSON.parse(JSON.stringify(message)));
    queueMicrotask(() => feed.rendered(message.seq)); // as the panel answers once it has rendered
  });

  // Answer every permission request with the allow_once option, as soon as it shows.
  const answered = new Set();
  controller.transcript.onChange(() => {
    for (const entry of controller.transcript.entries) {
      if (entry.kind !== 'tool' || !entry.permission || answered.has(entry.toolCallId)) continue;
      const option = entry.permission.find((o) => o.kind === 'allow_once');
      if (!option) continue;
      answered.add(entry.toolCallId);
      // After this frame, so that the panel sees the permission request before the answer.
      setTimeout(() => controller.choosePermission(entry.toolCallId, option.optionId), 50);
    }
  });

  feed.attach(controller); // the first snapshot: an idle agent, nothing yet
  const frame = () => new Promise((r) => setTimeout(r, 60));
  try {
    await controller.start();
    await frame();
    await controller.prompt('hello');
    await frame();
    await controller.prompt('/help');
    await frame();
    await frame();
    if (answered.size === 0) throw new Error('the demo turn asked no permission');
    feed.snapshot(); // what a reloaded view gets: the final state in one message
  } finally {
    feed.dispose();
    await controller.stop();
  }

  let json = JSON.stringify(messages, null, 1);
  // The demo notes carry the time of the turn: a fixed one keeps the fixture stable.
  json = json.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "2025-01-01T00:00:00.000Z");
  // Paths inside JSON strings: the workspace (and the temp dir, should it appear) become stable.
  const escaped = (p) => JSON.stringify(p).slice(1, -1);
  json = json.split(escaped(workspace)).join(STABLE_WORKSPACE).split(escaped(tmp)).join('/tmp/record');
  if (json.includes(tmp)) throw new Error('the temp path is still in the output');
  fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
  fs.writeFileSync(FIXTURE, json + '\n');
  fs.rmSync(tmp, { recursive: true, force: true });

  const kinds = {};
  for (const m of messages) for (const one of m.type === 'batch' ? m.messages : [m]) kinds[one.type] = (kinds[one.type] || 0) + 1;
  console.log(`wrote ${path.relative(REPO, FIXTURE)}: ${messages.length} posts (${JSON.stringify(kinds)})`);
  const errors = logs.filter((l) => l.startsWith('error'));
  if (errors.length) console.log(errors.join('\n'));
}

// A script, not a test: `node --test test/` must not re-record the fixture.
if (process.env.NODE_TEST_CONTEXT) {
  console.log('test/webview/record.js is a script (node test/webview/record.js), not a test: skipped');
} else main().catch((error) => {
  console.error(error && error.stack || error);
  process.exit(1);
});
