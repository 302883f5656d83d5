import * as path from 'node:path';
import vscode = require('vscode');
import { currentEnv, resolveLoginShellEnv } from '../../agent/environment';
import type { Env } from '../../agent/environment';
import type { LaunchSpec } from '../../agent/process';
import { launchIdentity } from '../../runtime/agentIdentity';
import type { AgentOrigin } from '../../runtime/agentIdentity';
import type { NewAuditEvent } from '../../audit/auditEvent';
import type { AgentRuntime } from '../../runtime/agentRuntime';
import type { AgentDefinition, ControllerSettings } from '../../runtime/ports';
import type { McpServer } from '../../protocol';
import { buildMcpServers, parseMcpServerSettings, serversFor } from '../../runtime/mcpServers';
import type { McpReceiver, McpServerSetting } from '../../runtime/mcpServers';
import { npxDirectory } from '../../runtime/npxDirectory';
import type { InstalledAgent } from '../../runtime/registry/installed';
import { agentPresets, commandLine, notFoundHint } from '../../runtime/presets';
import type { AgentPreset } from '../../runtime/presets';
import { parseAgentSettings } from './agentSettings';
import type { AgentSetting } from './agentSettings';
import { setting, settingOrigins } from './settings';
import { DEMO_AGENT_NAME, parseSetting } from './settingValues';
import { agentProposals, environmentProposal, mcpServerProposals, mergeByName } from './workspaceProposals';
import type { AgentProposal, Environment, EnvironmentProposal, McpServerProposal, Proposal } from './workspaceProposals';
import { WorkspaceConsent } from './workspaceConsent';

/**
 * The login shell is asked once per extension lifetime; it costs a shell start. Configured
 * agents and the commands they run in client terminals start from it.
 */
let shellEnv: Promise<Env> | undefined;
function loginShellEnv(): Promise<Env> {
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
  /** Shown next to it in the picker: that it comes from the workspace's settings. */
  note?: string;
  /** Where its definition comes from: a workspace's acpHost.defaultAgent never picks one the workspace defines. */
  origin: AgentOrigin;
}

const BUILTIN: AgentOrigin = { kind: 'builtin' };

/** The built-in demo agent runs on the extension host's own Node (Electron acts as Node with ELECTRON_RUN_AS_NODE). */
function demoAgent(extensionPath: string): AgentChoice {
  const args = [path.join(extensionPath, 'dist', 'demo-agent.js')];
  return {
    name: DEMO_AGENT_NAME,
    identity: launchIdentity(BUILTIN, process.execPath, args),
    origin: BUILTIN,
    commandLine: 'built-in demo (no model, no network)',
    launch: async () => ({ command: process.execPath, args, cwd: workspaceFolder(), env: { ...currentEnv(), ELECTRON_RUN_AS_NODE: '1' } }),
  };
}

/** `gate` runs before every launch (a restart's and a sign-in terminal's too) and throws when the definition may not run. */
function configuredAgent(entry: AgentSetting, origin: AgentOrigin, baseEnv: () => Promise<Env>, gate: () => void = () => undefined): AgentChoice {
  return {
    name: entry.name,
    identity: launchIdentity(origin, entry.command, entry.args),
    origin,
    commandLine: commandLine(entry.command, entry.args),
    notFoundHint: notFoundHint(undefined),
    configuredEnv: entry.env,
    launch: async (): Promise<LaunchSpec> => {
      gate();
      // Sessions are opened in the workspace folder, whatever the process's own cwd.
      const folder = workspaceFolder();
      return { command: entry.command, args: entry.args, cwd: entry.cwd ?? folder, env: { ...(await baseEnv()), ...entry.env } };
    },
  };
}

