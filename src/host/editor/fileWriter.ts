import vscode = require('vscode');
import type { ConnectionLog } from '../../agent/connection';
import type { WriteTextFileRequest } from '../../protocol';
import { RpcError } from '../../protocol/errors';
import { throwIfCancelled } from '../../agent/connectionErrors';
import type { ResolvedPath } from '../../runtime/resolvedPath';

type WriteLog = Pick<ConnectionLog, 'info' | 'warn' | 'error'>;

/**
 * `fs/write_text_file`: through the file's TextDocument, so the write is one undoable edit in
 * the buffer and goes through the user's save participants (format on save and the like).
 *
 * - Open or existing file: the whole buffer is replaced by one WorkspaceEdit, then saved. If the
 *   buffer held unsaved user edits, they are replaced too (the agent asked for this content),
 *   but that is one undo step: Undo in the editor brings the user's text back (as a dirty
 *   buffer). A save participant that edits (format on save) adds its own undo step after it.
 * - Missing file: created first (missing folders too) by a WorkspaceEdit `createFile`, then
 *   filled the same way. ACP §14.12: writing must create missing files.
 * - Line endings follow the document: VS Code normalizes the inserted text to the buffer's EOL,
 *   so `\n` content written into a CRLF file is saved with CRLF (and vice versa). A new file gets
 *   the `files.eol` default.
 * - `target` is the request's path confined and resolved once, by the policy gate
 *   (runtime/resolvedPath.ts): the file the policy judged is the file written, and a path that
 *   could not be resolved never gets here. `beforeWrite` sees the file as it was (the edit
 *   review's baseline).
 *   A failed create, edit or save is -32603 with the reason.
 * - `signal`: the agent cancelled the request (`$/cancel_request`). It is looked at before each
 *   change (the create, the edit): what was not applied by then is not applied.
 */
export async function writeTextFile(
  request: WriteTextFileRequest,
  target: ResolvedPath,
  { log, beforeWrite, signal }: { log?: WriteLog; beforeWrite?: (uri: vscode.Uri) => Promise<void>; signal?: AbortSignal } = {},
): Promise<void> {
  const uri = vscode.Uri.file(target.real);
  await beforeWrite?.(uri);
  const fail = (why: string) => {
    log?.error(`fs/write_text_file ${uri.fsPath} failed: ${why}`);
    return RpcError.internal(`Could not write ${request.path}: ${why}`);
  };

  let document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!document) {
    if (!(await exists(uri))) {
      throwIfCancelled(signal, 'fs/write_text_file');
      const create = new vscode.WorkspaceEdit();
      create.createFile(uri, { ignoreIfExists: true });
      if (!(await vscode.workspace.applyEdit(create))) throw fail('VS Code did not create the file');
    }
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      throw fail((error as Error).message);
    }
  }

  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  if (document.getText() !== request.content.replace(/\r\n|\r|\n/g, eol)) {
    if (document.isDirty) log?.warn(`fs/write_text_file replaces unsaved changes in ${uri.fsPath}; Undo in its editor brings them back.`);
    throwIfCancelled(signal, 'fs/write_text_file');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end), request.content);
    if (!(await vscode.workspace.applyEdit(edit))) throw fail('VS Code did not apply the edit (is the file read-only?)');
  }
  if (document.isDirty && !(await document.save())) throw fail('saving failed (the edit stays in the unsaved buffer)');
  log?.info(`fs/write_text_file wrote ${uri.fsPath} (${request.content.length} characters)`);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}
