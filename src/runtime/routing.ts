import type { AcpConnection, ConnectionLog } from '../agent/connection';
import { clientMethods } from '../protocol/methods';
import { RpcError } from '../protocol/errors';
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ReadTextFileRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  WriteTextFileRequest,
} from '../protocol';
import type { AgentPorts, TerminalPort } from './ports';
import type { ProcessScope } from './processScope';

/**
 * What one session serves the agent. The runtime routes every session-scoped call by its
 * `sessionId`, so a call for a session that is not open on this process is refused (-32602).
 * `signal` is aborted when the agent cancels its request (`$/cancel_request`): the connection
 * has answered it -32800 by then, and what waits on the user is withdrawn, what is not done yet
 * is not done.
 */
export interface SessionEndpoint {
  onUpdate(update: SessionUpdate): void;
  onPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  onElicitation(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  readTextFile(request: ReadTextFileRequest, signal: AbortSignal): Promise<string>;
  writeTextFile?(request: WriteTextFileRequest, signal: AbortSignal): Promise<void>;
  terminals?: TerminalPort;
  /** The process exited on its own; `detail` says how, with the end of its stderr. */
  onAgentExit(detail: string): void;
  /** The process was stopped on purpose (a restart, a sign-in): the session may be reopened. */
  onAgentStop(): void;
}

/**
 * Handlers for what the agent calls, registered before initialize (agents call early). Each
 * call is routed by its `sessionId` to a session open on this process (its scope), else refused.
 * A cancelled `terminal/wait_for_exit` (or output, kill, release) needs nothing of the session:
 * the connection stops waiting for it and answers -32800; the command runs on.
 */
export function serveAgentCalls(connection: AcpConnection, scope: ProcessScope, ports: AgentPorts, log: ConnectionLog): void {
  const route = (method: string, sessionId: string): SessionEndpoint => {
    const endpoint = scope.route(sessionId);
    if (!endpoint) throw RpcError.invalidParams(`${method}: no open session ${JSON.stringify(sessionId)} on this agent`);
    return endpoint;
  };
  connection.onNotification(clientMethods.sessionUpdate, ({ sessionId, update }) => {
    const endpoint = scope.route(sessionId);
    if (endpoint) endpoint.onUpdate(update);
    else log.info(`Ignored session/update for ${sessionId}, which is not open`);
  });
  connection.onRequest(clientMethods.sessionRequestPermission, (request, signal) => route('session/request_permission', request.sessionId).onPermission(request, signal));
  if (ports.forms) {
    connection.onRequest(clientMethods.elicitationCreate, (request, signal) => {
      // A form scoped to a request in flight (sign-in, session setup) goes to the session being opened, else the first.
      const endpoint = 'sessionId' in request ? route('elicitation/create', request.sessionId) : (scope.opening ?? scope.endpoints()[0]);
      if (!endpoint) throw RpcError.invalidParams('elicitation/create: no session is open to show it');
      return endpoint.onElicitation(request, signal);
    });
    // Follows URL-mode flows only, which are declined: nothing to do.
    connection.onNotification(clientMethods.elicitationComplete, ({ elicitationId }) => log.info(`Ignored elicitation/complete for ${elicitationId}`));
  }
  connection.onRequest(clientMethods.fsReadTextFile, async (request, signal) => ({ content: await route('fs/read_text_file', request.sessionId).readTextFile(request, signal) }));
  if (ports.writeTextFile) {
    connection.onRequest(clientMethods.fsWriteTextFile, async (request, signal) => (await route('fs/write_text_file', request.sessionId).writeTextFile!(request, signal), {}));
  }
  if (ports.terminals) {
    const terminals = (method: string, sessionId: string) => route(method, sessionId).terminals!;
    connection.onRequest(clientMethods.terminalCreate, (request, signal) => terminals('terminal/create', request.sessionId).create(request, signal));
    connection.onRequest(clientMethods.terminalOutput, (request) => terminals('terminal/output', request.sessionId).output(request));
    connection.onRequest(clientMethods.terminalWaitForExit, (request) => terminals('terminal/wait_for_exit', request.sessionId).waitForExit(request));
    connection.onRequest(clientMethods.terminalKill, async (request) => (await terminals('terminal/kill', request.sessionId).kill(request), {}));
    connection.onRequest(clientMethods.terminalRelease, async (request) => (await terminals('terminal/release', request.sessionId).release(request), {}));
  }
}
