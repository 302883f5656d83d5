// The controller's side of prompt context, against the real demo agent (dist/demo-agent.js:
// promptCapabilities embeddedContext true, image false): attachments are shown as chips, an
// image is refused when added (with the reason next to the chips), a prompt takes the chips
// (a queued one keeps its own), and what reaches the agent is what the capabilities allow.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession } from '../../src/session/agentSession';
import { currentEnv } from '../../src/agent/environment';

const DEMO = path.resolve(__dirname, '../../../dist/demo-agent.js');
const silent = { info() {}, warn() {}, error() {} };

function demo(cwd: string, traced: unknown[]): AgentSession {
  return new AgentSession(
    // Its sessions are saved next to the test's workspace, not in the user's temp folder.
    { name: 'Demo agent', identity: 'test', launch: async () => ({ command: process.execPath, args: [DEMO], cwd, env: { ...currentEnv(), ACP_DEMO_STATE_DIR: path.join(cwd, '.demo-state') } }) },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: cwd, clientVersion: '0.0.0-test' },
    {
      readTextFile: async () => 'x',
      readForEmbed: async (uri) => (uri.endsWith('/a.ts') ? 'export const a = 1;\n' : undefined),
      log: silent,
      onTrace: (_name, direction, message) => direction === 'send' && traced.push(message),
    },
  );
}

/** Runs a prompt to its end, rejecting any edit the demo asks permission for. */
async function run(c: AgentSession, text: string): Promise<void> {
  const turn = c.prompt(text);
  let done = false;
  void turn.finally(() => (done = true));
  while (!done) {
    for (const e of c.transcript.entries) if (e.kind === 'tool' && e.permission) c.choosePermission(e.toolCallId, e.permission.find((o) => o.kind.startsWith('reject'))!.optionId);
    await new Promise((r) => setTimeout(r, 10));
  }
  await turn;
}

test('attachments go with the prompt as the demo agent can take them; an image is refused when added', { timeout: 30000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-attach-'));
  const traced: unknown[] = [];
  const c = demo(dir, traced);
  try {
    await c.start();
    c.attach({ kind: 'file', uri: 'file:///w/src/a.ts', name: 'a.ts', path: 'src/a.ts' });
    c.attach({ kind: 'file', uri: 'file:///w/src/a.ts', name: 'a.ts', path: 'src/a.ts' }); // twice: once
    c.attach({ kind: 'folder', uri: 'file:///w/src', name: 'src', path: 'src' });
    c.attach({ kind: 'selection', uri: 'file:///w/src/b.ts', name: 'b.ts', path: 'src/b.ts', startLine: 2, endLine: 3, text: 'two\nthree' });
    const refused = c.attach({ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' });
    assert.match(refused ?? '', /Demo agent does not accept images/);

    let view = c.session.view;
    assert.deepEqual(view.attachments.map((a) => `${a.kind} ${a.label}`), ['file a.ts', 'folder src/', 'selection b.ts:2-3']);
    assert.match(view.attachmentNotice ?? '', /^shot\.png was not attached: Demo agent does not accept images/);

    c.detach(view.attachments[1].id);
    assert.deepEqual(c.session.view.attachments.map((a) => a.label), ['a.ts', 'b.ts:2-3']);

    await run(c, 'what is in these?');
    view = c.session.view;
    assert.deepEqual(view.attachments, [], 'sending takes the chips');
    assert.equal(view.attachmentNotice, null);

    const user = c.transcript.entries.find((e) => e.kind === 'user');
    assert.deepEqual(user, { kind: 'user', text: 'what is in these?', attachments: [{ kind: 'file', label: 'a.ts' }, { kind: 'selection', label: 'b.ts:2-3' }] });
    const sent = traced.find((m) => (m as { method?: string }).method === 'session/prompt') as { params: { prompt: unknown[] } };
    assert.deepEqual(sent.params.prompt, [
      { type: 'text', text: 'what is in these?' },
      { type: 'resource', resource: { uri: 'file:///w/src/a.ts', text: 'export const a = 1;\n' } },
      { type: 'resource', resource: { uri: 'file:///w/src/b.ts#L2-L3', text: 'two\nthree' } },
    ]);
    const reply = c.transcript.entries.filter((e) => e.kind === 'agent').map((e) => (e.kind === 'agent' ? e.text : '')).join('');
    assert.match(reply, /You embedded `file:\/\/\/w\/src\/a\.ts` \(20 characters\)/);
    assert.match(reply, /You embedded `file:\/\/\/w\/src\/b\.ts#L2-L3` \(9 characters\)/);
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an image attached before the agent ran is flagged once its capabilities are known, and blocks sending', { timeout: 30000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-attach-'));
  const traced: unknown[] = [];
  const c = demo(dir, traced);
  try {
    assert.equal(c.attach({ kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }), undefined, 'unknown capabilities: kept for now');
    assert.equal(c.session.view.attachments[0].problem, null);
    await c.start();
    assert.match(c.session.view.attachments[0].problem ?? '', /does not accept images/, 'checked once the agent answered initialize');
    await c.prompt('look');
    assert.match(c.session.view.attachmentNotice ?? '', /^Not sent: remove shot\.png first/);
    assert.equal(traced.filter((m) => (m as { method?: string }).method === 'session/prompt').length, 0, 'nothing was sent');
    assert.equal(c.transcript.entries.length, 0);
    c.detach(c.session.view.attachments[0].id);
    await run(c, 'look');
    assert.equal(traced.filter((m) => (m as { method?: string }).method === 'session/prompt').length, 1);
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
