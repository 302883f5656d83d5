import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import { DisposableStore } from '../base/disposables';
import type { AgentSession, SessionOptions } from './agentSession';
import type { AgentDefinition } from '../runtime/ports';
import type { AgentRuntime } from '../runtime/agentRuntime';
import { planFork } from './fork';
import type { Phase } from './model';
import type { SessionDetails } from './sessionOrigin';
import type { Transcript } from './transcript';

/** A session by agent and id: what identifies it across window reloads. */
export interface SessionRef {
  agentName: string;
  sessionId: string;
}

/** Where the open tabs, the history's titles and the shown transcripts are kept (host/sessions/sessionStore.ts, over workspace state). */
export interface TabStore {
  transcript(ref: SessionRef): Transcript['entries'] | undefined;
  /** What else is kept of a session: its roots, what it is a fork of. */
  details(ref: SessionRef): SessionDetails | undefined;
  remember(ref: SessionRef, title: string, details: SessionDetails): Thenable<void>;
  setOpenTabs(open: SessionRef[], shown: SessionRef | undefined): Thenable<void>;
  /** `scrub` masks secrets in what is saved (which is less than `entries`: it is given that only). */
  saveTranscript(ref: SessionRef, entries: Transcript['entries'], scrub: <T>(value: T) => T): Thenable<void>;
}

/** An open session as the switcher lists it. */
export interface TabInfo {
  key: string;
  label: string;
  agentName: string;
  phase: Phase;
}

/** One open session; `key` is ours (stable while open), the agent's id comes when it opens. */
export interface Tab {
  readonly key: string;
  readonly controller: AgentSession;
}

export interface TabFactories {
  runtime(agent: AgentDefinition): AgentRuntime;
  session(agent: AgentDefinition, runtime: AgentRuntime, options: SessionOptions): AgentSession;
  /** The tab closed: what was made for its session can go. */
  closed?(controller: AgentSession): void;
}

/**
 * The open sessions, across agents, and the one the panel shows. Each agent has one process
 * (AgentRuntime) shared by its sessions. What is open, and every session's title, is kept in
 * the SessionStore as it changes, so a window reload brings the same tabs back. No `vscode` import.
 */
export class SessionTabs {
  private readonly tabs: Tab[] = [];
  private shownKey: string | undefined;
  private nextKey = 1;
  private readonly runtimes = new Map<string, AgentRuntime>();
  /** Per tab, what it listens to: dropped when the tab closes. */
  private readonly subscriptions = new Map<string, DisposableStore>();
  private readonly changed = new Emitter<void>();
  /** Fired when a tab opens, closes, is shown, or changes phase or title. */
  readonly onChange: Event<void> = this.changed.event;

  constructor(
    private readonly make: TabFactories,
    private readonly store: TabStore,
  ) {}

  get all(): readonly Tab[] {
    return this.tabs;
  }

  get shown(): Tab | undefined {
    return this.tabs.find((t) => t.key === this.shownKey);
  }

  get(key: string): Tab | undefined {
    return this.tabs.find((t) => t.key === key);
  }

  /** The open tab of a conversation, if any. */
  find(ref: SessionRef): Tab | undefined {
    return this.tabs.find((t) => t.controller.agentName === ref.agentName && t.controller.agentSessionId === ref.sessionId);
  }

  /** The agent's process, shared by its sessions; a stopped one picks up a changed definition. */
  runtimeFor(agent: AgentDefinition): AgentRuntime {
    const existing = this.runtimes.get(agent.name);
    if (existing) {
      existing.redefine(agent);
      return existing;
    }
    const runtime = this.make.runtime(agent);
    this.runtimes.set(agent.name, runtime);
    return runtime;
  }

