import vscode = require('vscode');
import { AgentSession } from '../session/agentSession';
import type { SessionOptions } from '../session/agentSession';
import type { AgentDefinition } from '../runtime/ports';
import { AgentRuntime } from '../runtime/agentRuntime';
import { AgentConfig, controllerSettings } from './config/agentConfig';
import { findAgent } from '../runtime/presets';
import { carryOverRenamedPresets } from './config/renamedAgents';
import type { AgentChoice } from './config/agentConfig';
import { SettingChanges, defaultAgent, setting, updateSetting } from './config/settings';
import { HostPolicy, ownFolders } from './policy/hostPolicy';
import { manageRemembered } from './policy/rememberedPicker';
import { DisposableStore } from '../base/disposables';
import { COMMAND_IDS, dispatchIntent, runCommand } from './panel/actions';
import type { ActionHost, PanelIntent, ShownSession } from './panel/actions';
import { AgentViewProvider } from './panel/agentView';
import { AttentionWatcher } from './panel/attention';
import { panelFeed } from './panel/panelFeed';
import { VsCodeWorkbench } from './panel/workbench';
import { AgentSecrets } from './auth/authPorts';
import { SessionContextKeys } from './panel/sessionContextKeys';
import { MentionPicker, selectionAttachments } from './attachments/attachmentSources';
import { agentPorts } from './agentPorts';
import { Follower } from './editor/follow';
import { Logs } from './trace/logs';
import { WorkspaceAudit } from './audit/workspaceAudit';
import { EditReviewer } from './editor/review/editReviewer';
import { ReviewComments } from './comments/reviewComments';
import { Checkpoints } from './checkpoints/checkpoints';
import { workspaceGuard } from './checkpoints/guardedRestore';
import { pickFromHistory } from './sessions/sessionHistory';
import type { HistoryEntry } from './sessions/sessionHistory';
import { SessionStore } from './sessions/sessionStore';
import { SessionTabs, isUnused } from '../session/sessionTabs';
import type { Tab } from '../session/sessionTabs';
import type { FeedSource } from '../view/viewFeed';
import { Registry } from './registry/registry';

/**
 * The extension's long-lived state: logs, the view, and the open sessions (SessionTabs), one of
 * which the panel shows. The panel, the review and follow-the-agent follow the shown session.
 * What the user does, in the panel or the palette, runs through the action table (panel/actions.ts).
 */
export class AgentHost implements ActionHost, vscode.Disposable {
  /** Everything the host makes or registers that must be disposed; first in the class, so every field can add to it. */
  private readonly disposables = new DisposableStore();
  readonly logs = this.disposables.add(new Logs());
  readonly view: AgentViewProvider;
  /** Values of `env_var` sign-ins, in SecretStorage. Public: tests replace its prompter. */
  readonly secrets: AgentSecrets;
  /** The agents, MCP servers and environment the settings define, a workspace's only with consent (public: tests answer `config.consent`). */
  readonly config: AgentConfig;
  readonly workbench: VsCodeWorkbench;
  /** The @-mention QuickPick (public: the integration tests drive it). */
  readonly mentions = new MentionPicker();
  /** Where a checkpoint's restore or the review's Undo may write (the protected paths are every agent's: any name gives them). */
  private readonly restoreGuard = workspaceGuard(() => this.policy.layers('').protectedPaths);
  /** Review of the agent's edits; it outlives agents (the changed files stay the user's to review); it feeds the checkpoints. */
  readonly reviewer = this.disposables.add(new EditReviewer(this.restoreGuard, this.logs.channel, () => this.checkpoints, () => this.follower.yieldToUser()));
  /** The workspace's checkpoints, one per prompt (public: tests answer `checkpoints.confirm`). */
  readonly checkpoints: Checkpoints;
  /** Comments on diffs' lines, for the agent: chips of the shown session (public: the integration tests add them). */
  readonly comments = this.disposables.add(new ReviewComments(this));
  /** ACP Host's policy over what agents ask of VS Code (src/policy/, session/policyGate.ts). */
  readonly policy: HostPolicy;
  /** Following the agent in the editor (public: the integration tests wait for its follows). */
  readonly follower = this.disposables.add(new Follower(setting('followAgent'), (m) => this.logs.channel.info(m)));
  /** The `when` keys about the shown session: keybindings, and whether ACP: Sign Out is offered (public: the integration tests read them). */
  readonly contextKeys = this.disposables.add(new SessionContextKeys());
  /** A start refused for an untrusted workspace is retried once the user trusts it (the panel opens in Restricted Mode). */
  private startWhenTrusted = false;
  private readonly store: SessionStore;
  readonly tabs: SessionTabs;
  /** Which sessions need the user while they look elsewhere: badge, switcher marks, notifications. Public: the integration tests read it. */
  readonly attention: AttentionWatcher;
  private current!: AgentSession;
  /** The workspace's audit log: what agents wrote, ran, read and asked, and who decided. */
  readonly audit: WorkspaceAudit;
  /** Agents from the ACP Registry: installed ones join the picker; ACP: Browse Agents… (public: tests answer its pickers). */
  readonly registry: Registry;

