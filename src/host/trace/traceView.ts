import vscode = require('vscode');
import type { TraceStore } from '../../runtime/trace';

export const TRACE_SCHEME = 'acp-trace';

/** An open trace document is refreshed at most this often while messages flow. */
export const TRACE_REFRESH_MS = 500;

/**
 * The trace as read-only virtual documents `acp-trace:/<agent>.jsonl`, one JSON line per message,
 * kept up to date (throttled) while open; and the "Show/Copy Protocol Trace" commands.
 */
export class TraceView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Agents whose trace grew since their documents were last refreshed. */
  private readonly dirty = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRefresh = 0;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly store: TraceStore) {
    this.disposables = [vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, this), this.changed, store.onDidAdd((agent) => this.onAdd(agent))];
  }

  static uri(agent: string): vscode.Uri {
    // A name is a file name here: a slash would make it a folder.
    return vscode.Uri.from({ scheme: TRACE_SCHEME, path: `/${agent.replace(/[/\\]/g, '_')}.jsonl`, query: new URLSearchParams({ agent }).toString() });
  }

  private static agentOf(uri: vscode.Uri): string {
    return new URLSearchParams(uri.query).get('agent') ?? uri.path.replace(/^\//, '').replace(/\.jsonl$/, '');
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.store.text(TraceView.agentOf(uri));
  }

  async show(agent: string): Promise<vscode.TextDocument> {
    const uri = TraceView.uri(agent);
    let doc = await vscode.workspace.openTextDocument(uri);
    // The content may be from an earlier opening (VS Code keeps the document a while).
    this.changed.fire(uri);
    const languages = await vscode.languages.getLanguages();
    const language = languages.includes('jsonl') ? 'jsonl' : 'plaintext';
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  /** Copies the trace to the clipboard; the confirmation is not awaited (it waits for a dismissal). */
  async copy(agent: string): Promise<string> {
    const text = this.store.text(agent);
    await vscode.env.clipboard.writeText(text);
    const buffer = this.store.buffer(agent);
    void vscode.window.showInformationMessage(`Copied the protocol trace of ${agent} (${buffer.size} messages, secrets redacted) to the clipboard.`);
    return text;
  }

  private onAdd(agent: string): void {
    this.dirty.add(agent);
    if (this.timer) return;
    const wait = Math.max(0, this.lastRefresh + TRACE_REFRESH_MS - Date.now());
    this.timer = setTimeout(() => this.refresh(), wait);
  }

  private refresh(): void {
    this.timer = undefined;
    this.lastRefresh = Date.now();
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === TRACE_SCHEME && !d.isClosed);
    for (const doc of open) if (this.dirty.has(TraceView.agentOf(doc.uri))) this.changed.fire(doc.uri);
    this.dirty.clear();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
