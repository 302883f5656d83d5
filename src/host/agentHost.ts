import * as vscode from 'vscode';
import { AgentController } from './agentController';
import type { AgentDefinition } from './agentController';
import { baseEnv, controllerSettings, defaultAgentName, listAgents } from './agentConfig';
import { AgentViewProvider } from './agentView';
import { DiffDocuments } from './diffDocuments';
import { readTextFile } from './fileReader';
import { writeTextFile } from './fileWriter';
import { Follower } from './follow';
import { Logs } from './logs';
import { openLink, openLocation } from './openers';
import { TerminalPort } from './terminalPort';
import { EditReviewer } from './review/editReviewer';
import type { ViewToHost } from '../webview-protocol/messages';

/**
 * The extension's long-lived state: logs, the view, and the controller of the current agent.
 * Replacing the agent disposes only what belonged to the old one.
 */
export class AgentHost implements vscode.Disposable {
  readonly logs = new Logs();
  readonly view: AgentViewProvider;
  private readonly diffs = new DiffDocuments();
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
    if (!event.affectsConfiguration('acpHost.followAgent')) return;
    this.follower.setEnabled(followSetting());
    this.current.session.setFollow(followSetting());
  });
  private current!: AgentController;

  constructor(private readonly extension: vscode.ExtensionContext) {
    this.view = new AgentViewProvider(extension.extensionUri, (intent) => this.handleIntent(intent), this.logs.channel);
    this.use(this.createController(this.pickAgent()));
  }

  /** Everything that follows the current agent follows this one from now on. */
  private use(controller: AgentController): void {
    this.current = controller;
    controller.session.setFollow(followSetting());
    this.view.attach(controller);
    this.reviewer.attach(controller);
    this.follower.attach(controller.transcript);
  }

  get controller(): AgentController {
    return this.current;
  }

  /** Starts the default agent; a configuration change since the last start takes effect here. */
  async startAgent(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.startWhenTrusted = true;
      void vscode.window.showWarningMessage('ACP Host starts agents only in a trusted workspace.');
      return;
    }
    const wanted = this.pickAgent();
    if (wanted.name !== this.current.currentStatus.agentName) {
      await this.current.stop();
      this.use(this.createController(wanted));
    }
    await this.current.start();
  }

  /** What the user did in the panel (already validated). Public for the integration tests. */
  handleIntent(intent: ViewToHost): Promise<void> {
    const run = async () => {
      switch (intent.type) {
        case 'start':
          return this.startAgent();
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
      }
    };
    return run().catch((error: Error) => {
      this.logs.channel.error(`${intent.type} failed: ${error.stack ?? error.message}`);
      // What the user clicked must say why nothing happened.
      if (intent.type.startsWith('open')) void vscode.window.showWarningMessage(error.message);
    });
  }

  private pickAgent(): AgentDefinition {
    const agents = listAgents(this.extension.extensionPath, (m) => this.logs.channel.warn(m));
    const name = defaultAgentName();
    const agent = agents.find((a) => a.name === name);
    if (!agent) this.logs.channel.warn(`acpHost.defaultAgent names "${name}", which is not configured; using ${agents[0].name}.`);
    return agent ?? agents[0];
  }

  private createController(agent: AgentDefinition): AgentController {
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
    });
    return controller;
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
