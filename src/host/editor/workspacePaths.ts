import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import vscode = require('vscode');
import type { ConnectionLog } from '../../agent/connection';
import { RpcError } from '../../protocol/errors';
import { checkAgentPath, isInside } from '../../workspace/pathPolicy';
import { PathRefusal, realpathOfExistingPart } from '../../workspace/realPaths';

/** The workspace's local folders: the roots of what the user picks (attachments). */
export function workspaceRoots(): string[] {
  // Only local folders have a real path to compare.
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/**
 * Confines an agent's path to `roots` (a session's: its cwd, and the other folders of the
 * workspace when the agent takes them). The form is checked first (pathPolicy.ts: absolute, no
 * NUL, no `~`, UNC, URI, device or overlong path), then symlinks are followed (of the path, or of
 * its nearest existing parent for a file yet to be created) and the real path must lie inside one
 * of the roots (each also followed to its real path): a symlink in one root that points outside
 * every root is refused. Anything else is refused with -32602 and logged, before any I/O on the
 * path itself. The returned URI is the real path, so the I/O that follows goes where the check
 * looked, not through a symlink.
 *
 * What this cannot do: an agent process has the user's own file system rights, so this guards
 * what the client does on its behalf, not what the agent does itself. A symlink swapped in
 * between this check and the write (a race the agent would have to win) is not prevented.
 */
export async function resolveWorkspacePath(requested: string, roots: readonly string[], log?: Pick<ConnectionLog, 'warn'>): Promise<vscode.Uri> {
  const refuse = (why: string) => {
    const shown = JSON.stringify(requested.length > 300 ? `${requested.slice(0, 300)}…` : requested);
    log?.warn(`Refused path ${shown}: ${why}`);
    return RpcError.invalidParams(`Refused path ${shown}: ${why}`);
  };
  const form = checkAgentPath(requested);
  if (!form.ok) throw refuse(form.reason);
  let real: string;
  try {
    real = await realpathOfExistingPart(form.path);
  } catch (error) {
    if (error instanceof PathRefusal) throw refuse(error.message);
    throw error;
  }
  for (const folder of roots) {
    // No folder open gives an empty cwd: relative to nothing certain, it holds nothing.
    if (!isAbsolute(folder)) continue;
    const root = await realpath(folder).catch(() => folder);
    if (isInside(root, real)) return vscode.Uri.file(real);
  }
  throw refuse('it is outside the workspace folders of this session');
}
