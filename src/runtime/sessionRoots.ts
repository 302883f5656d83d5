import * as path from 'node:path';
import type { AgentCapabilities } from '../protocol';

/**
 * The folders a session works in (ACP §3): `cwd`, the base of relative paths, and the other
 * folders of a multi-root workspace, which go to the agent as `additionalDirectories` when it
 * advertises them. A session keeps its roots (the store saves them with it), so a reload or a
 * session/load sends the same list again.
 */
export interface SessionRoots {
  readonly cwd: string;
  /** Absolute, each once, never `cwd`. */
  readonly additionalDirectories: readonly string[];
}

/** `cwd` and the other folders, as ACP wants them: absolute, each once, the cwd not among the others. */
export function sessionRoots(cwd: string, folders: readonly string[]): SessionRoots {
  const seen = new Set([path.resolve(cwd)]);
  const additionalDirectories: string[] = [];
  for (const folder of folders) {
    if (!path.isAbsolute(folder)) continue; // ACP: every entry absolute; a relative one names nothing certain
    const resolved = path.resolve(folder);
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    additionalDirectories.push(resolved);
  }
  return { cwd, additionalDirectories };
}

/**
 * The roots a saved session opens with now. The workspace's folders may have changed since it was
 * saved: the session gets the folders open now, so an agent never keeps a folder the user has
 * since taken out of the workspace (nor misses one added). Its cwd stays the saved one while that
 * folder is still open (agents keep their sessions by cwd, and the user may only have reordered
 * the folders); else it is the workspace's first folder, as for a new session.
 */
export function reopenedRoots(saved: SessionRoots | undefined, current: SessionRoots): SessionRoots {
  if (!saved) return current;
  const open = [current.cwd, ...current.additionalDirectories];
  const cwd = open.some((folder) => path.resolve(folder) === path.resolve(saved.cwd)) ? saved.cwd : current.cwd;
  return sessionRoots(cwd, open);
}

export function sameRoots(a: SessionRoots, b: SessionRoots): boolean {
  return a.cwd === b.cwd && a.additionalDirectories.join('\0') === b.additionalDirectories.join('\0');
}

/**
 * What session/new, load, resume and fork say of the roots: `additionalDirectories` only when the
 * agent advertises them (ACP §14.2), and then the full list every time (on load and resume,
 * omitting it would not restore the stored roots).
 */
export function rootParams(roots: SessionRoots, capabilities: AgentCapabilities | undefined): { cwd: string; additionalDirectories?: string[] } {
  const advertised = Boolean(capabilities?.sessionCapabilities?.additionalDirectories);
  return advertised && roots.additionalDirectories.length > 0 ? { cwd: roots.cwd, additionalDirectories: [...roots.additionalDirectories] } : { cwd: roots.cwd };
}

/**
 * The folders the session's file reads and writes, terminals, followed locations and policy
 * accept: exactly the roots the agent was told (`rootParams`). An agent that does not take
 * `additionalDirectories` stays confined to its cwd.
 */
export function confinementRoots(roots: SessionRoots, capabilities: AgentCapabilities | undefined): string[] {
  const { cwd, additionalDirectories = [] } = rootParams(roots, capabilities);
  return [cwd, ...additionalDirectories];
}
