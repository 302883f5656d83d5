import vscode = require('vscode');
import type { AuditLog } from '../../audit/auditLog';
import { auditText } from '../../audit/auditText';

const AUDIT_SCHEME = 'acp-audit';
/** An open audit document is refreshed at most this often while events come. */
const AUDIT_REFRESH_MS = 500;

/**
 * The audit log as a read-only virtual document (`acp-audit:/ACP Audit Log`), one line per event,
 * newest last, refreshed (throttled) while it is open.
 */
export class AuditView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly uri = vscode.Uri.from({ scheme: AUDIT_SCHEME, path: '/ACP Audit Log' });
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly log: AuditLog) {
    this.disposables = [vscode.workspace.registerTextDocumentContentProvider(AUDIT_SCHEME, this), this.changed, log.onDidRecord(() => this.schedule())];
  }

  provideTextDocumentContent(): string {
    return auditText(this.log.events(), this.log.limits);
  }

  async show(): Promise<vscode.TextDocument> {
    let doc = await vscode.workspace.openTextDocument(AuditView.uri);
    // VS Code may keep the document from an earlier opening: its text is brought up to date.
    this.changed.fire(AuditView.uri);
    if (doc.languageId !== 'log' && (await vscode.languages.getLanguages()).includes('log')) doc = await vscode.languages.setTextDocumentLanguage(doc, 'log');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === AuditView.uri.toString() && !d.isClosed)) this.changed.fire(AuditView.uri);
    }, AUDIT_REFRESH_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
