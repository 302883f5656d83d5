import type { Readable, Writable } from 'node:stream';
import { CancellationTokenSource, createMessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import type { CancellationToken, Logger, Message, MessageConnection } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { RpcError, formatZodError } from '../protocol/errors';
import { protocolMethods } from '../protocol/methods';
import { ConnectionClosedError, InvalidResultError, RequestAbortedError, errorAnswer, toResponseError } from './connectionErrors';
import { InboundRequests, acpCancellation, unlessCancelled } from './cancellation';
import { NdjsonMessageReader, NdjsonMessageWriter } from './ndjson';
import type { SkippedLine } from './ndjson';

/** What the connection needs to know of a method; the protocol layer's method table has this shape. */
export interface RequestSpec<P extends z.ZodMiniType = z.ZodMiniType, R extends z.ZodMiniType = z.ZodMiniType> {
  readonly method: string;
  readonly params: P;
  readonly result: R;
}
export interface NotificationSpec<P extends z.ZodMiniType = z.ZodMiniType> {
  readonly method: string;
  readonly params: P;
}

export interface ConnectionLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type TraceDirection = 'send' | 'receive';

export interface ConnectionOptions {
  log: ConnectionLog;
  /** Every message both ways, for the protocol trace. */
  onTrace?: (direction: TraceDirection, message: Message) => void;
  /** The message of every error the agent answers with passes through it: the agent may echo a secret it was given. */
  scrub?: (text: string) => string;
  maxLineBytes?: number;
}

/**
 * A streaming agent sends thousands of notifications a second (`session/update`), so their
 * schemas run through zod's ahead-of-time compiled parser: about twice the interpreter's speed
 * on that traffic (bench/throughput.mjs). It only speeds up acceptance: input the generated code
 * refuses goes to the regular parser, so what is rejected, and the error reported, are zod's own.
 * Compiled once per process (some 30 ms for `session/update`), which pays off only for streams:
 * requests and results, a few per prompt, keep the interpreter.
 */
const compiledSchemas = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
function compiled<T extends z.ZodMiniType>(schema: T): T {
  let fast = compiledSchemas.get(schema);
  if (!fast) compiledSchemas.set(schema, (fast = z.compile(schema)));
  return fast as T;
}

/**
 * A typed ACP connection over any pair of streams (a child's stdio, or in-memory pairs in tests).
 * Ids are vscode-jsonrpc's business and are kept per direction: our ids count up from 0 and a
 * response can only settle one of ours, while the agent's requests may use any string or integer.
 * Everything inbound is validated with zod; a bad request gets -32602, a bad notification is logged.
 */
export class AcpConnection {
  private readonly rpc: MessageConnection;
  private readonly writer: NdjsonMessageWriter;
  private readonly closeWaiters = new Set<(writeError?: string) => void>();
  private readonly allHandled: () => Promise<void>;
  private isClosed = false;
  private disposed = false;
  private readonly closedPromise: Promise<void>;
  private readonly log: ConnectionLog;
  private readonly scrub: ((text: string) => string) | undefined;
  /** Methods with a handler, so positional params can be refused as theirs (see refusePositionalParams). */
  private readonly requestMethods = new Set<string>();
  private readonly notificationMethods = new Set<string>();
  /** The handlers given to onNotification, by method, for the fast path (handleNow). */
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  /**
   * Our requests not answered yet, their method by id: vscode-jsonrpc drops any other answer
   * without a word, and the agent may name one of them (a request-scoped elicitation).
   */
  private readonly awaitingAnswer = new Map<string | number, string>();
  /** The agent's requests being served, for its `$/cancel_request`. */
  private readonly inbound = new InboundRequests();

  constructor(input: Readable, output: Writable, options: ConnectionOptions) {
    this.log = options.log;
    this.scrub = options.scrub;
    const trace = options.onTrace;
    // vscode-jsonrpc handles one queued message per tick, but reports the end of the stream at
    // once: count what it has handled, so responses that arrived before EOF still settle.
    let delivered = 0;
    let handled = 0;
    const reader = new NdjsonMessageReader(input, {
      maxLineBytes: options.maxLineBytes,
      onSkippedLine: (line) => this.onSkippedLine(line),
      onMessage: (message) => {
        delivered++;
        trace?.('receive', message);
      },
      // The fast path: a notification with a handler, when nothing waits ahead of it (in the
      // reader or in vscode-jsonrpc's queue), is handled at once, still in order. Through
      // vscode-jsonrpc every message costs an event-loop turn, which held a streaming agent to
      // a fraction of what parsing and validation allow (bench/throughput.mjs).
      handleNow: (message) => {
        if (handled + 1 !== delivered || !this.handleNow(message)) return false;
        handled++;
        return true;
      },
    });
    this.writer = new NdjsonMessageWriter(output, (m) => {
      if ('method' in m && 'id' in m) this.awaitingAnswer.set(m.id as string | number, m.method as string);
      trace?.('send', m);
    });
    this.rpc = createMessageConnection(reader, this.writer, rpcLogger(this.log), {
      cancellationStrategy: acpCancellation(this.inbound, (requestId) => this.notify(protocolMethods.cancelRequest, { requestId })),
      messageStrategy: {
        handleMessage: (message, next) => {
          handled++;
          if (!this.refusePositionalParams(message) && !this.strayAnswer(message)) next(message);
        },
      },
    });
    this.allHandled = async () => {
      // dispose() drops vscode-jsonrpc's queue, so stop waiting for it then.
      while (handled < delivered && !this.disposed) await new Promise((r) => setImmediate(r));
    };
    this.writer.onError(([error]) => this.failPending(error.message));
    let markClosed: () => void = () => undefined;
    this.closedPromise = new Promise((resolve) => (markClosed = resolve));
    this.rpc.onClose(() => {
      void this.allHandled().then(() => {
        this.failPending();
        markClosed();
      });
    });
    this.rpc.onError(([error]) => this.log.warn(`Connection error: ${error.message}`));
    this.onNotification(protocolMethods.cancelRequest, ({ requestId }) => {
      // A request already answered crosses its cancel on the wire now and then: nothing to do.
      if (requestId === null || !this.inbound.cancel(requestId)) this.log.info(`Ignored $/cancel_request for ${JSON.stringify(requestId)}: no request of the agent's by that id is waiting`);
    });
    this.rpc.onUnhandledNotification((n) => {
      // `$/…` and unknown notifications may be ignored (ACP §12); keep a trace of them anyway.
      if (!n.method.startsWith('$/')) this.log.info(`Ignored notification ${n.method}`);
    });
    this.rpc.listen();
  }

  /** Resolves once the agent's output has ended; every pending request has been rejected by then. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  /** How many of the agent's requests wait for our answer (a form waiting on the user, a file being read). */
  get serving(): number {
    return this.inbound.size;
  }

  /** The method of our request `id` while it waits for its answer; undefined for any other id. */
  methodInFlight(id: string | number | null): string | undefined {
    return id === null ? undefined : this.awaitingAnswer.get(id);
  }

  // What we send is typed as the schemas' *output*: their input side is deliberately loose
  // (lenient parsing), the output side is the exact shape the spec requires.
  /**
   * Sends a request; `signal` abandons it: the agent is told with `$/cancel_request` and the call
   * rejects at once with RequestAbortedError (the agent's late answer is then dropped quietly).
   */
  async request<P extends z.ZodMiniType, R extends z.ZodMiniType>(spec: RequestSpec<P, R>, params: z.output<P>, signal?: AbortSignal): Promise<z.output<R>> {
    if (this.isClosed) throw new ConnectionClosedError(spec.method);
    if (signal?.aborted) throw new RequestAbortedError(spec.method);
    // Never a token without a signal: vscode-jsonrpc cancels through the strategy above (ACP's
    // `$/cancel_request`), and a token it was not given cannot be cancelled at all.
    const source = signal && new CancellationTokenSource();
    const raw = await new Promise<unknown>((resolve, reject) => {
      const onClose = (writeError?: string) => reject(new ConnectionClosedError(spec.method, writeError));
      const onAbort = () => {
        source?.cancel();
        reject(new RequestAbortedError(spec.method));
      };
      this.closeWaiters.add(onClose);
      signal?.addEventListener('abort', onAbort, { once: true });
      (source ? this.rpc.sendRequest(spec.method, params, source.token) : this.rpc.sendRequest(spec.method, params))
        .then(resolve, (error: unknown) => reject(this.scrubbed(error)))
        .finally(() => {
          this.closeWaiters.delete(onClose);
          signal?.removeEventListener('abort', onAbort);
          source?.dispose();
        });
    });
    const parsed = spec.result.safeParse(raw);
    if (!parsed.success) throw new InvalidResultError(spec.method, formatZodError(parsed.error));
    return parsed.data;
  }

  async notify<P extends z.ZodMiniType>(spec: NotificationSpec<P>, params: z.output<P>): Promise<void> {
    if (this.isClosed) return; // a notification to a dead agent has no one to tell
    await this.rpc.sendNotification(spec.method, params);
  }

  /**
   * Serves an agent→client request; the handler gets validated params, and a signal aborted when
   * the agent cancels the request (`$/cancel_request`): it is answered -32800 then, at once, and
   * the handler should drop what it has not done. What it throws is answered as `errorAnswer` says.
   */
  onRequest<P extends z.ZodMiniType, R extends z.ZodMiniType>(
    spec: RequestSpec<P, R>,
    handler: (params: z.output<P>, signal: AbortSignal) => Promise<z.output<R>> | z.output<R>,
  ): void {
    this.requestMethods.add(spec.method);
    this.rpc.onRequest(spec.method, async (raw: unknown, token: CancellationToken) => {
      try {
        const parsed = spec.params.safeParse(raw ?? {});
        if (!parsed.success) {
          this.log.warn(`Rejected ${spec.method}: ${formatZodError(parsed.error)}`);
          return toResponseError(RpcError.invalidParams(`Invalid params for ${spec.method}: ${formatZodError(parsed.error)}`));
        }
        const signal = this.inbound.signal(token);
        const result = await unlessCancelled(handler(parsed.data, signal), signal, spec.method);
        // ACP: send `{}` for an empty result, never `null` (DIGEST §13.3).
        return result ?? {};
      } catch (error) {
        return toResponseError(error);
      } finally {
        this.inbound.done(token);
      }
    });
  }

  onNotification<P extends z.ZodMiniType>(spec: NotificationSpec<P>, handler: (params: z.output<P>) => void): void {
    this.notificationMethods.add(spec.method);
    const params = compiled(spec.params);
    const handle = (raw: unknown) => {
      const parsed = params.safeParse(raw ?? {});
      if (!parsed.success) {
        this.log.warn(`Dropped invalid ${spec.method}: ${formatZodError(parsed.error)}`);
        return;
      }
      try {
        handler(parsed.data);
      } catch (error) {
        this.log.error(`Handler for ${spec.method} failed: ${(error as Error).stack ?? error}`);
      }
    };
    this.rpc.onNotification(spec.method, handle);
    this.notificationHandlers.set(spec.method, handle);
  }

  /**
   * Handles a notification as vscode-jsonrpc would, without its queue; false leaves the message
   * to it (requests, responses, methods without a handler, params that are not an object).
   */
  private handleNow(message: Message): boolean {
    const m = message as { id?: unknown; method?: unknown; params?: unknown };
    if (this.disposed || 'id' in m || typeof m.method !== 'string') return false;
    const handle = this.notificationHandlers.get(m.method);
    if (!handle || typeof m.params !== 'object' || m.params === null || Array.isArray(m.params)) return false;
    handle(m.params);
    return true;
  }

  /** Ends our side: stdin closes, pending requests reject. */
  dispose(): void {
    this.disposed = true;
    this.failPending();
    this.rpc.end();
    this.rpc.dispose();
  }

  private failPending(writeError?: string): void {
    this.isClosed = true;
    for (const reject of this.closeWaiters) reject(writeError);
    this.closeWaiters.clear();
  }

  private onSkippedLine(line: SkippedLine): void {
    switch (line.reason) {
      case 'not-json':
        this.log.warn(`Skipped a non-JSON line from the agent: ${line.preview}`);
        return;
      case 'too-long':
        this.log.error(`Dropped a message of ${line.bytes} bytes from the agent (over the size limit)`);
        return;
      case 'malformed-json':
        this.log.warn(`Malformed JSON from the agent: ${line.preview}`);
        this.replyError(null, RpcError.parseError());
        return;
      case 'invalid-message':
        this.log.warn(`Invalid JSON-RPC message from the agent (${line.problem}): ${line.preview}`);
        this.replyError(line.id, RpcError.invalidRequest(`Invalid request: ${line.problem}`));
        return;
    }
  }

  /**
   * ACP params are named (an object). vscode-jsonrpc spreads an array over the handler's
   * arguments, so `[validParams, junk]` passed as its first element (found by fuzzing): for a
   * method we serve it is invalid params (-32602) instead, and a notification is dropped. An
   * unserved method is left to vscode-jsonrpc (-32601). True when the message was dealt with here.
   */
  private refusePositionalParams(message: Message): boolean {
    const m = message as { id?: string | number; method?: unknown; params?: unknown };
    if (typeof m.method !== 'string' || !Array.isArray(m.params)) return false;
    const why = 'params must be an object, not an array';
    if (m.id !== undefined) {
      if (!this.requestMethods.has(m.method)) return false;
      this.log.warn(`Rejected ${m.method}: ${why}`);
      this.replyError(m.id, RpcError.invalidParams(`Invalid params for ${m.method}: ${why}`));
      return true;
    }
    if (!this.notificationMethods.has(m.method)) return false;
    this.log.warn(`Dropped invalid ${m.method}: ${why}`);
    return true;
  }

  /** An answer to no request of ours (sent twice, or to an id we never used): logged and dropped. */
  private strayAnswer(message: Message): boolean {
    const m = message as { id?: unknown; method?: unknown };
    if ('method' in m || !('id' in m)) return false;
    if (this.awaitingAnswer.delete(m.id as string | number)) return false;
    this.log.warn(`Ignored an answer to id ${JSON.stringify(m.id)}: no request of ours is waiting for it (answered twice?)`);
    return true;
  }

  /** vscode-jsonrpc cannot answer what it never saw, so these go straight to the (serialized) writer. */
  private replyError(id: string | number | null, error: RpcError): void {
    if (this.isClosed) return;
    const response = { jsonrpc: '2.0', id, error: errorAnswer(error) };
    this.writer.write(response as Message).catch((e: Error) => this.log.warn(`Could not answer the agent: ${e.message}`));
  }

  /** An error answer of the agent's, its message scrubbed; anything else (closed, invalid result) is ours and goes as it is. */
  private scrubbed(error: unknown): unknown {
    if (!this.scrub || !(error instanceof ResponseError)) return error;
    return new ResponseError(error.code, this.scrub(error.message), error.data);
  }
}

function rpcLogger(log: ConnectionLog): Logger {
  return { error: log.error, warn: log.warn, info: log.info, log: log.info };
}
