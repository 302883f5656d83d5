import type { AcpConnection } from '../agent/connection';
import { agentMethods, unstableAgentMethods } from '../protocol/methods';
import type { AgentCapabilities, McpServer, NewSessionResponse } from '../protocol';
import { rootParams } from './sessionRoots';
import type { SessionRoots } from './sessionRoots';

/** How a session is opened on the agent's process. */
export type Opening =
  | { how: 'new' }
  /** UNSTABLE `session/fork` of the session `from`, open on the same process. */
  | { how: 'fork'; from: string }
  /** An earlier conversation, brought back: load replays it, resume does not. */
  | { how: 'load' | 'resume'; sessionId: string };

/** What every opening answers: the session's id and the state it starts in. */
export type OpenedSession = Pick<NewSessionResponse, 'sessionId' | 'modes' | 'configOptions'>;

/** Where the session works and with which MCP servers, as the agent's capabilities allow. */
export interface OpeningContext {
  roots: SessionRoots;
  mcpServers: McpServer[];
  capabilities: AgentCapabilities | undefined;
}

/**
 * The request that opens a session: session/new, session/load, session/resume or (UNSTABLE)
 * session/fork, each with the session's roots (cwd, and `additionalDirectories` when advertised)
 * and the MCP servers. Only the caller knows the gate of load, resume and fork: it asks for them
 * only when the agent advertised them.
 */
export async function sendOpening(connection: AcpConnection, opening: Opening, context: OpeningContext): Promise<OpenedSession> {
  const where = { ...rootParams(context.roots, context.capabilities), mcpServers: context.mcpServers };
  switch (opening.how) {
    case 'new':
      return connection.request(agentMethods.sessionNew, where);
    case 'fork':
      return connection.request(unstableAgentMethods.sessionFork, { sessionId: opening.from, ...where });
    case 'load':
      return { ...(await connection.request(agentMethods.sessionLoad, { sessionId: opening.sessionId, ...where })), sessionId: opening.sessionId };
    case 'resume':
      return { ...(await connection.request(agentMethods.sessionResume, { sessionId: opening.sessionId, ...where })), sessionId: opening.sessionId };
  }
}