  constructor(private readonly extension: vscode.ExtensionContext) {
    this.registry = this.disposables.add(new Registry(extension, { log: this.logs.channel, chooseAgent: (name) => this.chooseAgent(name) }));
    // Any agent's secret is masked in any event: the log is the workspace's, not one agent's.
    this.audit = this.disposables.add(new WorkspaceAudit(extension.storageUri, (_agent, text) => this.logs.secrets.scrub(text), (m) => this.logs.channel.warn(m)));
    this.config = this.disposables.add(new AgentConfig(extension.extensionPath, extension.globalState, (m) => this.logs.channel.info(m), extension.globalStorageUri.fsPath, this.registry.installed, (event) => void this.audit.record(event)));
    this.secrets = new AgentSecrets(extension, (m) => this.logs.channel.info(m), (name) => this.config.ownIdentity(name));
    this.policy = this.disposables.add(new HostPolicy(extension.workspaceState, (m) => this.logs.channel.warn(m), ownFolders(extension)));
    this.workbench = this.disposables.add(new VsCodeWorkbench(this.logs, this.secrets, () => this.follower.yieldToUser()));
    this.view = this.disposables.add(new AgentViewProvider(extension.extensionUri, (intent) => this.handleIntent(intent), this.logs.channel));
    this.store = new SessionStore(extension.workspaceState);
    this.checkpoints = this.disposables.add(new Checkpoints(extension.storageUri, this.reviewer, this.restoreGuard, this.logs.channel));
    // Before the tabs come back: those of a renamed preset come back under its new name.
    void carryOverRenamedPresets(this.agentChoices().map((a) => a.name), this.store);
    this.tabs = this.disposables.add(
      new SessionTabs(
        {
          runtime: (agent) => this.createRuntime(agent),
          session: (agent, runtime, options) => this.createController(agent, runtime, options),
          closed: (controller) => {
            this.reviewer.unwatch(controller);
            this.comments.unwatch(controller);
            this.checkpoints.unwatch(controller.session);
          },
        },
        this.store,
      ),
    );
    this.attention = this.disposables.add(new AttentionWatcher(this.tabs, this.view, (key) => this.switchSession(key)));
    this.watch();
    this.show(this.restoreTabs());
    this.disposables.add(vscode.window.registerWebviewViewProvider(AgentViewProvider.viewId, this.view, { webviewOptions: { retainContextWhenHidden: false } }));
    for (const id of COMMAND_IDS) this.disposables.add(vscode.commands.registerCommand(id, () => runCommand(this, id)));
  }

