import { agentMethods } from '../protocol/methods';
import type { SessionEndpoint } from './agentRuntime';
import type { AgentSessions } from './clientHandlers';
import type { ProcessScope } from './processScope';

/**
 * The sessions that wait on an agent's process before the agent knows them by an id: those
 * starting it or opening on it (`claim`), and those signing in (`signIn`, for `authenticate`).
 * Each counts as using the process, so a sibling that stops meanwhile does not stop it; and what
 * the agent asks outside any session (a request-scoped `elicitation/create`, e.g. an OAuth
 * sign-in during `initialize`) is shown by one of them.
 */
export class WaitingSessions {
  /** In the order they came: the first shows what is asked for all. */
  private readonly claims: SessionEndpoint[] = [];
  private readonly signingIn: SessionEndpoint[] = [];

  /** `endpoint` starts the process or opens on it, until the returned release. */
  claim(endpoint: SessionEndpoint): () => void {
    return waitIn(this.claims, endpoint);
  }

  /** `endpoint`'s `authenticate` is in flight, until the returned release. */
  signIn(endpoint: SessionEndpoint): () => void {
    return waitIn(this.signingIn, endpoint);
  }

  get any(): boolean {
    return this.claims.length > 0 || this.signingIn.length > 0;
  }

  /** These sessions and those of `scope`, as the process's client handlers see them. */
  of(scope: ProcessScope): AgentSessions {
    return {
      askedDuring: (method) => this.askedDuring(scope, method),
      all: () => [...new Set([...scope.endpoints(), ...this.claims, ...this.signingIn])],
    };
  }

  /**
   * Who shows a question the agent asks during our request `method` rather than in a session:
   * the question is the agent's, so one session shows it for all that wait. During
   * `authenticate`, the session signing in; else the session being opened, else the first that
   * is starting the process (during `initialize` no session exists yet), else any open session.
   */
  private askedDuring(scope: ProcessScope, method: string | undefined): SessionEndpoint | undefined {
    const signingIn = method === agentMethods.authenticate.method ? this.signingIn[0] : undefined;
    return signingIn ?? scope.opening ?? this.claims[0] ?? this.signingIn[0] ?? scope.endpoints()[0];
  }
}

/** Adds `endpoint` to `list` until the returned release is called (once; later calls do nothing). */
function waitIn(list: SessionEndpoint[], endpoint: SessionEndpoint): () => void {
  list.push(endpoint);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    list.splice(list.indexOf(endpoint), 1);
  };
}
