import * as path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { currentEnv, resolveLoginShellEnv } from '../agent/environment';
import type { Env } from '../agent/environment';
import type { LaunchSpec } from '../agent/process';
import type { AgentDefinition, ControllerSettings } from './agentController';

export const DEMO_AGENT_NAME = 'Demo agent';

const AgentSettingSchema = z.object({
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
type AgentSetting = z.infer<typeof AgentSettingSchema>;

const section = () => vscode.workspace.getConfiguration('acpHost');

/**
 * The login shell is asked once per extension lifetime; it costs a shell start. Configured
 * agents and the commands they run in client terminals start from it.
 */
let shellEnv: Promise<Env> | undefined;
export function baseEnv(): Promise<Env> {
  if (section().get<string>('environment') === 'inherit') return Promise.resolve(currentEnv());
  shellEnv ??= resolveLoginShellEnv();
  return shellEnv;
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('Open a folder first: agents work in a workspace folder.');
  return folder.uri.fsPath;
}

/** The built-in demo agent runs on the extension host's own Node (Electron acts as Node with ELECTRON_RUN_AS_NODE). */
function demoAgent(extensionPath: string): AgentDefinition {
  return {
    name: DEMO_AGENT_NAME,
    launch: async () => ({
      command: process.execPath,
      args: [path.join(extensionPath, 'dist', 'demo-agent.js')],
      cwd: workspaceFolder(),
      env: { ...currentEnv(), ELECTRON_RUN_AS_NODE: '1' },
    }),
  };
}

function configuredAgent(setting: AgentSetting): AgentDefinition {
  return {
    name: setting.name,
    launch: async (): Promise<LaunchSpec> => ({
      command: setting.command,
      args: setting.args,
      cwd: setting.cwd ?? workspaceFolder(),
      env: { ...(await baseEnv()), ...setting.env },
    }),
  };
}

/** The agents from settings (invalid entries are reported, not fatal), plus the demo agent. */
export function listAgents(extensionPath: string, report: (message: string) => void): AgentDefinition[] {
  const agents = [demoAgent(extensionPath)];
  for (const raw of section().get<unknown[]>('agents') ?? []) {
    const parsed = AgentSettingSchema.safeParse(raw);
    if (parsed.success) agents.push(configuredAgent(parsed.data));
    else report(`Ignored an invalid entry in acpHost.agents: ${parsed.error.issues[0]?.message ?? 'invalid'} (${JSON.stringify(raw)})`);
  }
  return agents;
}

export function defaultAgentName(): string {
  return section().get<string>('defaultAgent') || DEMO_AGENT_NAME;
}

export function controllerSettings(clientVersion: string): ControllerSettings {
  return {
    initializeTimeoutMs: Math.max(1, section().get<number>('initializeTimeoutSeconds') ?? 60) * 1000,
    maxLineBytes: Math.max(1, section().get<number>('maxMessageMegabytes') ?? 32) * 1024 * 1024,
    workspaceFolder: workspaceFolder(),
    clientVersion,
  };
}
