import * as vscode from 'vscode';
import { AgentController } from './agentController';
import { baseEnv, controllerSettings, defaultAgentName, listAgents, mcpServers } from './agentConfig';
import type { AgentChoice } from './agentConfig';
import { AgentViewProvider } from './agentView';
import { AgentSecrets, runLoginTerminal } from './authPorts';
import { MentionPicker, readForEmbed, selectionAttachments } from './attachmentSources';
import { DiffDocuments } from './diffDocuments';
import { readTextFile } from './fileReader';
import { writeTextFile } from './fileWriter';
import { Follower } from './follow';
import { Logs } from './logs';
import { openLink, openLocation } from './openers';
import { TerminalPort } from './terminalPort';
import { EditReviewer } from './review/editReviewer';
import type { StatusView, ViewToHost } from '../webview-protocol/messages';
import type { FeedSource } from './viewFeed';

/**
 * The extension's long-lived state: logs, the view, and the controller of the current agent.
 * Replacing the agent disposes only what belonged to the old one.
 */
export class AgentHost implements vscode.Disposable {
  readonly logs = new Logs();
  readonly view: AgentViewProvider;
  /** Values of `env_var` sign-ins, in SecretStorage. Public: tests replace its prompter. */
  readonly secrets: AgentSecrets;
  private readonly diffs = new DiffDocuments();
  /** The @-mention QuickPick (public: the integration tests drive it). */
  readonly mentions = new MentionPicker();
  /** Review of the agent's edits; it outlives agents (the changed files stay the user's to review). */
  readonly reviewer = new EditReviewer(this.logs.channel);
  private readonly follower = new Follower(followSetting(), (m) => this.logs.channel.info(m));
  /**
   * A start refused for an untrusted workspace is retried once the user trusts it. (The manifest's
   * `untrustedWorkspaces.supported: false` already keeps VS Code from activating us in Restricted
   * Mode, so this is defence in depth for hosts that activate us anyway.)
   */
  private startWhenTrusted = false;
  private readonly trustWatch = vscode.workspace.onDidGrantWorkspaceTrust(() => {
    if (!this.startWhenTrusted) return;
    this.startWhenTrusted = false;
    void this.startAgent().catch((error: Error) => this.logs.channel.error(`Start after trust failed: ${error.message}`));
  });
  private readonly configWatch = vscode.workspace.onDidChangeConfiguration((event) => {
    // The panel's agent picker lists what is configured now.
    if (event.affectsConfiguration('acpHost.agents')) this.view.attach(this.withAgentNames(this.current));
    if (!event.affectsConfiguration('acpHost.followAgent')) return;
    this.follower.setEnabled(followSetting());
    this.current.session.setFollow(followSetting());
  });
  private current!: AgentController;

  constructor(private readonly extension: vscode.ExtensionContext) {
    this.secrets = new AgentSecrets(extension, (m) => this.logs.channel.info(m));
    this.view = new AgentViewProvider(extension.extensionUri, (intent) => this.handleIntent(intent), this.logs.channel);
    this.use(this.createController(this.pickAgent()));
  }

  /** Everything that follows the current agent follows this one from now on. */
  private use(controller: AgentController): void {
    // The prompt's attachments are the user's: they follow to the new agent (and are checked against it).
    if (this.current) controller.adoptAttachments(this.current);
    this.current = controller;
    controller.session.setFollow(followSetting());
    this.view.attach(this.withAgentNames(controller));
    this.reviewer.attach(controller);
    this.follower.attach(controller.transcript);
  }

  /** @-mention: the chosen files and folders become attachments of the prompt being composed. */
  async mention(): Promise<void> {
    // The agent starts meanwhile, so its capabilities are known when the choice comes.
    if (this.current.currentStatus.phase === 'idle') void this.startAgent();
    const chosen = await this.mentions.pick();
    for (const attachment of chosen) this.current.attach(attachment);
  }

