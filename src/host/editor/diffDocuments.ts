import * as path from 'node:path';
import vscode = require('vscode');
import type { DiffSource } from '../../session/transcript';
import { ReadOnlyDocuments } from './readOnlyDocuments';

/** Each opened diff holds two texts; the 400 newest are kept. */
const MAX_KEPT = 400;
export const DIFF_SCHEME = 'acp-diff';

/** Which side of a tool call's proposed edit a diff document is, and the file the agent named (unchecked: confine it before use). */
export interface DiffSide {
  path: string;
  side: 'replaced' | 'proposed';
}

/** What a document of ours shows, from its URI (so a comment on it can name the file and lines); undefined for any other. */
export function diffSideOf(uri: vscode.Uri): DiffSide | undefined {
  if (uri.scheme !== DIFF_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const path = query.get('file');
  const side = query.get('side');
  return path && (side === 'replaced' || side === 'proposed') ? { path, side } : undefined;
}

/**
 * The two sides of an agent's proposed edit as read-only documents, so VS Code's own diff
 * editor shows it (with its navigation, inline/side-by-side toggle and accessibility).
 */
export class DiffDocuments implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(DIFF_SCHEME, MAX_KEPT);

  async open(diff: DiffSource): Promise<void> {
    const name = path.basename(diff.path);
    const side = (side: DiffSide['side']) => new URLSearchParams({ side, file: diff.path }).toString();
    const before = this.documents.add(`before/${name}`, diff.oldText ?? '', side('replaced'));
    const after = this.documents.add(`after/${name}`, diff.newText, side('proposed'));
    const title = `${name} (${diff.oldText === null ? 'new file' : 'agent edit'})`;
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  }

  dispose(): void {
    this.documents.dispose();
  }
}
