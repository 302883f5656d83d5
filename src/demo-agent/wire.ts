// JSON-RPC 2.0 over newline-delimited JSON (ACP's stdio transport): one message per line on
// stdin/stdout. Requests go both ways, so this tracks the ids of our own outgoing requests
// separately from the ids of the client's requests (the two id spaces may overlap).

import { log } from './log';

export type RequestId = string | number;

/** Thrown by handlers to answer with a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const ErrorCodes = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  resourceNotFound: -32002,
} as const;

export interface RequestContext {
  readonly id: RequestId;
  /** Runs `fn` right after the response to this request has been written. */
  afterReply(fn: () => void): void;
}

type RequestHandler = (params: unknown, ctx: RequestContext) => unknown;
type NotificationHandler = (params: unknown) => void;

interface PendingRequest {
  method: string;
  resolve(result: unknown): void;
  reject(error: RpcError): void;
}

export class Wire {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly pending = new Map<RequestId, PendingRequest>();
  private nextId = 0;
  private buffered = '';

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {}

  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  /** Starts reading; `onEnd` runs once the client closes our stdin. */
  start(onEnd: () => void): void {
    this.input.setEncoding('utf8'); // decode UTF-8 across chunk boundaries
    this.input.on('data', (chunk: string) => this.receive(chunk));
    this.input.on('end', () => {
      if (this.buffered.trim() !== '') this.handleLine(this.buffered);
      this.buffered = '';
      onEnd();
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the client; resolves with its result, rejects with an RpcError. */
  request<T>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: (r) => resolve(r as T), reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  private send(message: object): void {
    // JSON.stringify escapes newlines inside strings, so the message stays on one line.
    this.output.write(JSON.stringify(message) + '\n');
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) !== -1) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.handleLine(line);
    }
  }

  private handleLine(raw: string): void {
    const line = raw.trim(); // also drops the \r of a \r\n line ending
    if (line === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      log('ignoring a line that is not JSON:', line.slice(0, 200));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      log('ignoring a line that is not a JSON-RPC object:', line.slice(0, 200));
      return;
    }
    this.dispatch(message as Record<string, unknown>);
  }

  private dispatch(message: Record<string, unknown>): void {
    const { id, method } = message;
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof method === 'string') {
      if (hasId) this.handleRequest(id, method, message.params);
      else this.handleNotification(method, message.params);
    } else if (hasId && ('result' in message || 'error' in message)) {
      this.handleResponse(id, message);
    } else {
      log('ignoring a message that is neither request, notification nor response:', message);
    }
  }

  private handleRequest(id: RequestId, method: string, params: unknown): void {
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      log(`unknown request ${method}`);
      this.send({ jsonrpc: '2.0', id, error: { code: ErrorCodes.methodNotFound, message: `Method not found: ${method}` } });
      return;
    }
    const after: Array<() => void> = [];
    const ctx: RequestContext = { id, afterReply: (fn) => after.push(fn) };
    const reply = (outcome: { result: unknown } | { error: unknown }): void => {
      if ('result' in outcome) {
        this.send({ jsonrpc: '2.0', id, result: outcome.result ?? {} }); // {} rather than null for empty results
      } else {
        const error = toWireError(outcome.error);
        log(`request ${method} failed:`, error);
        this.send({ jsonrpc: '2.0', id, error });
      }
      for (const fn of after) fn();
    };
    let result: unknown;
    try {
      result = handler(params, ctx);
    } catch (error) {
      reply({ error });
      return;
    }
    // Answer synchronous handlers at once, so that their responses keep the order of the requests.
    if (result instanceof Promise) result.then((r: unknown) => reply({ result: r }), (error: unknown) => reply({ error }));
    else reply({ result });
  }

  private handleNotification(method: string, params: unknown): void {
    const handler = this.notificationHandlers.get(method);
    if (handler) handler(params);
    else log(`ignoring notification ${method}`); // unknown notifications (incl. $/…) are ignorable
  }

  private handleResponse(id: RequestId, message: Record<string, unknown>): void {
    const pending = this.pending.get(id);
    if (!pending) {
      log(`ignoring a response to unknown request id ${JSON.stringify(id)}`);
      return;
    }
    this.pending.delete(id);
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error && typeof error === 'object') {
      const code = typeof error.code === 'number' ? error.code : ErrorCodes.internalError;
      const text = typeof error.message === 'string' ? error.message : 'unknown error';
      pending.reject(new RpcError(code, text, error.data));
    } else {
      pending.resolve(message.result);
    }
  }
}

function toWireError(err: unknown): { code: number; message: string; data?: unknown } {
  if (err instanceof RpcError) return { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) };
  return { code: ErrorCodes.internalError, message: err instanceof Error ? err.message : String(err) };
}
