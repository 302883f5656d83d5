// The handlers that open and end sessions: session/new, session/load (replays the conversation
// first), session/resume (no replay), session/list, session/close and session/delete.

import { randomUUID } from 'node:crypto';
import type { ClientCapabilities } from './acp-types';
import { COMMANDS } from './commands';
import { configOptions } from './config-options';
import { log } from './log';
import { absolutePath, invalidParams, object } from './params';
import { DemoSession, MODES } from './session';
import { sessionPage } from './session-list';
import type { Sessions } from './sessions';
import { ErrorCodes, type RequestContext, RpcError, type Wire } from './wire';

export function registerSessionLifecycle(wire: Wire, sessions: Sessions, requireInitialized: () => ClientCapabilities): void {
  const update = (session: DemoSession, payload: object): void => wire.notify('session/update', { sessionId: session.id, update: payload });

  /** The answer of new, load and resume, with the commands announced right after it. */
  const opened = (session: DemoSession, ctx: RequestContext) => {
    // After the response, as real agents do (some even send them before).
    ctx.afterReply(() => update(session, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS }));
    // Both the legacy modes and config options, as Claude's adapter does: older clients use
    // the first, newer ones the second (where the model picker lives too).
    return { modes: { currentModeId: session.modeId, availableModes: MODES }, configOptions: configOptions(session) };
  };

  /** The session that load or resume asks for, from memory or disk; -32002 if there is none. */
  const reopen = (method: string, params: unknown): DemoSession => {
    const caps = requireInitialized();
    const p = object(params, method);
    if (typeof p.sessionId !== 'string') throw invalidParams(`${method}: sessionId must be a string`);
    const cwd = absolutePath(p.cwd, method);
    if (method === 'session/load' ? !Array.isArray(p.mcpServers) : p.mcpServers != null && !Array.isArray(p.mcpServers)) {
      throw invalidParams(`${method}: mcpServers must be an array (it may be empty)`);
    }
    const session = sessions.reopen(p.sessionId, !!caps.session?.configOptions?.boolean);
    if (!session) throw new RpcError(ErrorCodes.resourceNotFound, `${method}: no session ${JSON.stringify(p.sessionId)} (never created, or deleted)`);
    // The session's own cwd stays its root: the same folder may be spelt differently (a drive letter's case).
    if (cwd !== session.cwd) log(`${method} ${session.id}: asked for cwd ${cwd}, keeping the session's ${session.cwd}`);
    log(`${method} ${session.id} (${session.turnCount} turns)`);
    return session;
  };

  wire.onRequest('session/new', (params, ctx) => {
    const caps = requireInitialized();
    const p = object(params, 'session/new');
    const cwd = absolutePath(p.cwd, 'session/new');
    if (!Array.isArray(p.mcpServers)) throw invalidParams('session/new: mcpServers must be an array (it may be empty)');
    const session = new DemoSession(`demo-${randomUUID()}`, cwd, !!caps.session?.configOptions?.boolean);
    sessions.add(session);
    log(`new session ${session.id} in ${session.cwd} (${p.mcpServers.length} MCP servers, ignored)`);
    return { sessionId: session.id, ...opened(session, ctx) };
  });

  wire.onRequest('session/load', (params, ctx) => {
    const session = reopen('session/load', params);
    // The whole conversation goes out before the answer, as ACP requires: the client rebuilds
    // its transcript from these updates. Mode and options come in the answer itself.
    for (const payload of session.history.replay()) update(session, payload);
    update(session, { sessionUpdate: 'session_info_update', ...(session.title === undefined ? {} : { title: session.title }), updatedAt: session.updatedAt });
    return opened(session, ctx);
  });

  wire.onRequest('session/resume', (params, ctx) => opened(reopen('session/resume', params), ctx));

  wire.onRequest('session/list', (params) => {
    requireInitialized();
    // An absent params object asks for the first page of every workspace.
    const p = params === undefined || params === null ? {} : object(params, 'session/list');
    const cwd = p.cwd === undefined || p.cwd === null ? undefined : absolutePath(p.cwd, 'session/list');
    return sessionPage(sessions.listed(cwd), p.cursor);
  });

  wire.onRequest('session/close', (params) => {
    const sessionId = sessionIdOf(params, 'session/close');
    log(`session/close ${sessionId}`);
    sessions.close(sessionId); // closing one that is not open is no error: it is closed either way
    return {};
  });

  wire.onRequest('session/delete', (params) => {
    const sessionId = sessionIdOf(params, 'session/delete');
    log(`session/delete ${sessionId}`);
    sessions.delete(sessionId);
    return {};
  });
}

function sessionIdOf(params: unknown, method: string): string {
  const sessionId = object(params, method).sessionId;
  if (typeof sessionId !== 'string') throw invalidParams(`${method}: sessionId must be a string`);
  return sessionId;
}
