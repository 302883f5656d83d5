// The workspace's audit log in the real extension host: one turn of a fake agent
// (test/fixtures/agents/audit-agent.js) writes, reads a file not open in an editor (and one that
// is), is refused a write outside the workspace, runs a command and asks a permission; each is
// in the log with its agent and session, the agent's secret nowhere. The log is read back from
// the workspace storage by a new AuditLog, ACP: Show Audit Log shows it, ACP: Export Audit Log…
// writes it as JSON Lines.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { AuditEventSchema } from '../../src/audit/auditEvent';
import type { AuditEvent } from '../../src/audit/auditEvent';
import { AuditLog } from '../../src/audit/auditLog';
import { AuditStore } from '../../src/host/audit/auditStore';
import { api, find, until, useAgent } from './helpers';

const TOKEN = 'sk-audit-secret-4242';

suite('audit log', function () {
  this.timeout(60000);
  let trail: string;
  let sessionId: string;
  /** The events of the agent's turn, in the order they were recorded. */
  let turn: AuditEvent[];

  suiteSetup(async () => {
    trail = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'audit-trail');
    fs.rmSync(trail, { recursive: true, force: true });
    fs.mkdirSync(trail, { recursive: true });
    fs.writeFileSync(path.join(trail, 'unopened.txt'), 'on disk only\n');
    fs.writeFileSync(path.join(trail, 'opened.txt'), 'open in an editor\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(trail, 'opened.txt')));

    const controller = await useAgent('Auditor', 'audit-agent.js', { AUDIT_TOKEN: TOKEN });
    const done = controller.prompt('audit');
    const card = await until('the permission card', () => find(controller, 'tool').find((t) => t.permission));
    controller.choosePermission(card.toolCallId, 'allow');
    await done;
    const report = JSON.parse(find(controller, 'agent').at(-1)!.text) as Record<string, { ok: boolean }>;
    assert.deepStrictEqual(
      Object.fromEntries(Object.entries(report).map(([k, v]) => [k, v.ok])),
      { write: true, readUnopened: true, readOpened: true, writeOutside: false, terminal: true, exit: true, permission: true },
      JSON.stringify(report),
    );
    sessionId = controller.currentSessionId!;
    const { host } = await api();
    turn = (await host.audit.events()).filter((e) => e.agent === 'Auditor' && e.sessionId === sessionId);
  });

  suiteTeardown(async () => {
    await (await api()).host.controller.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the write, the read of a file not open, the refused write, the command and the permission are each recorded, with agent and session', () => {
    const summary = turn.map((e) => `${e.kind} ${e.decision} by ${e.by}: ${path.basename(e.target.split(' ')[0])}`);
    assert.deepStrictEqual(summary, [
      'write allowed by default: written.txt',
      'read allowed by default: unopened.txt',
      'write denied by default: audit-outside.txt',
      `terminal allowed by default: ${path.basename(process.execPath)}`,
      'permission asked by default: Deploy',
      'permission allowed by user: Deploy',
    ]);
    assert.ok(!turn.some((e) => e.target.endsWith('opened.txt') && !e.target.endsWith('unopened.txt')), 'a read of an open buffer is not recorded');
    assert.strictEqual(turn[0].target, path.join(trail, 'written.txt'));
    assert.match(turn[2].detail ?? '', /outside the workspace/);
    assert.strictEqual(turn[5].detail, 'chose "Allow" (allow_once)');
    for (const event of turn) assert.ok(AuditEventSchema.safeParse(event).success, JSON.stringify(event));
  });

  test('the secret the agent was given is masked: in the command line, the env, the permission title', async () => {
    const { host } = await api();
    const terminal = turn.find((e) => e.kind === 'terminal')!;
    assert.match(terminal.target, /process\.exit\(0\) \/\/ \*\*\*/);
    assert.match(terminal.detail ?? '', /env ELECTRON_RUN_AS_NODE, AUDIT_TOKEN/);
    assert.strictEqual(turn.find((e) => e.kind === 'permission')!.target, 'Deploy with ***');
    assert.ok(!host.audit.log.toJsonLines().includes(TOKEN));
  });

  test('the log is kept in the workspace storage: a new AuditLog over the same file reads it back', async () => {
    const { host } = await api();
    assert.ok(host.audit.file, 'a folder is open: the log has a file');
    await host.audit.flush();
    const reread = new AuditLog();
    const store = new AuditStore(reread, host.audit.file);
    try {
      await store.load();
    } finally {
      store.dispose();
    }
    assert.deepStrictEqual(
      reread.events().filter((e) => e.agent === 'Auditor' && e.sessionId === sessionId),
      turn,
    );
  });

  test('ACP: Export Audit Log… writes valid JSON Lines to the file picked', async () => {
    const { host } = await api();
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-audit-export-')), 'audit.jsonl');
    const picker = host.audit.pickExportTarget;
    host.audit.pickExportTarget = async () => vscode.Uri.file(target);
    try {
      await vscode.commands.executeCommand('acpHost.exportAuditLog');
    } finally {
      host.audit.pickExportTarget = picker;
    }
    const text = fs.readFileSync(target, 'utf8');
    assert.ok(text.endsWith('\n'));
    const exported = text.trimEnd().split('\n').map((line) => AuditEventSchema.parse(JSON.parse(line)));
    assert.deepStrictEqual(exported.filter((e) => e.agent === 'Auditor' && e.sessionId === sessionId), turn);
    assert.ok(!text.includes(TOKEN));
  });

  test('ACP: Show Audit Log opens a read-only document, one line per event, newest last, refreshed as events come', async () => {
    const { host } = await api();
    await vscode.commands.executeCommand('acpHost.showAuditLog');
    const doc = await until('the audit document', () => {
      const active = vscode.window.activeTextEditor?.document;
      return active?.uri.scheme === 'acp-audit' ? active : undefined;
    });
    const lines = doc.getText().trimEnd().split('\n');
    const ours = lines.filter((l) => l.includes(`Auditor, session ${sessionId}`));
    assert.strictEqual(ours.length, turn.length);
    assert.match(ours[0], /allowed {4}write {7}.*written\.txt {2}by default/);
    assert.match(ours.at(-1)!, /allowed {4}permission {2}Deploy with \*\*\* {2}by user/);
    assert.ok(!doc.getText().includes(TOKEN));

    await vscode.commands.executeCommand('type', { text: 'typed' });
    assert.strictEqual(doc.isDirty, false, 'the log cannot be edited');

    host.audit.record({ agent: 'Auditor', kind: 'sign-in', target: 'api key', decision: 'allowed', by: 'user' });
    await until('the new event as the last line', () => (doc.getText().trimEnd().split('\n').at(-1)!.includes('sign-in     api key') ? true : undefined), 5000);
  });
});
