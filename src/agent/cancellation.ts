import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { AbstractCancellationTokenSource, CancellationId, CancellationStrategy, CancellationToken } from 'vscode-jsonrpc/node';
import { requestCancelled } from './connectionErrors';

// ACP's `$/cancel_request {requestId}` (DIGEST §2), both ways, wired into vscode-jsonrpc's
// cancellation strategy. vscode-jsonrpc's own default speaks LSP's `$/cancelRequest {id}`, which
// is not ACP's: with this strategy it is never sent, and the agent's is dropped before it gets
// there (envelope.ts).

/**
 * The agent's requests being served, each with the AbortSignal its handler gets; the agent's
 * `$/cancel_request` aborts one by its id. It is vscode-jsonrpc's cancellation receiver because
 * that is the one place vscode-jsonrpc links a request's id with the handler call it makes for
 * it: it asks for a token source per request id and hands the source's token to the handler,
 * which finds its signal by that token. (A map filled from the message strategy would have to
 * guess which handler call a message becomes.)
 */
export class InboundRequests {
  readonly kind = 'id';
  private readonly byId = new Map<CancellationId, AbortController>();
  private readonly byToken = new WeakMap<CancellationToken, { id: CancellationId; controller: AbortController }>();

  createCancellationTokenSource(id: CancellationId): AbstractCancellationTokenSource {
    const source = new CancellationTokenSource();
    const controller = new AbortController();
    this.byId.set(id, controller);
    this.byToken.set(source.token, { id, controller });
    return source;
  }

  /** How many are being served now (the agent waits for our answer to each). */
  get size(): number {
    return this.byId.size;
  }

  /** The signal of the request whose handler was given `token`. */
  signal(token: CancellationToken): AbortSignal {
    return this.byToken.get(token)?.controller.signal ?? new AbortController().signal;
  }

  /** `$/cancel_request`: false when no request of that id is being served (unknown, or answered already). */
  cancel(id: CancellationId): boolean {
    const controller = this.byId.get(id);
    if (!controller) return false;
    this.byId.delete(id);
    controller.abort();
    return true;
  }

  /** The request of `token` was answered: a later `$/cancel_request` for its id is too late. */
  done(token: CancellationToken): void {
    const entry = this.byToken.get(token);
    if (entry && this.byId.get(entry.id) === entry.controller) this.byId.delete(entry.id);
  }
}

/**
 * The strategy given to vscode-jsonrpc: inbound requests as above; a request of ours whose
 * token is cancelled (`AcpConnection.request`'s signal) is cancelled with `send`, which says
 * `$/cancel_request`.
 */
export function acpCancellation(inbound: InboundRequests, send: (requestId: CancellationId) => Promise<void>): CancellationStrategy {
  return { receiver: inbound, sender: { sendCancellation: (_connection, id) => send(id), cleanup: () => undefined } };
}

/**
 * The handler's work, unless the request is cancelled first: then it rejects at once with -32800
 * (the agent gets its answer now; what the handler still does is dropped, and its signal told it
 * to stop).
 */
export function unlessCancelled<T>(work: T | Promise<T>, signal: AbortSignal, method: string): Promise<T> {
  if (signal.aborted) return Promise.reject(requestCancelled(method));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(requestCancelled(method));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
