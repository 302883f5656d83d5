// What the consent prompt and the list of decisions say about a workspace's settings: the exact
// command lines, working directories, env variable NAMES (never their values: a workspace may
// hold a token there too) and MCP server commands or URLs. Pure (no vscode).
import { commandLine } from '../../runtime/presets';
import { MASK, urlCredentials } from '../../runtime/secrets';
import type { Proposal } from './workspaceProposals';

/** Env or header names, or "none". */
function names(record: Readonly<Record<string, string>>): string {
  const keys = Object.keys(record);
  return keys.length === 0 ? 'none' : keys.join(', ');
}

/** A URL with its credentials (user:password@, token-like query values) masked. */
function shownUrl(url: string): string {
  return urlCredentials(url).reduce((shown, secret) => shown.split(secret).join(MASK), url);
}

const ENVIRONMENT = {
  inherit: 'VS Code’s own environment, instead of the one from your login shell',
  loginShell: 'the environment of your login shell, instead of VS Code’s own',
} as const;

/** One line: what it runs. Kept with a decision, for the list of decisions. */
export function summarize(proposal: Proposal): string {
  switch (proposal.setting) {
    case 'agents': {
      const { command, args, env, cwd } = proposal.value;
      return `agent "${proposal.name}": ${commandLine(command, args)}${cwd ? ` in ${cwd}` : ''}${Object.keys(env).length ? ` (env: ${names(env)})` : ''}`;
    }
    case 'mcpServers': {
      const server = proposal.value;
      if (server.type === 'http' || server.type === 'sse') return `MCP server "${proposal.name}": ${server.type} ${shownUrl(server.url)}`;
      return `MCP server "${proposal.name}": ${commandLine(server.command, server.args)}${Object.keys(server.env).length ? ` (env: ${names(server.env)})` : ''}`;
    }
    case 'environment':
      return `agent environment: ${proposal.value}`;
  }
}

/**
 * The prompt's detail: each proposal with everything that decides what runs. `replaces(name)`
 * says whose agent of that name it would take the place of ("the built-in", "your own"), if any.
 */
export function consentDetail(proposals: readonly Proposal[], replaces: (agentName: string) => string | undefined): string {
  const blocks = proposals.map((proposal) => {
    switch (proposal.setting) {
      case 'agents': {
        const { command, args, env, cwd } = proposal.value;
        const instead = replaces(proposal.name);
        return [
          `Agent "${proposal.name}"${instead ? ` (instead of ${instead} ${proposal.name})` : ''}:`,
          `  runs: ${commandLine(command, args)}`,
          `  in: ${cwd ?? 'the workspace folder'}`,
          `  environment variables set: ${names(env)}`,
        ].join('\n');
      }
      case 'mcpServers': {
        const server = proposal.value;
        if (server.type === 'http' || server.type === 'sse') {
          return [`MCP server "${proposal.name}" (${server.type}, given to every new session):`, `  url: ${shownUrl(server.url)}`, `  headers: ${names(server.headers)}`].join('\n');
        }
        return [
          `MCP server "${proposal.name}" (started by the agent, in every new session):`,
          `  runs: ${commandLine(server.command, server.args)}`,
          `  environment variables set: ${names(server.env)}`,
        ].join('\n');
      }
      case 'environment':
        return `Agent environment (acpHost.environment "${proposal.value}"): ${ENVIRONMENT[proposal.value]}.`;
    }
  });
  return [
    ...blocks,
    'Allow only if you trust whoever wrote this workspace’s settings: these commands run with your rights. ' +
      'Your answer is remembered for this workspace until the settings change; ACP: Manage Workspace Agent Consent revokes it.',
  ].join('\n\n');
}
