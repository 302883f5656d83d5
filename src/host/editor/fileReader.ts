import vscode = require('vscode');
import type { ConnectionLog } from '../../agent/connection';
import type { ReadTextFileRequest } from '../../protocol';
import type { ReadSource } from '../../runtime/auditedPorts';
import { RpcError } from '../../protocol/errors';
import type { ResolvedPath } from '../../runtime/resolvedPath';
import { sliceLines } from '../../workspace/lines';
import { describeReadProblem, readRegularFile } from '../../workspace/regularFile';
import { setting } from '../config/settings';

/**
 * `fs/read_text_file` of `target` (the request's path, confined and resolved once by the policy
 * gate: the file the policy judged is the file read): from the open TextDocument when
 * there is one (so the agent sees unsaved edits), else from disk (a regular file within the size
 * limit). `line` is 1-based (0 or null: from the start), `limit` counts lines (workspace/lines.ts).
 * `onSource` hears which, before the read (the audit log records reads of files not open in an editor).
 */
export async function readTextFile(request: ReadTextFileRequest, target: ResolvedPath, log?: Pick<ConnectionLog, 'warn'>, onSource?: (source: ReadSource) => void): Promise<string> {
  const uri = vscode.Uri.file(target.real);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  onSource?.(open ? 'buffer' : 'disk');
  const text = open ? open.getText() : await readFromDisk(uri, request.path, log);
  return sliceLines(text, request.line, request.limit);
}

/**
 * Only a regular file within acpHost.readTextFileLimitMegabytes (workspace/regularFile.ts): a
 * FIFO or a device would block or never end, a huge file would be held whole to be cut to lines.
 */
async function readFromDisk(uri: vscode.Uri, requested: string, log?: Pick<ConnectionLog, 'warn'>): Promise<string> {
  const read = await readRegularFile(uri.fsPath, setting('readTextFileLimitMegabytes') * 1024 * 1024);
  if (read.ok) return new TextDecoder('utf-8').decode(read.bytes);
  if (read.problem.kind === 'missing') throw RpcError.notFound(`File not found: ${requested}`);
  const message = `${describeReadProblem(JSON.stringify(requested), read.problem)}${read.problem.kind === 'tooLarge' ? ' (acpHost.readTextFileLimitMegabytes)' : ''}`;
  log?.warn(message);
  throw RpcError.invalidParams(message);
}
