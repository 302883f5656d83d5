// Take it with you and keyboard first (issue 16, items 7 and 8) in the real extension host, with
// test/fixtures/agents/export-agent.js (it checks the permission answers and the cancel it gets):
// the conversation exported as a Markdown document, Copy onto VS Code's clipboard, a tool's whole
// output opened in an editor, and the keybindings' commands with the context keys they depend on.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';
import type { AgentSession } from '../../src/session/agentSession';

const lastAgentText = (c: AgentSession) => find(c, 'agent').at(-1)?.text;

async function problems(c: AgentSession): Promise<string> {
  await c.prompt('__problems__');
  return lastAgentText(c) ?? '';
}

suite('take it with you, keyboard first', function () {
  this.timeout(60000);

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await closeSessionsAndAgents();
  });

  test('Export Conversation opens an untitled Markdown document with the whole conversation', async () => {
    const session = await useAgent('Exporter', 'export-agent.js');
    await session.prompt('rich');
    const cwd = session.origin.roots.cwd;
    await vscode.commands.executeCommand('acpHost.exportConversation');
    const document = await until('the exported document', () => {
      const doc = vscode.window.activeTextEditor?.document;
      return doc?.languageId === 'markdown' ? doc : undefined;
    });
    assert.strictEqual(document.isUntitled, true, 'untitled: Save asks where it goes');
    const text = document.getText();
    assert.match(text, /^# rich\n\n- Agent: Exporter\n- Exported: \d{4}-/);
    assert.match(text, /## You\n\nrich\n/);
    assert.match(text, /> \*\*Thinking\*\*\n>\n> Look at the tests first\./);
    assert.match(text, /- \[x\] Run the tests\n- \[ \] Fix app\.ts/);
    assert.match(text, /### Tool: npm test\n\n- Kind: execute\n- Status: completed/);
    assert.ok(text.includes('line 1\nline 2\n') && text.includes('line 3000\n```'), 'the whole output, fenced');
    assert.match(text, /- Locations: `src\/app\.ts:2`/, 'relative to the session’s folder');
    assert.ok(text.includes('```diff\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n```'), 'the diff, as a unified diff');
    assert.ok(text.includes('## Exporter\n\nHere is the fix:\n\n````md\n```js\nconst a = 1;\n```\n````\n\nDone.'), 'the answer’s markdown as it is');
    assert.match(text, /\*Turn ended\*\n\n---/);
    assert.ok(!text.includes(cwd), 'no absolute path of the workspace');
    assert.strictEqual(await problems(session), '[]');
  });

  test('Copy puts a message’s markdown source, or a code block’s text, on the clipboard; Open in editor shows a tool’s whole output', async () => {
    const { host } = await api();
    const session = await useAgent('Exporter', 'export-agent.js');
    await session.prompt('rich');
    const entries = session.transcript.entries;
    const answer = entries.findIndex((e) => e.kind === 'agent');
    await vscode.env.clipboard.writeText('before');
    await host.handleIntent({ type: 'copyMessage', index: answer });
    assert.strictEqual(await vscode.env.clipboard.readText(), 'Here is the fix:\n\n````md\n```js\nconst a = 1;\n```\n````\n\nDone.');
    await host.handleIntent({ type: 'copyMessage', index: entries.findIndex((e) => e.kind === 'user') });
    assert.strictEqual(await vscode.env.clipboard.readText(), 'rich');
    await host.handleIntent({ type: 'copyText', text: 'const a = 1;\n' });
    assert.strictEqual(await vscode.env.clipboard.readText(), 'const a = 1;\n');

    const tool = entries.findIndex((e) => e.kind === 'tool' && e.toolCallId === 'run-1');
    await host.handleIntent({ type: 'openToolOutput', index: tool, contentIndex: 0 });
    const editor = await until('the output’s editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'acp-host-output' ? vscode.window.activeTextEditor : undefined));
    const lines = editor.document.getText().split('\n');
    assert.strictEqual(lines.length, 3000, 'every line, not the panel’s preview');
    assert.strictEqual(lines.at(-1), 'line 3000');
    assert.match(editor.document.uri.path, /\/npm test\.txt$/);
  });

  test('the keyboard’s commands: accept and reject the waiting permission (once-only options), stop a turn, with their context keys', async () => {
    const { host } = await api();
    const session = await useAgent('Exporter', 'export-agent.js');
    assert.strictEqual(host.contextKeys.value('permissionWaiting'), false);

    const accepted = session.prompt('ask');
    await until('the permission', () => (host.contextKeys.value('permissionWaiting') ? true : undefined));
    await vscode.commands.executeCommand('acpHost.acceptPermission');
    await accepted;
    assert.strictEqual(lastAgentText(session), 'chose once', 'allow_once, not the allow_always listed first');
    assert.strictEqual(host.contextKeys.value('permissionWaiting'), false);

    const rejected = session.prompt('ask');
    await until('the second permission', () => (host.contextKeys.value('permissionWaiting') ? true : undefined));
    await vscode.commands.executeCommand('acpHost.rejectPermission');
    await rejected;
    assert.strictEqual(lastAgentText(session), 'chose no', 'reject_once, not the reject_always listed first');

    const slow = session.prompt('slow');
    await until('the running turn', () => (host.contextKeys.value('turnRunning') ? true : undefined));
    await vscode.commands.executeCommand('acpHost.cancelTurn');
    await slow;
    assert.strictEqual(find(session, 'turnEnd').at(-1)?.stopReason, 'cancelled');
    await until('the turn’s end in the context key', () => (host.contextKeys.value('turnRunning') ? undefined : true));
    assert.strictEqual(await problems(session), '[]');
  });

  test('focus the prompt shows the panel; next and previous session go round the open sessions', async () => {
    const { host } = await api();
    await useAgent('Exporter', 'export-agent.js');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await until('the panel hidden', () => (host.view.visible ? undefined : true));
    await vscode.commands.executeCommand('acpHost.focusPrompt');
    await until('the panel shown', () => (host.view.visible ? true : undefined));

    await vscode.commands.executeCommand('acpHost.newSession');
    const [first, second] = host.tabs.all;
    assert.strictEqual(host.tabs.all.length, 2);
    assert.strictEqual(host.tabs.shown?.key, second.key);
    await vscode.commands.executeCommand('acpHost.nextSession');
    assert.strictEqual(host.tabs.shown?.key, first.key, 'round from the last to the first');
    assert.strictEqual(host.controller, first.controller);
    await vscode.commands.executeCommand('acpHost.previousSession');
    assert.strictEqual(host.tabs.shown?.key, second.key);
  });
});
