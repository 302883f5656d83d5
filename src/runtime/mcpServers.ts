// The `acpHost.mcpServers` setting: validated entries, turned into the exact ACP shapes sent in
// `session/new`, and filtered by what the agent said it can connect to. No `vscode` import.
// Env and header values may be secrets: nothing here puts them in a message.
import * as z from 'zod/mini';
import type { Env } from '../agent/environment';
import { resolveExecutable } from '../agent/executables';
import type { McpCapabilities, McpServer } from '../protocol';
import type { AgentOrigin } from './agentIdentity';

const name = z.string().check(z.trim(), z.minLength(1));
const pairs = z._default(z.record(z.string(), z.string()), {});
/** Which agents get the server (`receives`): "*" for every agent, or agents by name. */
const agents = z.optional(z.union([z.literal('*'), z.array(name)]));

const StdioSetting = z.strictObject({
  name,
  type: z.optional(z.literal('stdio')),
  command: z.string().check(z.minLength(1)),
  args: z._default(z.array(z.string()), []),
  env: pairs,
  agents,
});
const HttpSetting = z.strictObject({ name, type: z.literal('http'), url: z.url(), headers: pairs, agents });
const SseSetting = z.strictObject({ name, type: z.literal('sse'), url: z.url(), headers: pairs, agents });

export type McpServerSetting = z.infer<typeof StdioSetting> | z.infer<typeof HttpSetting> | z.infer<typeof SseSetting>;

function schemaFor(raw: unknown) {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  return type === 'http' ? HttpSetting : type === 'sse' ? SseSetting : StdioSetting;
}

/** Never the entry itself in the report: its env or headers may hold a token. */
function describeEntry(raw: unknown, index: number): string {
  const entryName = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof entryName === 'string' && entryName ? `"${entryName}"` : `#${index + 1}`;
}

/** The valid entries; each invalid one is reported (by name and problem, no values) and skipped. */
export function parseMcpServerSettings(raw: unknown, report: (message: string) => void): McpServerSetting[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    report('Ignored acpHost.mcpServers: it must be an array.');
    return [];
  }
  const servers: McpServerSetting[] = [];
  const names = new Set<string>();
  raw.forEach((entry, index) => {
    const parsed = schemaFor(entry).safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      report(`Ignored MCP server ${describeEntry(entry, index)} in acpHost.mcpServers: ${issue?.message ?? 'invalid'}${where}.`);
      return;
    }
    if (names.has(parsed.data.name)) {
      report(`Ignored a second MCP server named "${parsed.data.name}" in acpHost.mcpServers.`);
      return;
    }
    names.add(parsed.data.name);
    servers.push(parsed.data);
  });
  return servers;
}

const toPairs = (record: Record<string, string>) => Object.entries(record).map(([key, value]) => ({ name: key, value }));

/**
 * The schema's stdio `command` is an absolute path: a bare name is looked up on the agent's PATH
 * (as the agent would), skipping relative entries and the workspace's folders (`excluded`: an
 * executable a cloned repository ships never stands in for the one installed, agent/executables.ts).
 * `undefined` when it is not there.
 */
export function resolveCommand(command: string, env: Env, platform: NodeJS.Platform = process.platform, excluded: readonly string[] = []): string | undefined {
  // No cwd: a relative path is relative to what? Not the agent's cwd.
  return resolveExecutable(command, { env, excluded, platform });
}

/** One setting as the schema's McpServer: every required field present, env and headers as name/value arrays; a stdio command as `resolve` finds it. */
export function toMcpServer(setting: McpServerSetting, resolve: (command: string) => string = (c) => c): McpServer {
  if (setting.type === 'http' || setting.type === 'sse') {
    return { type: setting.type, name: setting.name, url: setting.url, headers: toPairs(setting.headers) };
  }
  return { name: setting.name, command: resolve(setting.command), args: setting.args, env: toPairs(setting.env) };
}

/**
 * The settings as sent, each stdio command as an absolute path. One that is not found on PATH
 * (outside the workspace) is left out, with a warning: passed as written, the agent would look
 * for it itself, and on Windows its cwd (the workspace) comes first.
 */
export function buildMcpServers(settings: readonly McpServerSetting[], env: Env, warn: (message: string) => void, excluded: readonly string[] = []): McpServer[] {
  return settings.flatMap((setting) => {
    if (setting.type === 'http' || setting.type === 'sse') return [toMcpServer(setting)];
    const resolved = resolveCommand(setting.command, env, process.platform, excluded);
    if (resolved) return [toMcpServer(setting, () => resolved)];
    warn(`MCP server "${setting.name}" is not given to the agent: "${setting.command}" was not found on PATH outside the workspace folders (give an absolute path).`);
    return [];
  });
}

/**
 * What this agent can take: stdio always; http and sse only when `mcpCapabilities` says so. Each
 * skipped server is reported (never silently dropped).
 */
export function selectMcpServers(servers: readonly McpServer[], capabilities: McpCapabilities | null | undefined, warn: (message: string) => void): McpServer[] {
  return servers.filter((server) => {
    if (!('type' in server) || !server.type) return true;
    const supported = server.type === 'http' ? capabilities?.http === true : capabilities?.sse === true;
    if (!supported) warn(`Skipped MCP server "${server.name}": the agent does not support ${server.type} MCP servers (mcpCapabilities.${server.type}).`);
    return supported;
  });
}

/** The agent an MCP server would be given to: its name, and where its definition comes from (absent: unknown, the least trusted). */
export interface McpReceiver {
  name: string;
  origin?: AgentOrigin;
}

/**
 * Whether `agent` gets `setting` (its env and headers are often credentials): a server bound by
 * `agents` goes to the agents it names, or to every agent for "*"; an unbound one to the
 * built-in agents and the user's own, never to one a workspace's settings define or one
 * installed from the ACP Registry (whose command the user did not write).
 */
export function receives(setting: McpServerSetting, agent: McpReceiver): boolean {
  if (setting.agents === '*') return true;
  if (setting.agents) return setting.agents.includes(agent.name);
  return agent.origin?.kind === 'builtin' || agent.origin?.kind === 'user';
}

/** The servers of `settings` that `agent` gets (`receives`). */
export function serversFor(settings: readonly McpServerSetting[], agent: McpReceiver): McpServerSetting[] {
  return settings.filter((setting) => receives(setting, agent));
}

/** Who gets `setting`, in words, for the consent prompt (`receives`). */
export function describeReceivers(setting: McpServerSetting, show: (value: string) => string): string {
  if (setting.agents === '*') return 'every agent, including those of a workspace’s settings and of the ACP Registry';
  if (setting.agents?.length === 0) return 'no agent';
  if (setting.agents) return `only ${setting.agents.map((n) => `"${show(n)}"`).join(', ')}`;
  return 'the built-in agents and those of your own settings (not those of a workspace’s settings or of the ACP Registry)';
}