  /** acpHost.addSelection: the active editor's selection (or the cursor's line) becomes an attachment. */
  async addSelection(): Promise<void> {
    const attachments = selectionAttachments(vscode.window.activeTextEditor);
    if (typeof attachments === 'string') return this.current.noteAttachment(attachments);
    if (this.current.currentStatus.phase === 'idle') await this.startAgent();
    for (const attachment of attachments) this.current.attach(attachment);
  }

  get controller(): AgentController {
    return this.current;
  }

  /**
   * The controller as the panel sees it: its status carries the names of the agents to pick from
   * (host knowledge, not the controller's).
   */
  private withAgentNames(controller: AgentController): FeedSource {
    const agents = listAgents(this.extension.extensionPath, () => undefined).map((a) => a.name);
    const status = (): StatusView => ({ ...controller.currentStatus, agents });
    return {
      transcript: controller.transcript,
      session: controller.session,
      get currentStatus() {
        return status();
      },
      onStatus: (listener) => controller.onStatus(() => listener(status())),
    };
  }

  /** The agents to pick from, in the picker's order, with their command lines. */
  agentChoices(): AgentChoice[] {
    return listAgents(this.extension.extensionPath, (m) => this.logs.channel.warn(m));
  }

  /**
   * Switches to the agent named `name` and starts it (the panel's picker, ACP: Choose Agent…);
   * the choice is remembered as acpHost.defaultAgent.
   */
  async chooseAgent(name: string): Promise<void> {
    if (!this.agentChoices().some((a) => a.name === name)) throw new Error(`No agent named "${name}" is configured.`);
    const config = vscode.workspace.getConfiguration('acpHost');
    if (config.get<string>('defaultAgent') !== name) await config.update('defaultAgent', name, vscode.ConfigurationTarget.Global);
    await this.startAgent(name);
  }

