import * as path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { currentEnv, resolveLoginShellEnv } from '../../agent/environment';
import type { Env } from '../../agent/environment';
import type { LaunchSpec } from '../../agent/process';
import type { AgentDefinition, ControllerSettings } from '../../runtime/ports';
import type { McpServer } from '../../protocol';
import { buildMcpServers, parseMcpServerSettings } from '../../runtime/mcpServers';
import { npxDirectory } from '../../runtime/npxDirectory';
import { agentPresets, commandLine, notFoundHint } from '../../runtime/presets';
import type { AgentPreset } from '../../runtime/presets';
import { setting } from './settings';
import { DEMO_AGENT_NAME } from './settingValues';

const AgentSettingSchema = z.object({
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
type AgentSetting = z.infer<typeof AgentSettingSchema>;

/**
 * The login shell is asked once per extension lifetime; it costs a shell start. Configured
 * agents and the commands they run in client terminals start from it.
 */
let shellEnv: Promise<Env> | undefined;
export function baseEnv(): Promise<Env> {
  if (setting('environment') === 'inherit') return Promise.resolve(currentEnv());
  shellEnv ??= resolveLoginShellEnv();
  return shellEnv;
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('Open a folder first: agents work in a workspace folder.');
  return folder.uri.fsPath;
}

/** An agent the user can pick, with its command line for the picker. */
export interface AgentChoice extends AgentDefinition {
  commandLine: string;
}

/** The built-in demo agent runs on the extension host's own Node (Electron acts as Node with ELECTRON_RUN_AS_NODE). */
function demoAgent(extensionPath: string): AgentChoice {
  return {
    name: DEMO_AGENT_NAME,
    commandLine: 'built-in demo (no model, no network)',
    launch: async () => ({
      command: process.execPath,
      args: [path.join(extensionPath, 'dist', 'demo-agent.js')],
      cwd: workspaceFolder(),
      env: { ...currentEnv(), ELECTRON_RUN_AS_NODE: '1' },
    }),
  };
}

function configuredAgent(entry: AgentSetting): AgentChoice {
  return {
    name: entry.name,
    commandLine: commandLine(entry.command, entry.args),
    notFoundHint: notFoundHint(undefined),
    configuredEnv: entry.env,
    launch: async (): Promise<LaunchSpec> => {
      // Sessions are opened in the workspace folder, whatever the process's own cwd.
      const folder = workspaceFolder();
      return { command: entry.command, args: entry.args, cwd: entry.cwd ?? folder, env: { ...(await baseEnv()), ...entry.env } };
    },
  };
}

/** An npx preset starts outside the workspace (npxDirectory.ts); its sessions are opened in the workspace all the same. */
function presetAgent(preset: AgentPreset, storageRoot: string): AgentChoice {
  const agent = configuredAgent({ name: preset.name, command: preset.command, args: preset.args, env: {} });
  return {
    ...agent,
    fallbackArgs: preset.fallbackArgs,
    notFoundHint: notFoundHint(preset.install),
    launch: async () => {
      const spec = await agent.launch();
      return preset.outsideWorkspace ? { ...spec, cwd: npxDirectory(storageRoot) } : spec;
    },
  };
}

/** What listing the agents needs of the extension: where the demo agent is, where npx runs. */
export type AgentPaths = Pick<vscode.ExtensionContext, 'extensionPath' | 'globalStorageUri'>;

/**
 * The demo agent, the presets, then the agents from settings (invalid entries are reported, not
 * fatal). A setting with a preset's name, or with a name it had before, replaces that preset in
 * place (under the setting's name: what the user saved under it stays theirs).
 */
export function listAgents(paths: AgentPaths, report: (message: string) => void): AgentChoice[] {
  const presets = agentPresets();
  const agents = [demoAgent(paths.extensionPath), ...presets.map((p) => presetAgent(p, paths.globalStorageUri.fsPath))];
  const presetNames = new Map(presets.flatMap((p) => [p.name, ...p.formerNames].map((name) => [name, p.name])));
  const fromSettings = new Set<string>();
  for (const raw of setting('agents')) {
    const parsed = AgentSettingSchema.safeParse(raw);
    if (!parsed.success) {
      report(`Ignored an invalid entry in acpHost.agents: ${parsed.error.issues[0]?.message ?? 'invalid'} (name: ${JSON.stringify((raw as { name?: unknown } | null)?.name ?? null)})`);
      continue;
    }
    const agent = configuredAgent(parsed.data);
    if (agent.name === DEMO_AGENT_NAME || fromSettings.has(agent.name)) {
      report(`Ignored a second agent named "${agent.name}" in acpHost.agents.`);
      continue;
    }
    fromSettings.add(agent.name);
    const replaced = agents.findIndex((a) => a.name === presetNames.get(agent.name));
    if (replaced !== -1) agents[replaced] = agent;
    else agents.push(agent);
  }
  return agents;
}

/** acpHost.mcpServers as sent in session/new (invalid entries are reported by name, never with their values). */
export async function mcpServers(report: (message: string) => void): Promise<McpServer[]> {
  const settings = parseMcpServerSettings(setting('mcpServers'), report);
  if (settings.length === 0) return [];
  return buildMcpServers(settings, await baseEnv(), report);
}

export function controllerSettings(clientVersion: string): ControllerSettings {
  return {
    initializeTimeoutMs: setting('initializeTimeoutSeconds') * 1000,
    maxLineBytes: setting('maxMessageMegabytes') * 1024 * 1024,
    // Without a folder the panel still opens; starting an agent then says to open one (launch).
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '',
    clientVersion,
  };
}
