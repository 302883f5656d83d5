import * as path from 'node:path';
import vscode = require('vscode');
import { MAX_EMBED_BYTES } from '../../session/attachments';
import type { CommentSide, ReviewComment } from '../../session/commentAttachment';
import { lastHeldLine, toOneBasedLine } from '../../workspace/lines';
import { diffSideOf } from '../editor/diffDocuments';
import { resolveWorkspacePath, workspaceRoots } from '../editor/workspacePaths';

/** The workspace file a commented document stands for, and whose lines it shows. */
export interface CommentTarget {
  file: vscode.Uri;
  side: CommentSide;
}

/**
 * What a document can be commented as: a workspace file itself (the right side of a review
 * diff), or a side of a tool call's diff (diffDocuments.ts), whose file the agent named and is
 * confined here to the workspace's folders. Anything else, or a path outside the workspace, is
 * refused with the reason.
 */
export async function commentTarget(uri: vscode.Uri): Promise<CommentTarget | string> {
  const diff = diffSideOf(uri);
  const requested = uri.scheme === 'file' ? uri.fsPath : diff?.path;
  if (requested === undefined) return 'Only workspace files, in a review diff or a tool call’s diff, can be commented for the agent.';
  const roots = workspaceRoots();
  try {
    // Checked by its real path (a symlink out of the workspace is refused like any outside path),
    // but named as the workspace names it: a workspace folder reached through a symlink would
    // otherwise have no relative path, and the agent knows the files by its cwd.
    await resolveWorkspacePath(requested, roots);
    return { file: vscode.Uri.file(path.normalize(requested)), side: diff?.side ?? 'current' };
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The comment as an attachment: the file and lines (1-based; a range ending at the start of a
 * line does not hold that line, as with a selection) and the lines' text, '' when over the embed
 * limit (the agent is then pointed at the file).
 */
export function commentAttachment(
  document: vscode.TextDocument,
  range: vscode.Range,
  target: CommentTarget,
  comment: string,
  threadId: string,
): Omit<ReviewComment, 'id'> {
  const lastLine = Math.min(document.lineCount - 1, lastHeldLine(range.start, range.end));
  const firstLine = Math.min(range.start.line, lastLine);
  const text = document.getText(new vscode.Range(firstLine, 0, lastLine, document.lineAt(lastLine).range.end.character));
  return {
    kind: 'comment',
    uri: target.file.toString(),
    name: path.posix.basename(target.file.path),
    path: vscode.workspace.asRelativePath(target.file),
    startLine: toOneBasedLine(firstLine),
    endLine: toOneBasedLine(lastLine),
    comment,
    text: Buffer.byteLength(text) > MAX_EMBED_BYTES ? '' : text,
    side: target.side,
    threadId,
  };
}
