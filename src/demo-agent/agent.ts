// The demo agent's request handlers: initialize, modes and config options, prompt turns and
// cancellation; the handlers that open and end sessions are in session-lifecycle.ts.
// Every request is checked before use; bad params get -32602 with a message saying what is wrong.

import type { ClientCapabilities, ContentBlock, Implementation, StopReason } from './acp-types';
import { configOptions, setConfigOption } from './config-options';
import { log } from './log';
import { modelById } from './models';
import { invalidParams, object } from './params';
import { promptText, promptTextLength } from './prompt';
import { type DemoSession, MODES } from './session';
import { registerSessionLifecycle } from './session-lifecycle';
import { Sessions } from './sessions';
import { SessionStore } from './store';
import { runTurn } from './turn';
import { TurnIO } from './turn-io';
import { ErrorCodes, type RequestId, RpcError, type Wire } from './wire';

/** Keep in step with package.json (the bundle has no access to it at run time). */
export const DEMO_AGENT_VERSION = '0.1.0';
export const AGENT_INFO: Implementation = { name: 'acp-host-demo', title: 'Demo agent', version: DEMO_AGENT_VERSION };
const PROTOCOL_VERSION = 1;

export interface DemoAgentOptions {
  /** Base delay between streamed steps, in ms. */
  delayMs: number;
  /** The directory where sessions are kept between runs (see store.ts). */
  stateDir: string;
}