  /** Opens a tab (not started, not shown): a new session, or `options.sessionId` to bring back (with its roots, and what it is a fork of). */
  open(agent: AgentDefinition, options: SessionOptions = {}): Tab {
    const savedRef = options.sessionId === undefined ? undefined : { agentName: agent.name, sessionId: options.sessionId };
    const details = savedRef && this.store.details(savedRef);
    const controller = this.make.session(agent, this.runtimeFor(agent), { ...options, roots: options.roots ?? details?.roots, forkOf: options.forkOf ?? details?.forkOf });
    const saved = savedRef && this.store.transcript(savedRef);
    if (saved) controller.transcript.restore(saved);
    const tab = { key: `s${this.nextKey++}`, controller };
    this.tabs.push(tab);
    let label = controller.label;
    let sessionId = controller.agentSessionId;
    let phase = controller.currentStatus.phase;
    const changed = () => {
      // The history learns of a session once the agent named it, and again when its title
      // changes or a turn ends (the newest first).
      const turnEnded = phase === 'prompting' && controller.currentStatus.phase !== 'prompting';
      const ref = controller.agentSessionId ? { agentName: controller.agentName, sessionId: controller.agentSessionId } : undefined;
      const named = ref !== undefined && ref.sessionId !== sessionId;
      if (ref && (named || controller.label !== label || turnEnded)) {
        const { roots, forkOf } = controller.origin;
        const { secrets } = controller.runtime;
        void this.store.remember(ref, secrets.scrub(controller.label), { roots, forkOf: forkOf && secrets.scrubDeep(forkOf) });
        if (named) void this.persistTabs();
      }
      // A fork shows its copied conversation from the start: kept as soon as the agent named it.
      if (turnEnded || (named && controller.transcript.entries.length > 0)) this.saveTranscript(tab);
      sessionId = controller.agentSessionId;
      label = controller.label;
      phase = controller.currentStatus.phase;
      this.emit();
    };
    const subscriptions = new DisposableStore();
    subscriptions.add(controller.onStatus(changed));
    subscriptions.add(controller.session.onChange(() => {
      if (controller.label !== label) changed();
    }));
    this.subscriptions.set(tab.key, subscriptions);
    this.emit();
    return tab;
  }

  /**
   * "Fork from here" on the user message at entry `index` of `key`'s session: a new tab (not
   * started, not shown) with the same agent and roots, showing the conversation up to that message's
   * turn (session/fork.ts says how that meets the agent's copy), which opens with session/fork
   * (UNSTABLE) of the original when it starts (`before`: the conversation before that message).
   * Throws, in words, when the session cannot be forked now.
   */
  fork(key: string, index: number, before = false): Tab {
    const source = this.get(key)?.controller;
    if (!source) throw new Error('That session is no longer open.');
    const { origin, entries } = planFork(source, index, before);
    const tab = this.open(source.runtime.agent, { roots: source.origin.roots, forkOf: origin, title: `${origin.title} (fork)` });
    tab.controller.transcript.restore(entries);
    return tab;
  }

  show(key: string): Tab | undefined {
    const tab = this.get(key);
    if (!tab) return undefined;
    this.shownKey = key;
    void this.persistTabs();
    this.emit();
    return tab;
  }

  /**
   * Closes a tab: session/close when the agent offers it, and the agent's process stops once no
   * session uses it. The session stays in the history. Returns the tab shown next, if it changed.
   */
  async close(key: string): Promise<Tab | undefined> {
    const index = this.tabs.findIndex((t) => t.key === key);
    if (index === -1) return undefined;
    const [tab] = this.tabs.splice(index, 1);
    this.subscriptions.get(key)?.dispose();
    this.subscriptions.delete(key);
    const wasShown = this.shownKey === key;
    if (wasShown) this.shownKey = this.tabs[Math.min(index, this.tabs.length - 1)]?.key;
    void this.persistTabs();
    this.emit();
    this.make.closed?.(tab.controller);
    this.saveTranscript(tab);
    await tab.controller.close();
    return wasShown ? this.shown : undefined;
  }

  /** What the panel's switcher shows. */
  views(): TabInfo[] {
    return this.tabs.map(({ key, controller }) => ({ key, label: controller.label, agentName: controller.agentName, phase: controller.currentStatus.phase }));
  }

  /** Tabs whose session has an id are brought back after a reload; a session never opened has nothing to bring back. */
  private persistTabs(): Thenable<void> {
    const ref = (t: Tab | undefined): SessionRef | undefined =>
      t?.controller.agentSessionId ? { agentName: t.controller.agentName, sessionId: t.controller.agentSessionId } : undefined;
    const open = this.tabs.map(ref).filter((r): r is SessionRef => r !== undefined);
    return this.store.setOpenTabs(open, ref(this.shown));
  }

  private emit(): void {
    this.changed.fire();
  }

  /** What the agent said may quote a secret it was given: the store keeps it masked. */
  private saveTranscript({ controller }: Tab): void {
    if (!controller.agentSessionId) return;
    const { secrets } = controller.runtime;
    void this.store.saveTranscript({ agentName: controller.agentName, sessionId: controller.agentSessionId }, controller.transcript.entries, (kept) => secrets.scrubDeep(kept));
  }

  /** Every session and every process ends (the window closes: what comes back is in the store). */
  async dispose(): Promise<void> {
    for (const tab of this.tabs) this.saveTranscript(tab);
    for (const subscriptions of this.subscriptions.values()) subscriptions.dispose();
    this.subscriptions.clear();
    this.changed.dispose();
    await Promise.all([...this.runtimes.values()].map((r) => r.stop()));
  }
}

/** A session nothing was said in yet: replacing it (another agent, a session from the history) loses nothing. */
export function isUnused(controller: AgentSession): boolean {
  return controller.transcript.entries.length === 0 && controller.session.view.queue.length === 0;
}
