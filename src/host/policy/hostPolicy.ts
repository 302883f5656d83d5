import * as path from 'node:path';
import vscode = require('vscode');
import { RuleSet } from '../../policy/rules';
import { ownFolderGlobs } from '../../runtime/ownFolders';
import type { Rule } from '../../policy/rules';
import type { PolicyPort } from '../../runtime/ports';
import type { ResolvedPath } from '../../runtime/resolvedPath';
import { readPolicySettings } from './policySettings';
import type { PolicySettings } from './policySettings';
import { WorkspaceRules } from './workspaceRules';

type Layers = ReturnType<PolicyPort['layers']>;

/** How many open documents' read marks are kept: the oldest go first. */
const MAX_READ_MARKS = 1000;

/**
 * The policy's view of VS Code: its settings (re-read when they change), the workspace's
 * remembered choices, and which buffers the agent has seen:
 * a write over unsaved edits the agent never read asks first, whatever the policy says.
 */
export class HostPolicy implements PolicyPort, vscode.Disposable {
  readonly workspace: WorkspaceRules;
  private settings: PolicySettings | undefined;
  private readonly byAgent = new Map<string, Layers>();
  /** Per open document, its version when the agent last read it. */
  private readonly readMarks = new Map<string, number>();
  private readonly disposables: vscode.Disposable[];

  /** Globs over the absolute forms of the folders that configure VS Code and ACP Host on this machine (ownFolderGlobs). */
  private readonly ownGlobs: readonly string[];

  /** `ownFolders`: VS Code's user folder (settings, keybindings, every extension's storage) and the extensions folder (their code). */
  constructor(state: vscode.Memento, private readonly report: (message: string) => void, ownFolders: readonly string[] = []) {
    this.ownGlobs = ownFolderGlobs(ownFolders);
    this.workspace = new WorkspaceRules(state, () => this.byAgent.clear());
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (['rules', 'protectedPaths', 'autoApprove'].some((key) => event.affectsConfiguration(`acpHost.${key}`))) this.invalidate();
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.readMarks.delete(doc.uri.toString())),
    ];
  }

  layers(agentName: string): Layers {
    let layers = this.byAgent.get(agentName);
    if (!layers) {
      this.settings ??= readPolicySettings(this.report);
      const { rules, protectedPaths, autoApprove } = this.settings;
      const { mode, alsoSafe } = autoApprove(agentName);
      // Windows stores `.GIT.` and `GIT~1` as `.git`: the policy compares names as it does.
      layers = { settings: new RuleSet(rules), workspace: this.workspace.all, protectedPaths: [...protectedPaths, ...this.ownGlobs], autoApprove: mode, alsoSafe, windowsNames: process.platform === 'win32' };
      this.byAgent.set(agentName, layers);
    }
    return layers;
  }

  rememberForWorkspace(rule: Rule): void {
    void this.workspace.add(rule);
  }

  async writeConcern(target: ResolvedPath): Promise<string | undefined> {
    const doc = this.openDocument(target);
    if (!doc?.isDirty || this.readMarks.get(doc.uri.toString()) === doc.version) return undefined;
    const seen = this.readMarks.has(doc.uri.toString()) ? 'made since the agent last read it' : 'that the agent has not read';
    return `its editor has unsaved changes ${seen}; the write replaces them (Undo in the editor brings them back)`;
  }

  /** The agent read `target`: if it is open, what it saw is that version. */
  markRead(target: ResolvedPath): void {
    const doc = this.openDocument(target);
    if (!doc) return;
    const key = doc.uri.toString();
    this.readMarks.delete(key);
    this.readMarks.set(key, doc.version);
    if (this.readMarks.size > MAX_READ_MARKS) this.readMarks.delete(this.readMarks.keys().next().value!);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private invalidate(): void {
    this.settings = undefined;
    this.byAgent.clear();
  }

  /** The open document `target` is read from and written to: that of its real path, as the reader and writer find it. */
  private openDocument(target: ResolvedPath): vscode.TextDocument | undefined {
    const uri = vscode.Uri.file(target.real).toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  }
}

/**
 * VS Code's user folder (`<user data>/User`: settings.json, keybindings, every extension's global
 * storage, ACP Host's included) and the folder of the installed extensions (code VS Code runs).
 * An extension under development runs from a checkout, whose parent is no extensions folder:
 * then only the checkout itself.
 */
export function ownFolders(extension: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'extensionPath' | 'extensionMode'>): string[] {
  const installed = extension.extensionMode === vscode.ExtensionMode.Production;
  return [path.dirname(path.dirname(extension.globalStorageUri.fsPath)), installed ? path.dirname(extension.extensionPath) : extension.extensionPath];
}
