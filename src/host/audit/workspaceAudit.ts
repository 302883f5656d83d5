import * as os from 'node:os';
import * as path from 'node:path';
import vscode = require('vscode');
import { AuditLog, toJsonLines } from '../../audit/auditLog';
import type { AuditScrub } from '../../audit/auditLog';
import type { AuditEvent, NewAuditEvent } from '../../audit/auditEvent';
import { auditReads, auditTerminals, auditWrites } from '../../runtime/auditedPorts';
import type { AuditRecorder, SourcedRead } from '../../runtime/auditedPorts';
import type { AgentPorts, TerminalPort } from '../../runtime/ports';
import { AuditStore } from './auditStore';
import { AuditView } from './auditView';

/** Asks where the export goes; undefined when the user cancels. */
export type ExportTargetPicker = (suggested: vscode.Uri) => Thenable<vscode.Uri | undefined>;

const saveDialog: ExportTargetPicker = (suggested) =>
  vscode.window.showSaveDialog({ defaultUri: suggested, filters: { 'JSON Lines': ['jsonl'] }, title: 'Export the ACP Host audit log', saveLabel: 'Export' });

/**
 * The audit log of this workspace (issue 13, item 5): kept in the extension's storage for the
 * workspace (`audit.jsonl`, see AuditStore), or in memory when no folder is open; shown by
 * ACP: Show Audit Log and exported as JSON Lines by ACP: Export Audit Log…. Whatever serves or
 * decides an agent's request records it here (`record`).
 */
export class WorkspaceAudit implements vscode.Disposable {
  readonly log: AuditLog;
  private readonly store: AuditStore | undefined;
  private readonly view: AuditView;
  /** Where an export goes: the save dialog; integration tests replace it. */
  pickExportTarget: ExportTargetPicker = saveDialog;

  /** `storage`: the extension's storage folder for this workspace (`context.storageUri`). */
  constructor(storage: vscode.Uri | undefined, scrub: AuditScrub, report: (message: string) => void) {
    this.log = new AuditLog({ scrub });
    // Only a local folder can be appended to; the extension runs where the workspace is, so it is one.
    if (storage?.scheme === 'file') this.store = new AuditStore(this.log, path.join(storage.fsPath, 'audit.jsonl'), { log: report });
    this.view = new AuditView(this.log);
  }

  /** Where the log is kept; undefined: in memory only (no folder open). */
  get file(): string | undefined {
    return this.store?.file;
  }

  record(event: NewAuditEvent): AuditEvent {
    return this.log.record(event);
  }

  /**
   * `agent`'s fs and terminal ports, recording what VS Code did with each request let through
   * (runtime/auditedPorts.ts), and the port its sessions record the permissions they ask through.
   */
  ports(
    agent: string,
    served: { read: SourcedRead; write: NonNullable<AgentPorts['writeTextFile']>; terminals: TerminalPort },
  ): Pick<AgentPorts, 'readTextFile' | 'writeTextFile' | 'terminals' | 'audit'> {
    const record: AuditRecorder = (event) => void this.log.record({ agent, ...event });
    return {
      readTextFile: auditReads(served.read, record),
      writeTextFile: auditWrites(served.write, record),
      terminals: auditTerminals(served.terminals, record),
      audit: (event) => void this.log.record(event),
    };
  }

  /** Every event kept, earlier windows' too, oldest first. */
  async events(): Promise<AuditEvent[]> {
    await this.store?.load();
    return this.log.events();
  }

  /** Writes what was recorded to the file now (it is also written within a second, and when the window closes). */
  async flush(): Promise<void> {
    await this.store?.flush();
  }

  async show(): Promise<vscode.TextDocument> {
    await this.store?.load();
    return this.view.show();
  }

  /** Writes the log as JSON Lines where the user says; undefined when they cancelled. */
  async export(): Promise<vscode.Uri | undefined> {
    const day = new Date().toISOString().slice(0, 10);
    const target = await this.pickExportTarget(vscode.Uri.file(path.join(os.homedir(), `acp-audit-${day}.jsonl`)));
    if (!target) return undefined;
    const events = await this.events();
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(toJsonLines(events)));
    void vscode.window.showInformationMessage(`Exported ${events.length} audit event${events.length === 1 ? '' : 's'} to ${target.fsPath}.`);
    return target;
  }

  /** The last events are written before the log goes. */
  dispose(): void {
    this.view.dispose();
    this.store?.dispose();
    this.log.dispose();
  }
}
