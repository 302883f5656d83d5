import * as path from 'node:path';
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { ErrorCodes } from '../protocol/errors';

/** An error the connection sends back with its JSON-RPC code. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Confines an agent's path to the workspace: absolute, no NUL, and after following symlinks
 * (of the path, or of its nearest existing parent for a file yet to be created) inside a
 * workspace folder. Anything else is refused with -32602 before any I/O on it.
 */
export async function resolveWorkspacePath(requested: string): Promise<vscode.Uri> {
  const refuse = (why: string) => new RpcError(ErrorCodes.InvalidParams, `Refused path ${JSON.stringify(requested)}: ${why}`);
  if (requested.includes('\0')) throw refuse('it contains a NUL byte');
  if (!path.isAbsolute(requested) || requested.startsWith('\\\\')) throw refuse('it is not an absolute local path');
  const real = await realpathOfExistingPart(path.normalize(requested));
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = await realpath(folder.uri.fsPath).catch(() => folder.uri.fsPath);
    const rel = path.relative(root, real);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return vscode.Uri.file(real);
  }
  throw refuse('it is outside the workspace folders');
}

async function realpathOfExistingPart(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(await realpathOfExistingPart(parent), path.basename(p));
  }
}
