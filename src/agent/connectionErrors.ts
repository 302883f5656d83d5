import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCodes, RpcError } from '../protocol/errors';
import type { JsonRpcError } from '../protocol/schema/jsonrpc';

// The connection's errors both ways: what a request of ours rejects with, and what the agent is
// answered when serving its request threw.

/** Raised for every request still waiting when the agent's stdout closes. */
export class ConnectionClosedError extends Error {
  /** `writeError`: our side broke (the agent's stdin is gone) rather than the agent's output ending. */
  constructor(method: string, writeError?: string) {
    super(writeError ? `Could not send ${method} to the agent: ${writeError}` : `The agent closed the connection before answering ${method}`);
    this.name = 'ConnectionClosedError';
  }
}

/** The agent answered with something our schema rejects: the call fails, the connection lives on. */
export class InvalidResultError extends Error {
  constructor(method: string, details: string) {
    super(`The agent's answer to ${method} is invalid: ${details}`);
    this.name = 'InvalidResultError';
  }
}

/** We abandoned a request of ours (the user moved on): `$/cancel_request` went to the agent, whose answer is ignored. */
export class RequestAbortedError extends Error {
  constructor(method: string) {
    super(`${method} was cancelled`);
    this.name = 'AbortError';
  }
}

/** What the agent gets for a request of its own that it cancelled (DIGEST §2: -32800). */
export function requestCancelled(method: string): RpcError {
  return new RpcError(ErrorCodes.RequestCancelled, `Request cancelled: ${method} was withdrawn by the agent`);
}

/**
 * The one mapping from what was thrown while serving a request to the JSON-RPC error answered:
 * an integer `code` (an RpcError, or an error passed on from elsewhere) is kept with its message
 * and data; anything else is an internal error (-32603) with its message.
 */
export function errorAnswer(error: unknown): JsonRpcError {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (typeof e?.code !== 'number' || !Number.isInteger(e.code)) return { code: ErrorCodes.InternalError, message };
  return e.data === undefined ? { code: e.code, message } : { code: e.code, message, data: e.data };
}

/** vscode-jsonrpc answers a handler's ResponseError as it is. */
export function toResponseError(error: unknown): ResponseError<unknown> {
  const { code, message, data } = errorAnswer(error);
  return new ResponseError(code, message, data);
}

/** Stops serving a request the agent cancelled before the work began (its -32800 is sent already). */
export function throwIfCancelled(signal: AbortSignal | undefined, method: string): void {
  if (signal?.aborted) throw requestCancelled(method);
}
