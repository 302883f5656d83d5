import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffSource } from '../../session/transcript';
import { ReadOnlyDocuments } from './readOnlyDocuments';

/** Each opened diff holds two texts; the 400 newest are kept. */
const MAX_KEPT = 400;

/**
 * The two sides of an agent's proposed edit as read-only documents, so VS Code's own diff
 * editor shows it (with its navigation, inline/side-by-side toggle and accessibility).
 */
export class DiffDocuments implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments('acp-diff', MAX_KEPT);

  async open(diff: DiffSource): Promise<void> {
    const name = path.basename(diff.path);
    const before = this.documents.add(`before/${name}`, diff.oldText ?? '');
    const after = this.documents.add(`after/${name}`, diff.newText);
    const title = `${name} (${diff.oldText === null ? 'new file' : 'agent edit'})`;
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  }

  dispose(): void {
    this.documents.dispose();
  }
}
