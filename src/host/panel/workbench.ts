import vscode = require('vscode');
import type { DiffSource } from '../../session/transcript';
import type { AgentSecrets } from '../auth/authPorts';
import { updateSetting } from '../config/settings';
import { DiffDocuments } from '../editor/diffDocuments';
import { openLink, openLocation, openWebPage } from '../editor/openers';
import { ReadOnlyDocuments } from '../editor/readOnlyDocuments';
import type { Logs } from '../trace/logs';
import { BROWSE_REGISTRY } from './actions';
import type { Workbench } from './actions';

/** The VS Code UI the actions open: editors, the agent picker, the log and the trace, messages. */
export class VsCodeWorkbench implements Workbench, vscode.Disposable {
  private readonly diffs = new DiffDocuments();
  /** Tool outputs opened in an editor: the newest few stay readable, older ones are dropped. */
  private readonly outputs = new ReadOnlyDocuments('acp-host-output', 20);
  /** How a web page leaves VS Code (its link protection asks first for an untrusted domain); the integration tests replace it to see what opens. */
  openExternal: (uri: vscode.Uri) => Thenable<boolean> = (uri) => vscode.env.openExternal(uri);

  constructor(
    private readonly logs: Logs,
    private readonly secrets: AgentSecrets,
    /** Told first when the user opens an editor from the panel (following the agent gives way: Follower.yieldToUser). */
    private readonly userOpens: () => void,
  ) {}

  openDiff(diff: DiffSource): Promise<void> {
    this.userOpens();
    return this.diffs.open(diff);
  }

  openLocation(path: string, line: number | null, roots: readonly string[]): Promise<void> {
    this.userOpens();
    return openLocation(path, line, roots);
  }

  openLink(href: string, roots: readonly string[]): Promise<void> {
    this.userOpens();
    return openLink(href, roots);
  }

  openWebPage(url: string): Promise<void> {
    return openWebPage(url, this.openExternal);
  }

  /** Said in the status bar for a while (the panel's transcript says it too). */
  inform(message: string): void {
    vscode.window.setStatusBarMessage(message, 10_000);
  }

  /** Every agent with its command line (and where it comes from, when that is the workspace's settings). */
  async pickAgent(choices: readonly { name: string; commandLine: string; note?: string }[], current: string): Promise<string | typeof BROWSE_REGISTRY | undefined> {
    const items: (vscode.QuickPickItem & { browse?: true })[] = choices.map((agent) => ({
      label: agent.name,
      description: [agent.name === current ? 'current' : undefined, agent.note].filter(Boolean).join(' · ') || undefined,
      detail: agent.commandLine,
    }));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: '$(extensions) Browse the ACP Registry…', detail: 'Install more agents (ACP: Browse Agents…)', browse: true });
    const picked = await vscode.window.showQuickPick(items, { title: 'Choose Agent', placeHolder: 'The agent the panel runs', matchOnDetail: true });
    return picked?.browse ? BROWSE_REGISTRY : picked?.label;
  }

  setFollow(enabled: boolean): Thenable<void> {
    return updateSetting('followAgent', enabled);
  }

  showLog(): void {
    this.logs.channel.show();
  }

  showTrace(agentName: string): Thenable<unknown> {
    return this.logs.showTrace(agentName);
  }

  copyTrace(agentName: string): Thenable<unknown> {
    return this.logs.copyTrace(agentName);
  }

  /** Agents ask again on their next start. */
  async forgetSecrets(): Promise<void> {
    const count = await this.secrets.forget();
    void vscode.window.showInformationMessage(
      count === 0 ? 'ACP Host has no stored agent secrets.' : `ACP Host forgot ${count} stored agent secret${count === 1 ? '' : 's'}. Agents ask again when they next start.`,
    );
  }

  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    this.inform('Copied to the clipboard.');
  }

  async openText(name: string, text: string): Promise<void> {
    await vscode.window.showTextDocument(this.outputs.add(name, text), { preview: true });
  }

  /** Untitled: Save (or closing it) asks where it goes, as for any new file. */
  async openMarkdown(text: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  failed(what: string, error: Error, tellUser: boolean): void {
    this.logs.channel.error(`${what} failed: ${error.stack ?? error.message}`);
    if (tellUser) void vscode.window.showWarningMessage(error.message);
  }

  dispose(): void {
    this.diffs.dispose();
    this.outputs.dispose();
  }
}