export function registerDemoAgent(wire: Wire, options: DemoAgentOptions): void {
  let clientCaps: ClientCapabilities | undefined; // set by initialize
  const sessions = new Sessions(new SessionStore(options.stateDir));
  const turnsByRequestId = new Map<RequestId, TurnIO>(); // for $/cancel_request

  const requireInitialized = (): ClientCapabilities => {
    if (!clientCaps) throw new RpcError(ErrorCodes.invalidRequest, 'initialize must be the first request');
    return clientCaps;
  };

  /**
   * usage_update at the end of a turn, cancelled ones too (what was streamed was still paid for).
   * Sent on the wire directly because the turn's TurnIO refuses to send once it is cancelled;
   * it still goes out before the prompt's response, as every update of a turn must.
   */
  const reportUsage = (session: DemoSession, prompt: unknown[], io: TurnIO): void => {
    const price = modelById(session.modelId)?.usdPerMillionTokens ?? 0;
    const update = session.usage.addTurn(promptTextLength(prompt), io.streamedChars, price);
    log(`session ${session.id} usage ${update.used}/${update.size} tokens, $${update.cost.amount}`);
    wire.notify('session/update', { sessionId: session.id, update });
  };

  wire.onRequest('initialize', (params) => {
    const p = object(params, 'initialize');
    if (!Number.isInteger(p.protocolVersion)) throw invalidParams('initialize: protocolVersion must be an integer');
    const caps = (p.clientCapabilities ?? {}) as ClientCapabilities;
    const booleanOptions = caps.session?.configOptions?.boolean;
    clientCaps = {
      fs: { readTextFile: caps.fs?.readTextFile === true, writeTextFile: caps.fs?.writeTextFile === true },
      terminal: caps.terminal === true,
      // Present and not null means supported ({} is the usual marker); anything else means not.
      session: { configOptions: { boolean: typeof booleanOptions === 'object' && booleanOptions !== null ? {} : null } },
    };
    log('initialize from', p.clientInfo ?? '(no clientInfo)', 'protocolVersion', p.protocolVersion, 'capabilities', clientCaps);
    // We speak only v1: echo 1 if asked for it, else answer with our latest (also 1).
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {}, close: {}, delete: {}, resume: {} },
      },
      authMethods: [],
      agentInfo: AGENT_INFO,
    };
  });

  wire.onRequest('authenticate', () => {
    throw invalidParams('authenticate: this agent has no authentication methods');
  });

  registerSessionLifecycle(wire, sessions, requireInitialized);

  wire.onRequest('session/set_mode', (params) => {
    const p = object(params, 'session/set_mode');
    const session = sessions.get(p.sessionId);
    if (!MODES.some((m) => m.id === p.modeId)) throw invalidParams(`session/set_mode: unknown modeId ${JSON.stringify(p.modeId)}`);
    session.modeId = p.modeId as string;
    sessions.save(session);
    log(`session ${session.id} mode -> ${session.modeId}`);
    wire.notify('session/update', { sessionId: session.id, update: { sessionUpdate: 'current_mode_update', currentModeId: session.modeId } });
    // The `mode` config option mirrors the mode, and this response carries no options, so a
    // client that shows config options learns of the change from config_option_update.
    wire.notify('session/update', { sessionId: session.id, update: { sessionUpdate: 'config_option_update', configOptions: configOptions(session) } });
    return {};
  });

  wire.onRequest('session/set_config_option', (params) => {
    const p = object(params, 'session/set_config_option');
    const session = sessions.get(p.sessionId);
    const changed = setConfigOption(session, p);
    sessions.save(session);
    log(`session ${session.id} config ${changed} -> ${JSON.stringify(p.value)}`);
    // The response carries the complete set; a client still on the legacy modes learns of a
    // mode change only from current_mode_update.
    if (changed === 'mode') {
      wire.notify('session/update', { sessionId: session.id, update: { sessionUpdate: 'current_mode_update', currentModeId: session.modeId } });
    }
    return { configOptions: configOptions(session) };
  });

  wire.onRequest('session/prompt', async (params, ctx) => {
    const caps = requireInitialized();
    const p = object(params, 'session/prompt');
    const session = sessions.get(p.sessionId);
    if (!Array.isArray(p.prompt)) throw invalidParams('session/prompt: prompt must be an array of content blocks');
    if (session.turn) throw new RpcError(ErrorCodes.invalidRequest, 'session/prompt: a turn is already running in this session');

    session.history.addUser(promptText(p.prompt));
    const io = new TurnIO(wire, session.id, options.delayMs, (update) => session.history.record(update));
    session.turn = io;
    session.turnCount += 1;
    turnsByRequestId.set(ctx.id, io);
    log(`turn ${session.turnCount} in ${session.id} started`);
    try {
      // Race the turn against the cancel so that the answer goes out at once, even if the
      // turn is waiting on the client (a read, a permission); the turn stops at its next step.
      const outcome = await Promise.race([
        runTurn({ io, session, caps }, p.prompt as ContentBlock[]).then(
          (stopReason) => ({ stopReason }),
          (error: unknown) => ({ error }),
        ),
        io.cancelled.then(() => ({ stopReason: 'cancelled' as StopReason })),
      ]);
      // After session/cancel the answer MUST be 'cancelled', even if the turn failed meanwhile.
      if (io.isCancelled) {
        reportUsage(session, p.prompt, io);
        return { stopReason: 'cancelled' };
      }
      if ('error' in outcome) throw outcome.error;
      reportUsage(session, p.prompt, io);
      log(`turn ${session.turnCount} ended: ${outcome.stopReason}`);
      return { stopReason: outcome.stopReason };
    } finally {
      io.cancel(); // nothing of this turn may be sent after its response
      session.turn = undefined;
      turnsByRequestId.delete(ctx.id);
      session.history.endTurn();
      session.updatedAt = new Date().toISOString();
      sessions.save(session);
    }
  });

  wire.onNotification('session/cancel', (params) => {
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    const session = sessions.find(sessionId);
    if (!session?.turn) {
      log(`session/cancel for ${JSON.stringify(sessionId)}: no turn running`);
      return;
    }
    log(`session/cancel: cancelling turn ${session.turnCount} in ${session.id}`);
    session.turn.cancel();
  });

  // The protocol-level cancel of one request; for a pending session/prompt it ends the turn
  // like session/cancel (the prompt is still answered, with stopReason 'cancelled').
  wire.onNotification('$/cancel_request', (params) => {
    const requestId = (params as { requestId?: unknown } | null)?.requestId;
    const turn = turnsByRequestId.get(requestId as RequestId);
    if (turn) turn.cancel();
  });
}
