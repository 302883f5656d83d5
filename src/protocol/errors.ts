import type * as z from 'zod/mini';
import './schema/locale';

/** The JSON-RPC and ACP error codes the spec names; peers may send any other int32 too. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  /** Also the answer to an unknown `_`-prefixed extension request. */
  MethodNotFound: -32601,
  /** Also the answer to an elicitation in a mode the client did not advertise. */
  InvalidParams: -32602,
  InternalError: -32603,
  /** The request was aborted (after `$/cancel_request`, or on shutdown or timeout). */
  RequestCancelled: -32800,
  /** Run an auth method, then retry the request. */
  AuthRequired: -32000,
  /** E.g. an unknown file or session. */
  ResourceNotFound: -32002,
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/**
 * The error we answer an agent's request with: whatever serves a request throws one, and the
 * connection turns it into the JSON-RPC error answer (agent/connection.ts `errorAnswer`).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  static parseError(): RpcError {
    return new RpcError(ErrorCodes.ParseError, 'Parse error');
  }
  static invalidRequest(message: string): RpcError {
    return new RpcError(ErrorCodes.InvalidRequest, message);
  }
  static invalidParams(message: string): RpcError {
    return new RpcError(ErrorCodes.InvalidParams, message);
  }
  /** An unknown file, terminal or session. */
  static notFound(message: string): RpcError {
    return new RpcError(ErrorCodes.ResourceNotFound, message);
  }
  static internal(message: string): RpcError {
    return new RpcError(ErrorCodes.InternalError, message);
  }
  /**
   * ACP Host's policy (or the user) refused the request. ACP names no code for it: -32603 with
   * `data.refused`, and a message that says what was refused and why (agents show it to the model).
   */
  static refused(message: string): RpcError {
    return new RpcError(ErrorCodes.InternalError, message, { refused: true });
  }
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * A union whose every branch failed reports only "Invalid input"; the branch with the fewest
 * issues is the closest match, so its issues say what is actually wrong.
 */
function closestIssues(issue: Issue, base: Path): Array<{ path: Path; message: string }> {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.flatMap((inner) => closestIssues(inner, path));
  }
  return [{ path, message: issue.message }];
}

function formatPath(path: Path): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('');
}

/**
 * A short message for a -32602 answer or a log line: `path: message` for the first few issues,
 * e.g. `update.content.text: Invalid input: expected string, received undefined`.
 */
export function formatZodError(error: z.core.$ZodError, maxIssues = 3): string {
  const issues = error.issues.flatMap((issue) => closestIssues(issue, []));
  const shown = issues.slice(0, maxIssues).map(({ path, message }) => `${formatPath(path)}: ${message}`);
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')} (and ${more} more)` : shown.join('; ');
}
