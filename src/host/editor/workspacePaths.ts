import vscode = require('vscode');
import type { ConnectionLog } from '../../agent/connection';
import { ResolvedPath } from '../../runtime/resolvedPath';

/** The workspace's local folders: the roots of what the user picks (attachments). */
export function workspaceRoots(): string[] {
  // Only local folders have a real path to compare.
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/**
 * Confines an agent's path to `roots` (a session's) as runtime/resolvedPath.ts does, for what
 * the host opens on its own (links, follow, terminals' cwd, attachments): the real path's URI,
 * or -32602. The agent's reads and writes take the ResolvedPath itself, resolved once by the
 * policy gate.
 */
export async function resolveWorkspacePath(requested: string, roots: readonly string[], log?: Pick<ConnectionLog, 'warn'>): Promise<vscode.Uri> {
  return vscode.Uri.file((await ResolvedPath.resolve(requested, roots, log)).real);
}
