// The settings that decide what runs on the user's machine, told apart by who wrote them: the
// user's own values are used as they are; each value a workspace sets is a proposal, honoured
// only once the user allowed it (workspaceConsent.ts). Pure (no vscode): unit-tested in plain Node.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { McpServerSetting } from '../../runtime/mcpServers';
import type { AgentSetting } from './agentSettings';
import { parseSetting } from './settingValues';
import type { SettingValues } from './settingValues';

/**
 * The settings that name a command or decide the environment it gets (package.json also lists
 * them in `untrustedWorkspaces.restrictedConfigurations`). They keep VS Code's default `window`
 * scope, and a workspace's value waits for the user's consent. `"scope": "machine"` (the
 * convention for executables, like git.path) was the alternative, and VS Code would then drop
 * workspace values by itself; but a project could no longer offer its own agent or MCP server
 * at all, and Settings Sync skips machine-scoped settings, so the user's own agents would not
 * follow them to their other machines.
 */
export const GATED_SETTINGS = ['agents', 'mcpServers', 'environment'] as const;
export type GatedSetting = (typeof GATED_SETTINGS)[number];

/** The parts of VS Code's `WorkspaceConfiguration.inspect()` that say who set a value. */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** A setting's value by who set it; undefined where nobody did. */
export interface Origins {
  /** The user's settings (a remote's user settings included). */
  user: unknown;
  /** The workspace's: `.vscode/settings.json` or the `.code-workspace` file, a folder's value over it. */
  workspace: unknown;
}

export function splitOrigins(inspected: Inspected | undefined): Origins {
  return { user: inspected?.globalValue, workspace: inspected?.workspaceFolderValue ?? inspected?.workspaceValue };
}

export type Environment = SettingValues['environment'];

/** One value a workspace sets, and the key of the user's decision about it. */
export type Proposal =
  | { setting: 'agents'; name: string; value: AgentSetting; key: string }
  | { setting: 'mcpServers'; name: string; value: McpServerSetting; key: string }
  | { setting: 'environment'; name: 'environment'; value: Environment; key: string };

export type AgentProposal = Extract<Proposal, { setting: 'agents' }>;
export type McpServerProposal = Extract<Proposal, { setting: 'mcpServers' }>;
export type EnvironmentProposal = Extract<Proposal, { setting: 'environment' }>;

/** JSON with the keys of every object sorted: the same value gives the same text, however it was written. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * What a decision is remembered under (within its workspace): a hash of the setting and the
 * exact value, so a changed command line, argument, env or URL is asked about again.
 */
export function consentKey(setting: GatedSetting, value: unknown): string {
  return createHash('sha256').update(canonicalJson([setting, value])).digest('hex');
}

/** The workspace's entries that are not exactly the user's own entry of that name: each is a proposal. */
function namedProposals<T extends { name: string }>(user: readonly T[], workspace: readonly T[]): T[] {
  return workspace.filter((entry) => !user.some((own) => own.name === entry.name && isDeepStrictEqual(own, entry)));
}

export function agentProposals(user: readonly AgentSetting[], workspace: readonly AgentSetting[]): AgentProposal[] {
  return namedProposals(user, workspace).map((value) => ({ setting: 'agents', name: value.name, value, key: consentKey('agents', value) }));
}

export function mcpServerProposals(user: readonly McpServerSetting[], workspace: readonly McpServerSetting[]): McpServerProposal[] {
  return namedProposals(user, workspace).map((value) => ({ setting: 'mcpServers', name: value.name, value, key: consentKey('mcpServers', value) }));
}

/** The workspace's acpHost.environment, when it sets a valid one other than what the user has. */
export function environmentProposal(origins: Origins): EnvironmentProposal | undefined {
  if (origins.workspace === undefined) return undefined;
  const value = parseSetting('environment', origins.workspace);
  if (value !== origins.workspace || value === parseSetting('environment', origins.user)) return undefined;
  return { setting: 'environment', name: 'environment', value, key: consentKey('environment', value) };
}

/**
 * The user's entries, with each allowed workspace entry in place of the user's entry of the same
 * name, or after them; each says where it came from.
 */
export function mergeByName<T extends { name: string }>(user: readonly T[], allowed: readonly T[]): { entry: T; fromWorkspace: boolean }[] {
  const merged = user.map((entry) => ({ entry, fromWorkspace: false }));
  for (const entry of allowed) {
    const at = merged.findIndex((m) => m.entry.name === entry.name);
    if (at === -1) merged.push({ entry, fromWorkspace: true });
    else merged[at] = { entry, fromWorkspace: true };
  }
  return merged;
}