  /** Workspace trust, and the settings the open sessions follow. */
  private watch(): void {
    this.disposables.add(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (!this.startWhenTrusted) return;
        this.startWhenTrusted = false;
        void this.startAgent().catch((error: Error) => this.logs.channel.error(`Start after trust failed: ${error.message}`));
      }),
    );
    const settings = this.disposables.add(new SettingChanges());
    // The panel's agent picker lists what is configured, installed and consented to now.
    const agentsChanged = () => this.view.attach(this.feedSource(this.current));
    this.disposables.add(settings.onDidChange('agents', agentsChanged));
    this.disposables.add(this.registry.installed.onDidChange(agentsChanged));
    this.disposables.add(this.config.consent.onDidChange(agentsChanged));
    this.disposables.add(
      settings.onDidChange('followAgent', (follow) => {
        this.follower.setEnabled(follow);
        for (const tab of this.tabs.all) tab.controller.session.setFollow(follow);
      }),
    );
  }

  /**
   * The tabs open when the window last closed come back (each reopens its conversation with
   * session/load or session/resume when it starts); without any, a new session with the default agent.
   */
  private restoreTabs(): Tab {
    const { tabs, shown } = this.store.openTabs();
    let shownTab: Tab | undefined;
    for (const record of tabs) {
      const agent = this.agentChoices().find((a) => a.name === record.agentName);
      if (!agent) continue; // no longer configured: it stays in the history
      const tab = this.tabs.open(agent, { sessionId: record.sessionId, title: record.title || undefined });
      if (shown && shown.agentName === record.agentName && shown.sessionId === record.sessionId) shownTab = tab;
    }
    return shownTab ?? this.tabs.all[0] ?? this.tabs.open(this.pickAgent());
  }

  /** Everything that follows the shown session follows this one from now on. */
  private show(tab: Tab): void {
    const controller = tab.controller;
    // The prompt's attachments are the user's: they follow to the session shown next (and are checked against its agent).
    if (this.current && this.current !== controller) controller.adoptAttachments(this.current);
    this.current = controller;
    this.tabs.show(tab.key);
    controller.session.setFollow(setting('followAgent'));
    this.view.attach(this.feedSource(controller));
    this.follower.attach(controller.transcript, () => controller.origin.confinement);
    this.contextKeys.follow(controller);
    // A session brought back without a saved transcript gets its conversation from the agent
    // (session/load) without waiting for a prompt; one with a transcript starts when it is used.
    const nothingShown = controller.transcript.entries.length === 0;
    if (controller.agentSessionId && nothingShown && controller.currentStatus.phase === 'idle' && vscode.workspace.isTrusted) void this.startSession();
  }

  /** acpHost.addSelection: the active editor's selection (or the cursor's line) becomes an attachment. */
  async addSelection(): Promise<void> {
    const attachments = selectionAttachments(vscode.window.activeTextEditor);
    if (typeof attachments === 'string') return this.current.noteAttachment(attachments);
    if (this.current.currentStatus.phase === 'idle') await this.startSession();
    for (const attachment of attachments) this.current.attach(attachment);
  }

  get controller(): AgentSession {
    return this.current;
  }

  /** The shown session as the panel sees it (panel/panelFeed.ts), with the agents configured now. */
  private feedSource(controller: AgentSession): FeedSource {
    return panelFeed(controller, this.config.agents(() => undefined).map((a) => a.name), this.tabs, this.attention);
  }

  /** The agents to pick from, in the picker's order, with their command lines. */
  agentChoices(): AgentChoice[] {
    return this.config.agents((m) => this.logs.channel.warn(m));
  }

  /**
   * Opens a session with the agent named `name` and starts it (the panel's picker, ACP: Choose
   * Agent…); the choice is remembered as acpHost.defaultAgent.
   */
  async chooseAgent(name: string): Promise<void> {
    if (!this.agentChoices().some((a) => a.name === name)) throw new Error(`No agent named "${name}" is configured.`);
    if (setting('defaultAgent') !== name) await updateSetting('defaultAgent', name);
    await this.startAgent(name);
  }

  /**
   * Shows a session with the default agent (or `name`) and starts it. Another agent gets a new
   * session, which takes the place of the shown one if nothing was said in it yet; the other
   * sessions stay open in the switcher.
   */
  async startAgent(name?: string): Promise<void> {
    const wanted = this.pickAgent(name);
    if (wanted.name !== this.current.agentName) {
      const unused = this.tabs.shown;
      this.show(this.tabs.open(wanted));
      if (unused && isUnused(unused.controller)) await this.tabs.close(unused.key);
    }
    await this.startSession();
  }

  /** Starts a session, the shown one by default (with its agent's definition as configured now). */
  async startSession(session: ShownSession = this.current): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.startWhenTrusted = true;
      void vscode.window.showWarningMessage('ACP Host starts agents only in a trusted workspace.');
      return;
    }
    if (!(await this.config.beforeStart(session.currentStatus.agentName))) return; // what the workspace's settings would run: dismissed, nothing starts
    const configured = this.agentChoices().find((a) => a.name === session.currentStatus.agentName);
    // A configuration change since the last start takes effect when the process starts again.
    if (configured) this.tabs.runtimeFor(configured);
    await session.start();
  }

  /** A new session with the shown session's agent, shown and started. */
  async newSession(): Promise<void> {
    const agent = this.agentChoices().find((a) => a.name === this.current.agentName) ?? this.pickAgent();
    this.show(this.tabs.open(agent));
    await this.startSession();
  }

  /**
   * "Fork from here" on the user message at entry `index` of `session` (UNSTABLE session/fork):
   * a new tab holding the conversation up to it (`before`: before it; SessionTabs.fork), shown and started.
   */
  async forkSession(session: ShownSession, index: number, before = false): Promise<void> {
    const source = this.tabs.all.find((t) => t.controller === session);
    if (!source) throw new Error('That session is no longer open.');
    const fork = this.tabs.fork(source.key, index, before);
    this.show(fork);
    await this.startSession(fork.controller);
  }

  /** Closes a session (the shown one by default); the panel shows another, or a new one when none is left. */
  async closeSession(key = this.tabs.shown?.key): Promise<void> {
    if (!key) return;
    const agentName = this.tabs.get(key)?.controller.agentName;
    const next = await this.tabs.close(key);
    if (next) this.show(next);
    else if (this.tabs.all.length === 0) this.show(this.tabs.open(this.agentChoices().find((a) => a.name === agentName) ?? this.pickAgent()));
  }

  /** Shows an open session. */
  switchSession(key: string): void {
    const tab = this.tabs.get(key);
    if (tab) this.show(tab);
  }

  /** ACP: Session History…: a past session opens in its own tab (or the tab it is open in is shown). */
  async openFromHistory(): Promise<void> {
    const runtime = this.current.runtime;
    // The agent's own list needs it running (a failed start falls back to the sessions kept here).
    if (!runtime.current) await this.startSession();
    const entry = await pickFromHistory({
      runtime: runtime.features.has('list') ? runtime : undefined,
      store: this.store,
      remove: (e) => this.deleteSession(e),
    });
    if (entry) await this.openSession(entry);
  }

  /** Shows a past session: the tab it is open in, or a new tab that loads it. */
  async openSession(entry: HistoryEntry): Promise<void> {
    const open = this.tabs.find(entry);
    if (open) return this.show(open);
    const agent = this.agentChoices().find((a) => a.name === entry.agentName);
    if (!agent) throw new Error(`The agent "${entry.agentName}" of that session is no longer configured.`);
    const unused = this.tabs.shown;
    this.show(this.tabs.open(agent, { sessionId: entry.sessionId, title: entry.title || undefined }));
    if (unused && isUnused(unused.controller)) await this.tabs.close(unused.key);
    await this.startSession();
  }

  /** session/delete when the agent offers it (its tab closes first), and it leaves the history. */
  private async deleteSession(entry: HistoryEntry): Promise<void> {
    const open = this.tabs.find(entry);
    if (open) await this.closeSession(open.key);
    const agent = this.agentChoices().find((a) => a.name === entry.agentName);
    const runtime = agent && this.tabs.runtimeFor(agent);
    if (runtime?.current && runtime.features.has('delete')) await runtime.delete(entry.sessionId);
    await this.store.forget(entry);
  }

  manageWorkspaceConsent(): Promise<void> {
    return this.config.manageConsent(new Set(this.tabs.all.map((t) => t.controller.runtime)));
  }

  /** What the user did in the panel (already validated). Public for the integration tests. */
  handleIntent(intent: PanelIntent): Promise<void> {
    return dispatchIntent(this, intent);
  }

  private pickAgent(name?: string): AgentChoice {
    const agents = this.agentChoices();
    name ??= defaultAgent((suggested) => ![undefined, 'workspace'].includes(findAgent(agents, suggested)?.origin.kind));
    const agent = findAgent(agents, name);
    if (!agent) this.logs.channel.warn(`acpHost.defaultAgent names "${name}", which is not configured; using ${agents[0].name}.`);
    return agent ?? agents[0];
  }

  private settings() {
    return controllerSettings(String(this.extension.extension.packageJSON.version ?? '0.0.0'));
  }

  /** The agent's process; its ports say what every session on it serves (they are routed to each session's own). */
  private createRuntime(agent: AgentDefinition): AgentRuntime {
    const settings = this.settings();
    return new AgentRuntime(agent, settings, agentPorts(this, undefined, settings.workspaceFolder, agent.name));
  }

  private createController(agent: AgentDefinition, runtime: AgentRuntime, options: SessionOptions): AgentSession {
    const settings = this.settings();
    // The port exists before the controller whose transcript shows its output: bound late.
    let controller: AgentSession | undefined;
    controller = new AgentSession(agent, settings, agentPorts(this, () => controller, settings.workspaceFolder, agent.name), { ...options, runtime });
    this.reviewer.watch(controller);
    this.comments.watch(controller);
    this.checkpoints.watch(controller.session);
    return controller;
  }

  manageRememberedPermissions(): Promise<void> {
    return manageRemembered(this.policy.workspace, this.tabs.all.map((t) => ({ label: t.controller.label, gate: t.controller.gate })));
  }

  /** The commands and the view go first, then the watchers and the sessions (their agents stop); the log last. */
  dispose(): void {
    this.disposables.dispose();
  }
}
