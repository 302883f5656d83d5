/**
 * How an action runs, whoever asked for it (the panel or the command palette): what it declares
 * it needs is provided first, the same way for every action, and a failure is reported, never
 * thrown back at the panel. VS Code-free: the host is a small interface, faked in unit tests.
 */

/** What an action needs of the shown session before it runs. */
export type Needs =
  /**
   * Its agent running: an idle session is started first, and the action waits for it (a prompt
   * or an image is then checked against the agent's capabilities now, not at send time).
   */
  | 'agent'
  /**
   * Its agent starting: an idle session is started, and the action goes on meanwhile (it asks
   * the user something; by the answer the agent's capabilities are known).
   */
  | 'agentStarting';

/** What an action gets: the host, what was asked for, and the session shown when it was asked. */
export interface ActionContext<H, S, I> {
  host: H;
  intent: I;
  session: S;
}

export interface Action<H, S, I> {
  needs?: Needs;
  /** A failure is shown to the user as a warning (it is always logged): what they asked to open must say why nothing opened. */
  warnOnFailure?: true;
  run(context: ActionContext<H, S, I>): unknown;
}

/** A session as the runner sees it: whether it is idle. */
export interface SessionPhase {
  readonly currentStatus: { readonly phase: string };
}

/** What the runner needs of the host. */
export interface RunnerHost<S extends SessionPhase> {
  /** The session the panel shows. */
  readonly controller: S;
  /** Starts a session's agent. */
  startSession(session: S): Promise<void>;
  readonly workbench: {
    /** Logs a failed action; `tellUser`: shows it too. */
    failed(what: string, error: Error, tellUser: boolean): void;
  };
}

/**
 * Runs `action` with `intent` once its needs are met. `what` names it in the log; `tellUser`
 * shows a failure whatever the action declares (the palette has no panel to show it in).
 * Resolves with what the action returned, or undefined when it failed.
 */
export async function runAction<H extends RunnerHost<S>, S extends SessionPhase, I>(
  host: H,
  action: Action<H, S, I>,
  intent: I,
  report: { what: string; tellUser?: boolean },
): Promise<unknown> {
  const session = host.controller;
  try {
    if (action.needs && session.currentStatus.phase === 'idle') {
      const starting = host.startSession(session);
      if (action.needs === 'agent') await starting;
      else starting.catch((error: Error) => host.workbench.failed(`${report.what} (starting the agent)`, error, false));
    }
    return await action.run({ host, intent, session });
  } catch (error) {
    host.workbench.failed(report.what, error as Error, Boolean(report.tellUser || action.warnOnFailure));
    return undefined;
  }
}