/** An npx preset starts outside the workspace (npxDirectory.ts); its sessions are opened in the workspace all the same. */
function presetAgent(preset: AgentPreset, baseEnv: () => Promise<Env>, storageRoot: string): AgentChoice {
  const agent = configuredAgent({ name: preset.name, command: preset.command, args: preset.args, env: {} }, BUILTIN, baseEnv);
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

const REGISTRY_HINTS = {
  binary: 'Install it again with ACP: Browse Agents….',
  npx: 'It runs with npx: install Node.js 22+ (https://nodejs.org).',
  uvx: 'It runs with uvx: install uv (https://docs.astral.sh/uv/).',
} as const;

/**
 * An agent the user installed from the ACP Registry (host/registry/): exactly the command line
 * recorded at install. npx and uvx start outside the workspace, as npx presets do (npxDirectory.ts:
 * a cloned folder's .npmrc or uv.toml must not decide what they fetch).
 */
function registryAgent(installed: InstalledAgent, baseEnv: () => Promise<Env>, storageRoot: string): AgentChoice {
  const agent = configuredAgent({ name: installed.name, command: installed.command, args: installed.args, env: installed.env }, { kind: 'registry', id: installed.id }, baseEnv);
  return {
    ...agent,
    note: `from the ACP Registry, ${installed.version}`,
    notFoundHint: REGISTRY_HINTS[installed.kind],
    launch: async () => {
      const spec = await agent.launch();
      return installed.kind === 'binary' ? spec : { ...spec, cwd: npxDirectory(storageRoot) };
    },
  };
}

/** Why a workspace's agent may not launch. */
const REFUSED = {
  pending: 'waits for your consent: start it from the panel or with ACP: Start Agent to be asked',
  denied: 'was not allowed (ACP: Manage Workspace Agent Consent revokes that decision)',
  untrusted: 'is not used: the workspace is not trusted',
} as const;

/** A setting that decides what runs, as read now: the user's value, and the workspace's as proposals. */
interface Read<T, P> {
  user: T;
  proposals: P[];
}

/**
 * The agents to pick from, and the MCP servers and the environment they get: from the user's
 * settings as they are, from the workspace's once the user allowed them (workspaceConsent.ts).
 */
export class AgentConfig implements vscode.Disposable {
  /** The user's consent to the workspace's values. Public: integration tests replace its prompter and picker. */
  readonly consent: WorkspaceConsent;

  /** `storageRoot`: the extension's global storage, where npx presets run (npxDirectory.ts); `installed`: the agents installed from the ACP Registry; `audit`: where consent decisions are recorded. */
  constructor(
    private readonly extensionPath: string,
    state: vscode.Memento,
    log: (message: string) => void,
    private readonly storageRoot: string,
    private readonly installed: { list(): readonly InstalledAgent[] },
    audit: (event: NewAuditEvent) => void,
  ) {
    this.consent = new WorkspaceConsent(state, log, audit);
  }

  /**
   * The demo agent, the presets, the agents installed from the ACP Registry, then the agents of
   * the user's settings (each replaces an agent of its name in place), then the workspace's: an allowed one as defined (in place of
   * the one of its name); one not decided yet only under a new name, and it asks before it
   * launches. Invalid entries are reported, not fatal.
   */
  agents(report: (message: string) => void): AgentChoice[] {
    const read = this.readAgents(report);
    const presets = agentPresets();
    const agents = [demoAgent(this.extensionPath), ...presets.map((p) => presetAgent(p, this.baseEnv, this.storageRoot))];
    // A name a preset had before is the preset's place (settings written for an older release);
    // the entry keeps its own name there: what the user saved under it stays theirs.
    const formerly = new Map(presets.flatMap((p) => p.formerNames.map((former) => [former, p.name])));
    const placeOf = (name: string) => {
      const at = agents.findIndex((a) => a.name === name);
      return at !== -1 ? at : agents.findIndex((a) => a.name === formerly.get(name));
    };
    const place = (agent: AgentChoice) => {
      const at = placeOf(agent.name);
      if (at === -1) agents.push(agent);
      else agents[at] = agent;
    };
    // Not in place of the demo agent: the default agent and its tests stay what they are.
    for (const installed of this.installed.list().filter((a) => a.name !== DEMO_AGENT_NAME)) place(registryAgent(installed, this.baseEnv, this.storageRoot));
    for (const entry of read.user) place(configuredAgent(entry, { kind: 'user' }, this.baseEnv));
    for (const proposal of read.proposals) {
      const status = this.consent.status(proposal);
      const existing = agents[placeOf(proposal.name)];
      if (status !== 'allowed') this.consent.note(proposal, existing ? `Meanwhile ${proposal.name} runs ${existing.commandLine}.` : '');
      if (status === 'allowed') place(this.workspaceAgent(proposal, 'from this workspace’s settings'));
      else if (status === 'pending' && !existing) place(this.workspaceAgent(proposal, 'from this workspace’s settings: asks before it runs'));
    }
    return agents;
  }

  /**
   * acpHost.mcpServers as sent in session/new to `agent`: the user's, and those of the workspace's
   * the user allowed, that `agent` gets (mcpServers.ts `receives`). Invalid entries are reported
   * by name, never with their values.
   */
  async mcpServers(agent: McpReceiver, report: (message: string) => void): Promise<McpServer[]> {
    const read = this.readMcpServers(report);
    const allowed = read.proposals.filter((proposal) => {
      const ok = this.consent.status(proposal) === 'allowed';
      if (!ok) this.consent.note(proposal, 'It is not given to agents.');
      return ok;
    });
    const settings = serversFor(mergeByName(read.user, allowed.map((p) => p.value)).map((m) => m.entry), agent);
    if (settings.length === 0) return [];
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    return buildMcpServers(settings, await this.baseEnv(), report, folders);
  }

  /** Where configured agents, MCP servers and client terminals get their environment from (acpHost.environment). */
  readonly baseEnv = (): Promise<Env> => {
    const { user, proposals } = this.readEnvironment();
    const [proposal] = proposals;
    const allowed = proposal !== undefined && this.consent.status(proposal) === 'allowed';
    if (proposal && !allowed) this.consent.note(proposal, 'Agents get the environment of your own settings.');
    return (allowed ? proposal.value : user) === 'inherit' ? Promise.resolve(currentEnv()) : loginShellEnv();
  };

  /**
   * Asks, in one prompt, about what of the workspace's a start of `agentName` would use and the
   * user has not decided on yet: its definition, the MCP servers, the environment. False when the
   * prompt was dismissed: then nothing starts.
   */
  beforeStart(agentName: string): Promise<boolean> {
    const quiet = () => undefined;
    const agents = this.readAgents(quiet);
    const servers = this.readMcpServers(quiet);
    const proposals: Proposal[] = [...agents.proposals.filter((p) => p.name === agentName), ...servers.proposals, ...this.readEnvironment().proposals];
    const workspace: AgentOrigin = { kind: 'workspace', workspace: this.consent.workspace ?? '' };
    return this.consent.ask(proposals, {
      replaces: (name) => {
        if (agents.user.some((a) => a.name === name)) return 'your own';
        return agentPresets().some((p) => p.name === name || p.formerNames.includes(name)) ? 'the built-in' : undefined;
      },
      // What a workspace agent would get: the user's servers and the workspace's, if allowed.
      mcpServersOf: (name) => serversFor(mergeByName(servers.user, servers.proposals.map((p) => p.value)).map((m) => m.entry), { name, origin: workspace }).map((s) => s.name),
    });
  }

  /**
   * The identity of the user's own agent of this name (of their settings, else built-in), or
   * undefined when they have none: whose secrets stored under a name alone (before secrets were
   * bound to identities) become.
   */
  ownIdentity(name: string): string | undefined {
    const own = this.readAgents(() => undefined).user.find((a) => a.name === name);
    if (own) return launchIdentity({ kind: 'user' }, own.command, own.args);
    // Secrets stored under a preset's former name are the preset's (auth/authPorts.ts moves them to its name).
    const builtin = name === DEMO_AGENT_NAME || agentPresets().some((p) => p.name === name || p.formerNames.includes(name));
    return builtin ? launchIdentity(BUILTIN, '', []) : undefined;
  }

  /**
   * ACP: Manage Workspace Agent Consent: revokes the decision the user picks, and stops those of
   * `runtimes` that run with it (the agent it defined; for an MCP server or the environment,
   * every running agent, which was given it). A start asks again.
   */
  async manageConsent(runtimes: Iterable<AgentRuntime>): Promise<void> {
    const revoked = await this.consent.manage();
    if (!revoked) return;
    for (const runtime of runtimes) {
      if (runtime.current && (revoked.identity === undefined || revoked.identity === runtime.agent.identity)) await runtime.stop();
    }
  }

  dispose(): void {
    this.consent.dispose();
  }

  private workspaceAgent(proposal: AgentProposal, note: string): AgentChoice {
    const origin: AgentOrigin = { kind: 'workspace', workspace: this.consent.workspace ?? '' };
    const gate = () => {
      const status = this.consent.status(proposal);
      if (status !== 'allowed') throw new Error(`"${proposal.name}" is defined by this workspace’s settings and ${REFUSED[status]}.`);
    };
    return { ...configuredAgent(proposal.value, origin, this.baseEnv, gate), note };
  }

  private readAgents(report: (message: string) => void): Read<AgentSetting[], AgentProposal> {
    const { user, workspace } = settingOrigins('agents');
    const own = parseAgentSettings(user, 'acpHost.agents', report);
    return { user: own, proposals: agentProposals(own, parseAgentSettings(workspace, 'acpHost.agents of this workspace', report)) };
  }

  private readMcpServers(report: (message: string) => void): Read<McpServerSetting[], McpServerProposal> {
    const { user, workspace } = settingOrigins('mcpServers');
    const own = parseMcpServerSettings(user, report);
    return { user: own, proposals: mcpServerProposals(own, parseMcpServerSettings(workspace, (m) => report(`${m} (in this workspace’s settings)`))) };
  }

  private readEnvironment(): Read<Environment, EnvironmentProposal> {
    const origins = settingOrigins('environment');
    const proposal = environmentProposal(origins);
    return { user: parseSetting('environment', origins.user), proposals: proposal ? [proposal] : [] };
  }
}

export function controllerSettings(clientVersion: string): ControllerSettings {
  return {
    initializeTimeoutMs: setting('initializeTimeoutSeconds') * 1000,
    maxLineBytes: setting('maxMessageMegabytes') * 1024 * 1024,
    // Without a folder the panel still opens; starting an agent then says to open one (launch).
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '',
    // Only local folders have a path an agent can be given (and confined to).
    additionalDirectories: (vscode.workspace.workspaceFolders ?? []).slice(1).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    clientVersion,
  };
}
