import * as vscode from 'vscode';
import type { ConnectionLog } from '../../agent/connection';
import type { ReadTextFileRequest } from '../../protocol';
import type { ReadSource } from '../../runtime/auditedPorts';
import { RpcError } from '../../protocol/errors';
import { resolveWorkspacePath } from './workspacePaths';
import { sliceLines } from '../../workspace/lines';

/**
 * `fs/read_text_file`: from the open TextDocument when there is one (so the agent sees unsaved
 * edits), else from disk through workspace.fs. `line` is 1-based (0 or null: from the start),
 * `limit` counts lines (workspace/lines.ts). `onSource` hears which, before the read (the audit
 * log records reads of files not open in an editor).
 */
export async function readTextFile(request: ReadTextFileRequest, log?: Pick<ConnectionLog, 'warn'>, onSource?: (source: ReadSource) => void): Promise<string> {
  const uri = await resolveWorkspacePath(request.path, log);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  onSource?.(open ? 'buffer' : 'disk');
  const text = open ? open.getText() : await readFromDisk(uri, request.path);
  return sliceLines(text, request.line, request.limit);
}

async function readFromDisk(uri: vscode.Uri, requested: string): Promise<string> {
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
      throw RpcError.notFound(`File not found: ${requested}`);
    }
    throw error;
  }
}
