// What the consent prompt and the list of decisions say about a workspace's settings: the exact
// command lines, working directories, env variable NAMES (never their values: a workspace may
// hold a token there too), MCP server commands or URLs and which agents get each. Every value
// the workspace wrote is shown through shownText.ts (escaped, on one line, capped): a name full
// of line breaks cannot push the real command line out of sight, and each block starts with what
// runs. Pure (no vscode).
import { COMMAND_CHARS, capLines, escapeHidden, shown } from '../../base/shownText';
import type { CappedText } from '../../base/shownText';
import { describeReceivers } from '../../runtime/mcpServers';
import { commandLine } from '../../runtime/presets';
import { MASK, urlCredentials } from '../../runtime/secrets';
import type { AgentProposal, McpServerProposal, Proposal } from './workspaceProposals';

/** How a value of the workspace's is shown: capped in the prompt, whole (still escaped) behind Show All. */
type Show = (value: string, max?: number) => string;
const capped: Show = shown;
const whole: Show = (value) => escapeHidden(value);

/** What the prompt says about the agents a proposal touches. */
export interface ConsentContext {
  /** Whose agent of that name a workspace agent would take the place of ("the built-in", "your own"), if any. */
  replaces: (agentName: string) => string | undefined;
  /** The MCP servers a workspace agent of that name would get (mcpServers.ts `receives`). */
  mcpServersOf: (agentName: string) => readonly string[];
}

/** Env or header names, or "none". */
function names(record: Readonly<Record<string, string>>, show: Show): string {
  const keys = Object.keys(record);
  return keys.length === 0 ? 'none' : keys.map((key) => show(key)).join(', ');
}

/** A URL with its credentials (user:password@, token-like query values) masked. */
function shownUrl(url: string, show: Show): string {
  return show(urlCredentials(url).reduce((masked, secret) => masked.split(secret).join(MASK), url), COMMAND_CHARS);
}

function shownCommand(command: string, args: readonly string[], show: Show): string {
  return show(commandLine(command, args), COMMAND_CHARS);
}

const ENVIRONMENT = {
  inherit: 'VS Code’s own environment, instead of the one from your login shell',
  loginShell: 'the environment of your login shell, instead of VS Code’s own',
} as const;

/** One line: what it runs. Kept with a decision, for the list of decisions and the log. */
export function summarize(proposal: Proposal): string {
  switch (proposal.setting) {
    case 'agents': {
      const { command, args, env, cwd } = proposal.value;
      return `agent "${capped(proposal.name)}": ${shownCommand(command, args, capped)}${cwd ? ` in ${capped(cwd)}` : ''}${Object.keys(env).length ? ` (env: ${names(env, capped)})` : ''}`;
    }
    case 'mcpServers': {
      const server = proposal.value;
      if (server.type === 'http' || server.type === 'sse') return `MCP server "${capped(server.name)}": ${server.type} ${shownUrl(server.url, capped)}`;
      return `MCP server "${capped(server.name)}": ${shownCommand(server.command, server.args, capped)}${Object.keys(server.env).length ? ` (env: ${names(server.env, capped)})` : ''}`;
    }
    case 'environment':
      return `agent environment: ${proposal.value}`;
  }
}

/** Each proposal as a block that starts with what runs (or where it connects), then whose it is and what it gets. */
function blocks(proposals: readonly Proposal[], context: ConsentContext, show: Show): string[] {
  return proposals.map((proposal) => {
    switch (proposal.setting) {
      case 'agents': {
        const { command, args, env, cwd } = proposal.value;
        const instead = context.replaces(proposal.name);
        const servers = context.mcpServersOf(proposal.name);
        return [
          `runs: ${shownCommand(command, args, show)}`,
          `  as agent "${show(proposal.name)}"${instead ? ` (instead of ${instead} ${show(proposal.name)})` : ''}`,
          `  in: ${cwd ? show(cwd) : 'the workspace folder'}`,
          `  environment variables set: ${names(env, show)}`,
          `  gets MCP servers (with their env and headers): ${servers.length ? servers.map((s) => `"${show(s)}"`).join(', ') : 'none'}`,
        ].join('\n');
      }
      case 'mcpServers': {
        const server = proposal.value;
        const given = `  given to: ${describeReceivers(server, show)}`;
        if (server.type === 'http' || server.type === 'sse') {
          return [`url: ${shownUrl(server.url, show)}`, `  as MCP server "${show(server.name)}" (${server.type}, in every new session)`, `  headers: ${names(server.headers, show)}`, given].join('\n');
        }
        return [
          `runs: ${shownCommand(server.command, server.args, show)}`,
          `  as MCP server "${show(server.name)}" (started by the agent, in every new session)`,
          `  environment variables set: ${names(server.env, show)}`,
          given,
        ].join('\n');
      }
      case 'environment':
        return `Agent environment (acpHost.environment "${proposal.value}"): ${ENVIRONMENT[proposal.value]}.`;
    }
  });
}

const CLOSING =
  'Allow only if you trust whoever wrote this workspace’s settings: these commands run with your rights. ' +
  'Your answer is remembered for this workspace until the settings change; ACP: Manage Workspace Agent Consent revokes it.';

/** The prompt's detail: each proposal with everything that decides what runs, cut to fit a dialog (`cut`: Show All has more). */
export function consentDetail(proposals: readonly Proposal[], context: ConsentContext): CappedText {
  const shownBlocks = blocks(proposals, context, capped).join('\n\n');
  const { text, cut } = capLines(shownBlocks);
  // A value cut short is something only Show All shows whole, too.
  return { text: `${text}\n\n${CLOSING}`, cut: cut || shownBlocks !== blocks(proposals, context, whole).join('\n\n') };
}

/** Everything the prompt is about, no value cut (still escaped): what Show All opens. */
export function consentFullText(proposals: readonly Proposal[], context: ConsentContext): string {
  return `${blocks(proposals, context, whole).join('\n\n')}\n\n${CLOSING}`;
}

/** Characters of a command line or URL in the prompt's title. */
const TITLE_CHARS = 120;

/** The prompt's title: the command line (or URL) itself when there is one thing to decide on. */
export function consentMessage(proposals: readonly Proposal[]): string {
  const [only, ...more] = proposals.filter((p): p is AgentProposal | McpServerProposal => p.setting !== 'environment');
  if (!only) return 'This workspace’s settings want to change the environment agents run in. Allow?';
  if (more.length > 0) return `This workspace’s settings want ACP Host to run ${more.length + 1} commands of their own (each below). Allow?`;
  const value = only.value;
  if ('url' in value) return `This workspace’s settings want agents to connect to ${shownUrl(value.url, (v) => shown(v, TITLE_CHARS))}. Allow?`;
  return `This workspace’s settings want ACP Host to run ${shown(commandLine(value.command, value.args), TITLE_CHARS)}. Allow?`;
}
