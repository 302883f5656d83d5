// Who a stored secret belongs to: an agent's name and its launch identity, so that a value
// entered for one command is never handed to another that took the same name (a workspace's
// settings may redefine "Claude Code"). No `vscode`.

/** Where an agent's definition comes from. */
export type AgentOrigin =
  /** The demo agent and the presets. */
  | { kind: 'builtin' }
  /** The user's own settings. */
  | { kind: 'user' }
  /** A workspace's settings (honoured only after the user's consent), by workspace. */
  | { kind: 'workspace'; workspace: string }
  /** Installed by the user from the ACP Registry, by its id (the same across its updates, as a preset's across versions). */
  | { kind: 'registry'; id: string };

/**
 * What a definition launches, as a string. A built-in agent is "builtin" whatever it runs, so
 * its secrets survive a preset's new package or version; a configured one is its exact command
 * and args; one from a workspace's settings also names that workspace: the same command line
 * set by the user and by a workspace are two identities, because the workspace also sets env
 * and cwd (PATH, NODE_OPTIONS…), which can make the same command line run something else.
 */
export function launchIdentity(origin: AgentOrigin, command: string, args: readonly string[]): string {
  switch (origin.kind) {
    case 'builtin':
      return 'builtin';
    case 'user':
      return JSON.stringify(['command', command, ...args]);
    case 'workspace':
      return JSON.stringify(['workspace', origin.workspace, command, ...args]);
    case 'registry':
      return JSON.stringify(['registry', origin.id]);
  }
}

/** The agent stored secrets are for: both its name and its launch identity must match. */
export interface SecretOwner {
  name: string;
  identity: string;
}
