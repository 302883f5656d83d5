import vscode = require('vscode');
import type { RestoreChange } from '../../../session/restorePlan';

/** A file's state now (see EditReviewer's `current`): its text, null when it does not exist, undefined when unreadable. */
export type CurrentState = (uri: vscode.Uri) => Promise<string | null | undefined>;

/**
 * Puts files back as `changes` say, in ONE WorkspaceEdit, so that VS Code's undo takes it all
 * back: a file to remove is deleted, a missing one is created with its text, any other gets its
 * whole text replaced (and is saved). Each goes to its `real` path, as placed inside the
 * workspace (restorePlacement.ts), not through the link it may be named by. `label` names the
 * edit in VS Code's undo history.
 */
export async function applyTexts(changes: readonly Pick<RestoreChange, 'real' | 'text'>[], label: string, current: CurrentState, warn?: (message: string) => void): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const toSave: vscode.TextDocument[] = [];
  const meta = { label, needsConfirmation: false };
  for (const { real, text } of changes) {
    const uri = vscode.Uri.file(real);
    const now = await current(uri);
    if (text === null) {
      if (now !== null) edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    } else if (now === null) {
      edit.createFile(uri, { contents: new TextEncoder().encode(text), ignoreIfExists: false }, meta);
    } else {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end), text, meta);
      toSave.push(doc);
    }
  }
  if (edit.size === 0) return;
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit (is a file read-only?)');
  for (const doc of toSave) if (doc.isDirty && !(await doc.save())) warn?.(`${label}: ${doc.uri.fsPath} was restored but saving it failed.`);
}
