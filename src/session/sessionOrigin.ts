import type { ConnectionLog } from '../agent/connection';
import type { AgentCapabilities } from '../protocol';
import type { ControllerSettings } from '../runtime/ports';
import { confinementRoots, reopenedRoots, sameRoots, sessionRoots } from '../runtime/sessionRoots';
import type { SessionRoots } from '../runtime/sessionRoots';
import type { ForkOrigin } from './fork';

/** What is kept of a session beside its id and transcript (host/sessions/sessionStore.ts). */
export interface SessionDetails {
  roots?: SessionRoots;
  forkOf?: ForkOrigin;
}

/**
 * Where a session works and where it came from: its roots (the workspace's folders, kept with the
 * session) and, for a fork, the session it was forked from. The roots the agent was told are the
 * only folders its requests may touch (`confinement`).
 */
export class SessionOrigin {
  readonly roots: SessionRoots;
  readonly forkOf: ForkOrigin | undefined;

  constructor(
    settings: Pick<ControllerSettings, 'workspaceFolder' | 'additionalDirectories'>,
    saved: SessionDetails,
    /** The capabilities of the agent's process while it runs: they decide what the agent was told. */
    private readonly capabilities: () => AgentCapabilities | undefined,
    log: Pick<ConnectionLog, 'info'>,
  ) {
    const current = sessionRoots(settings.workspaceFolder, settings.additionalDirectories ?? []);
    this.roots = reopenedRoots(saved.roots, current);
    if (saved.roots && !sameRoots(saved.roots, this.roots)) {
      log.info(`The workspace's folders changed since this session was saved: it works in ${describe(this.roots)} now (it was ${describe(saved.roots)}).`);
    }
    this.forkOf = saved.forkOf;
  }

  /** The folders the agent's paths may name: its cwd, and the other roots when it takes `additionalDirectories`. */
  get confinement(): string[] {
    return confinementRoots(this.roots, this.capabilities());
  }
}

function describe(roots: SessionRoots): string {
  return [roots.cwd, ...roots.additionalDirectories].join(', ');
}
