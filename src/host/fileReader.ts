import * as vscode from 'vscode';
import type { ReadTextFileRequest } from '../protocol';
import { ErrorCodes } from '../protocol/errors';
import { RpcError, resolveWorkspacePath } from './workspacePaths';

/**
 * `fs/read_text_file`: from the open TextDocument when there is one (so the agent sees unsaved
 * edits), else from disk through workspace.fs. `line` is 1-based (0 or null: from the start),
 * `limit` counts lines; the only conversion to VS Code's 0-based lines is here.
 */
export async function readTextFile(request: ReadTextFileRequest): Promise<string> {
  const uri = await resolveWorkspacePath(request.path);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const text = open ? open.getText() : await readFromDisk(uri, request.path);
  return sliceLines(text, request.line ?? 0, request.limit ?? undefined);
}

async function readFromDisk(uri: vscode.Uri, requested: string): Promise<string> {
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
      throw new RpcError(ErrorCodes.ResourceNotFound, `File not found: ${requested}`);
    }
    throw error;
  }
}

/** Lines `line`…`line+limit-1` (1-based), found by scanning for newlines instead of splitting the whole file. */
export function sliceLines(text: string, line: number, limit: number | undefined): string {
  let start = 0;
  for (let n = 1; n < line && start !== -1; n++) start = nextLine(text, start);
  if (start === -1) return '';
  if (limit === undefined) return text.slice(start);
  let end = start;
  for (let n = 0; n < limit && end !== -1; n++) end = nextLine(text, end);
  return end === -1 ? text.slice(start) : text.slice(start, end);
}

function nextLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? -1 : nl + 1;
}
