import * as vscode from 'vscode';

/**
 * In-memory read-only documents under one URI scheme, for the sides of diffs VS Code's own diff
 * editor shows (an agent's proposed edit, a reviewed file's baseline). The oldest texts are
 * dropped past `maxKept`, so a long session does not hoard them.
 */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 0;

  constructor(
    private readonly scheme: string,
    private readonly maxKept: number,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** A new document holding `text`; `label` ends with the file's name, which keeps its language (highlighting). */
  add(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${++this.next}/${label}` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > this.maxKept) this.texts.delete(this.texts.keys().next().value!);
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
