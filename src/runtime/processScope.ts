import { DisposableStore, toDisposable } from '../base/disposables';
import type { RunningAgent } from '../agent/launch';
import type { SessionEndpoint } from './agentRuntime';

/**
 * What belongs to one agent process: its connection and the process itself, the sessions routed
 * to it, the session being opened on it, and the MCP warnings of its start. Ended once, on stop
 * or exit. A restart begins with a new scope, so nothing of the old process reaches the new one:
 * a late message on the old connection finds no session to route to, and a warning is given
 * again for the new start.
 */
export class ProcessScope {
  private readonly routes = new Map<string, SessionEndpoint>();
  /**
   * The session whose session/new is in flight: agents send state (commands, modes) before the
   * answer names the id, so updates for an id not yet known go to it.
   */
  opening: SessionEndpoint | undefined;
  /** The MCP servers skipped in this start, each reported once. */
  readonly mcpWarnings = new Set<string>();
  private held: RunningAgent | undefined;
  private readonly owned = new DisposableStore();
  private shutdown: Promise<unknown> = Promise.resolve();

  /** The process, once it answered initialize. */
  get running(): RunningAgent | undefined {
    return this.held;
  }

  /** Takes the process: ending the scope disposes its connection and shuts it down. */
  hold(running: RunningAgent): void {
    this.held = running;
    this.owned.add(toDisposable(() => {
      running.connection.dispose();
      this.shutdown = running.process.shutdown();
    }));
  }

  /** The session a call names; updates for an id not known yet belong to the session being opened. */
  route(sessionId: string): SessionEndpoint | undefined {
    return this.routes.get(sessionId) ?? this.opening;
  }

  routedTo(sessionId: string): SessionEndpoint | undefined {
    return this.routes.get(sessionId);
  }

  open(sessionId: string, endpoint: SessionEndpoint): void {
    this.routes.set(sessionId, endpoint);
  }

  /** Forgets the route if it still leads to `endpoint` (a newer one for the id stays). */
  forget(sessionId: string, endpoint: SessionEndpoint): boolean {
    if (this.routes.get(sessionId) !== endpoint) return false;
    this.routes.delete(sessionId);
    return true;
  }

  /** The sessions on this process: open, and the one being opened. */
  endpoints(): SessionEndpoint[] {
    const all = new Set(this.routes.values());
    if (this.opening) all.add(this.opening);
    return [...all];
  }

  get inUse(): boolean {
    return this.routes.size > 0 || this.opening !== undefined;
  }

  /**
   * Ends the scope: routes are forgotten, the connection disposed and the process shut down
   * (`ended` settles when it is gone). Returns the sessions that were on it, to be told.
   */
  end(): SessionEndpoint[] {
    const endpoints = this.endpoints();
    this.routes.clear();
    this.opening = undefined;
    this.owned.dispose();
    return endpoints;
  }

  /** Settles once the process of an ended scope has exited. */
  get ended(): Promise<unknown> {
    return this.shutdown;
  }
}