  /** Starts the default agent (or `name`); a configuration change since the last start takes effect here. */
  async startAgent(name?: string): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.startWhenTrusted = true;
      void vscode.window.showWarningMessage('ACP Host starts agents only in a trusted workspace.');
      return;
    }
    const wanted = this.pickAgent(name);
    if (wanted.name !== this.current.currentStatus.agentName) {
      // Switch first, then stop the old one: a second switch meanwhile then stops this new one (never leaks it).
      const previous = this.current;
      this.use(this.createController(wanted));
      await previous.stop();
    }
    await this.current.start();
  }

  /** What the user did in the panel (already validated). Public for the integration tests. */
  handleIntent(intent: ViewToHost): Promise<void> {
    const run = async () => {
      switch (intent.type) {
        case 'start':
          return this.startAgent();
        case 'authenticate':
          return this.current.authenticate(intent.methodId);
        case 'chooseAgent':
          return this.chooseAgent(intent.name);
        case 'restart':
          return this.current.restart();
        case 'prompt':
          if (this.current.currentStatus.phase === 'idle') await this.startAgent();
          return this.current.prompt(intent.text);
        case 'unqueue':
          return this.current.unqueue(intent.id);
        case 'cancel':
          return this.current.cancel();
        case 'permission':
          return this.current.choosePermission(intent.toolCallId, intent.optionId);
        case 'elicitation':
          // A refused answer keeps the form open with the reason: nothing more to do here.
          this.current.answerElicitation(intent.requestKey, intent.action, intent.content);
          return;
        case 'setMode':
          return this.current.setMode(intent.modeId);
        case 'setConfigOption':
          return this.current.setConfigOption(intent.configId, intent.value);
        case 'openDiff': {
          const diff = this.current.transcript.diffSource(intent.index, intent.contentIndex);
          if (!diff) throw new Error(`entry ${intent.index} has no diff ${intent.contentIndex}`);
          return this.diffs.open(diff);
        }
        case 'openLocation':
          return openLocation(intent.path, intent.line);
        case 'openLink':
          return openLink(intent.href);
        case 'reviewOpen':
          return this.reviewer.open(intent.path);
        case 'reviewKeep':
          return this.reviewer.keep(intent.path);
        case 'reviewUndo':
          return this.reviewer.undo(intent.path);
        case 'setFollow':
          // The setting is the one source of truth; the configuration watcher applies it.
          return vscode.workspace.getConfiguration('acpHost').update('followAgent', intent.enabled, vscode.ConfigurationTarget.Global);
        case 'mention':
          return this.mention();
        case 'attachSelection':
          return this.addSelection();
        case 'detach':
          return this.current.detach(intent.id);
        case 'attachImage':
          // Started first, so an agent without image support refuses it now, not at send time.
          if (this.current.currentStatus.phase === 'idle') await this.startAgent();
          this.current.attach({ kind: 'image', name: intent.name, mimeType: intent.mimeType, data: intent.data });
          return;
        case 'attachRefused':
          return this.current.noteAttachment(`${intent.name} was not attached: ${ATTACH_REFUSALS[intent.reason]}`);
      }
    };
    return run().catch((error: Error) => {
      this.logs.channel.error(`${intent.type} failed: ${error.stack ?? error.message}`);
      // What the user clicked must say why nothing happened.
      if (intent.type.startsWith('open')) void vscode.window.showWarningMessage(error.message);
    });
  }

  private pickAgent(name = defaultAgentName()): AgentChoice {
    const agents = this.agentChoices();
    const agent = agents.find((a) => a.name === name);
    if (!agent) this.logs.channel.warn(`acpHost.defaultAgent names "${name}", which is not configured; using ${agents[0].name}.`);
    return agent ?? agents[0];
  }

  private createController(agent: AgentChoice): AgentController {
    const version = String(this.extension.extension.packageJSON.version ?? '0.0.0');
    const settings = controllerSettings(version);
    // The port exists before the controller whose transcript shows its output: bound late.
    let controller: AgentController | undefined;
    const terminals = new TerminalPort({
      baseEnv,
      workspaceFolder: settings.workspaceFolder,
      log: this.logs.connectionLog,
      onUpdate: (terminalId, state) => controller?.transcript.updateTerminal(terminalId, state),
    });
    controller = new AgentController(agent, settings, {
      readTextFile: (request) => readTextFile(request, this.logs.connectionLog),
      writeTextFile: (request) => writeTextFile(request, this.logs.connectionLog, (uri) => this.reviewer.beforeWrite(uri)),
      terminals,
      log: this.logs.connectionLog,
      onTrace: (name, direction, message) => this.logs.addTrace(name, direction, message),
      askSecret: (agentName, varName, prompt) => this.secrets.ask(agentName, varName, prompt).then((value) => this.maskInTrace(agentName, value)),
      storedSecrets: (agentName) => this.secrets.stored(agentName).then((stored) => (Object.values(stored).forEach((v) => this.maskInTrace(agentName, v)), stored)),
      runLoginTerminal,
      mcpServers: () => mcpServers((m) => this.logs.channel.warn(m)),
      readForEmbed,
      // The panel renders elicitation forms.
      forms: true,
    });
    return controller;
  }

  /** A stored secret is never sent in ACP messages; should an agent echo it, the trace masks it. */
  private maskInTrace<T extends string | undefined>(agentName: string, value: T): T {
    if (value) this.logs.trace.addSecrets(agentName, [value]);
    return value;
  }

  dispose(): void {
    this.view.dispose();
    this.diffs.dispose();
    this.reviewer.dispose();
    this.follower.dispose();
    this.configWatch.dispose();
    this.trustWatch.dispose();
    void this.current.stop();
    this.logs.dispose();
  }
}

function followSetting(): boolean {
  return vscode.workspace.getConfiguration('acpHost').get<boolean>('followAgent') ?? true;
}

/** What the panel reports about a pasted or dropped file it did not read. */
const ATTACH_REFUSALS = {
  tooLarge: 'images larger than 5 MB are not attached.',
  unsupportedType: 'only PNG, JPEG, GIF and WebP images can be pasted or dropped (attach other files with @).',
  unreadable: 'it could not be read.',
} as const;
