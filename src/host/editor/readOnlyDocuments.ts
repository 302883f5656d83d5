import vscode = require('vscode');

/** Characters of text all documents of one scheme may hold together (UTF-16: up to twice the bytes). */
const DEFAULT_MAX_CHARS = 64_000_000;

/**
 * In-memory read-only documents under one URI scheme, for the sides of diffs VS Code's own diff
 * editor shows (an agent's proposed edit, a reviewed file's baseline). The oldest texts are
 * dropped past `maxKept` documents or `maxChars` characters, so a long session does not hoard them
 * (a diff editor still open on a dropped one shows it empty).
 */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 0;
  private chars = 0;

  constructor(
    private readonly scheme: string,
    private readonly maxKept: number,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /**
   * A new document holding `text`; `label` ends with the file's name, which keeps its language
   * (highlighting); `query` says what it is a side of (see diffDocuments.ts).
   */
  add(label: string, text: string, query?: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${++this.next}/${label}`, query });
    this.texts.set(uri.toString(), text);
    this.chars += text.length;
    // The newest always stays, whatever its size: it is the one about to be shown.
    while (this.texts.size > 1 && (this.texts.size > this.maxKept || this.chars > this.maxChars)) {
      const [oldest, dropped] = this.texts.entries().next().value!;
      this.texts.delete(oldest);
      this.chars -= dropped.length;
    }
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
    this.chars = 0;
  }
}
