// The protocol trace in the real extension host: ACP: Show Protocol Trace opens a read-only
// acp-trace:/<agent>.jsonl document with every message both ways (refreshed while open), secrets
// never show, and ACP: Copy Protocol Trace puts the same text on the clipboard.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, until, useAgent } from './helpers';

interface TraceLine {
  time: string;
  dir: '→' | '←';
  for?: string;
  message: { id?: unknown; method?: string; result?: unknown; params?: unknown };
}

async function openTrace(): Promise<vscode.TextDocument> {
  await vscode.commands.executeCommand('acpHost.showTrace');
  return until('the trace document', () => {
    const doc = vscode.window.activeTextEditor?.document;
    return doc?.uri.scheme === 'acp-trace' ? doc : undefined;
  });
}

function parse(text: string): { header: Record<string, string>; lines: TraceLine[] } {
  const [first, ...rest] = text.trimEnd().split('\n');
  return { header: JSON.parse(first) as Record<string, string>, lines: rest.map((l) => JSON.parse(l) as TraceLine) };
}

suite('protocol trace', function () {
  this.timeout(60000);

  teardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('after a demo turn the trace document holds initialize, session/new and session/prompt both ways, and follows new messages', async () => {
    const controller = await useAgent('Demo agent');
    await controller.prompt('/help');
    const doc = await openTrace();
    assert.strictEqual(doc.uri.path, '/Demo agent.jsonl');
    assert.ok(['jsonl', 'plaintext'].includes(doc.languageId), doc.languageId);
    const { header, lines } = parse(doc.getText());
    assert.match(header.trace, /Demo agent/);
    assert.match(header.redacted, /«redacted»/);
    for (const method of ['initialize', 'session/new', 'session/prompt']) {
      assert.ok(lines.some((l) => l.dir === '→' && l.message.method === method), `${method} sent`);
      assert.ok(lines.some((l) => l.dir === '←' && l.for === method && l.message.result !== undefined), `${method} answered`);
    }
    assert.ok(lines.some((l) => l.dir === '←' && l.message.method === 'session/update'), 'notifications from the agent');

    // Read-only: typing into the editor changes nothing.
    const before = doc.getText();
    await vscode.commands.executeCommand('type', { text: 'typed' });
    assert.strictEqual(doc.getText(), before, 'the trace cannot be edited');
    assert.strictEqual(doc.isDirty, false);

    // Still open: the next turn shows up (refreshed at most every 500 ms). Earlier suites' turns
    // with the demo agent are in its trace too, so count from here.
    const prompts = () => parse(doc.getText()).lines.filter((l) => l.message.method === 'session/prompt').length;
    const sent = prompts();
    await controller.prompt('/help');
    await until('the next turn in the open document', () => (prompts() === sent + 1 ? true : undefined), 5000);
  });

  test('configured env secrets and secret fields never appear; a 1 MB output is clipped; copy puts the same text on the clipboard', async () => {
    const controller = await useAgent('Leaky', 'trace-agent.js', { MY_API_KEY: 'sk-secret-123' });
    await controller.prompt('hello');
    const doc = await openTrace();
    assert.strictEqual(doc.uri.path, '/Leaky.jsonl');
    const text = doc.getText();
    for (const secret of ['sk-secret-123', 'pw-hunter2-xyz', 'sk-header-456', 'sk-field-789']) {
      assert.ok(!text.includes(secret), `${secret} is in the trace`);
    }
    assert.ok(text.includes('my key is «redacted»'), 'the leaked key is masked in free text');
    const tool = parse(text).lines.find((l) => JSON.stringify(l.message).includes('leaky-1'));
    assert.ok(tool, 'the tool call is traced');
    const rawInput = (tool.message.params as { update: { rawInput: Record<string, unknown> } }).update.rawInput;
    assert.deepStrictEqual(rawInput.env, [{ name: 'MY_API_KEY', value: '«redacted»' }, { name: 'DB_PASSWORD', value: '«redacted»' }]);
    assert.ok(text.length < 200_000, `the 1 MB output is clipped (${text.length} chars)`);
    assert.match(text, /clipped: \d+ of 1048576 chars not shown/);

    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('acpHost.copyTrace');
    const copied = await vscode.env.clipboard.readText();
    assert.ok(!copied.includes('sk-secret-123'));
    assert.strictEqual(copied, (await api()).host.logs.traceText('Leaky'));
    assert.strictEqual(copied, doc.getText(), 'the document and the clipboard hold the same text');
  });
});
