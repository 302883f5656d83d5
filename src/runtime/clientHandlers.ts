import type { AcpConnection, ConnectionLog } from '../agent/connection';
import { clientMethods } from '../protocol/methods';
import { RpcError } from '../protocol/errors';
import type { SessionEndpoint } from './agentRuntime';
import type { AgentPorts } from './ports';
import type { ProcessScope } from './processScope';

/** The sessions of one agent's process, also those not routed by an id yet (starting it, signing in). */
export interface AgentSessions {
  /** Who shows what the agent asks during our request `method` (undefined: no request of ours by that id is in flight) rather than in a session. */
  askedDuring(method: string | undefined): SessionEndpoint | undefined;
  /** Every session open on the process, opening, starting it or signing in. */
  all(): SessionEndpoint[];
}

/**
 * What the agent calls on one process, registered before initialize (agents call early): each
 * call is routed by its `sessionId` to a session open on this process (its scope), else refused
 * with -32602; an `elicitation/create` that names our request in flight instead of a session
 * (a sign-in's form during `initialize` or `authenticate`) goes to `askedDuring` that request.
 * Only what the ports serve is registered: an unregistered method is -32601.
 * A handler's signal is aborted by the agent's `$/cancel_request`; a cancelled
 * `terminal/wait_for_exit` (or output, kill, release) needs nothing of the session: the
 * connection stops waiting for it and answers -32800, and the command runs on.
 */
export function serveClient(
  connection: AcpConnection,
  scope: ProcessScope,
  ports: AgentPorts,
  log: ConnectionLog,
  sessions: AgentSessions,
): void {
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
      // One scoped to our request in flight (initialize, authenticate, session setup) is the agent's: a session waiting on that request shows it.
      const endpoint = 'sessionId' in request ? route('elicitation/create', request.sessionId) : sessions.askedDuring(connection.methodInFlight(request.requestId));
      if (!endpoint) throw RpcError.invalidParams('elicitation/create: no session of this agent is there to show it');
      return endpoint.onElicitation(request, signal);
    });
    // It names no session: the one whose URL card waits for this id takes it (a sign-in's may be before any session is open); unknown or repeated ids are ignored (ACP §11).
    connection.onNotification(clientMethods.elicitationComplete, ({ elicitationId }) => {
      if (!sessions.all().some((endpoint) => endpoint.onElicitationComplete(elicitationId))) {
        log.info(`Ignored elicitation/complete for ${JSON.stringify(elicitationId)}: no accepted URL request waits for it`);
      }
    });
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
