import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffSource } from '../session/transcript';

const SCHEME = 'acp-diff';
/** Each opened diff holds two texts; the oldest are dropped so a long session does not hoard them. */
const MAX_KEPT = 200;

/**
 * Read-only documents for the two sides of an agent's proposed edit, so VS Code's own diff
 * editor shows it (with its navigation, inline/side-by-side toggle and accessibility).
 */
export class DiffDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  async open(diff: DiffSource): Promise<void> {
    const id = ++this.next;
    const name = path.basename(diff.path);
    // The file's own name keeps its language (highlighting) in the diff editor.
    const side = (label: string, text: string) => {
      const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${id}/${label}/${name}` });
      this.texts.set(uri.toString(), text);
      return uri;
    };
    const before = side('before', diff.oldText ?? '');
    const after = side('after', diff.newText);
    while (this.texts.size > MAX_KEPT * 2) this.texts.delete(this.texts.keys().next().value!);
    const title = `${name} (${diff.oldText === null ? 'new file' : 'agent edit'})`;
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
