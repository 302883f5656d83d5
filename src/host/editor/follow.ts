import vscode = require('vscode');
import type { Transcript, TranscriptEvent } from '../../session/transcript';
import type { ToolEntryView } from '../../webview-protocol/entries';
import { toZeroBasedLine } from '../../workspace/lines';
import { resolveWorkspacePath } from './workspacePaths';

/** What a running tool call points at: its first location, else the file of its first diff. */
function target(entry: ToolEntryView): { path: string; line: number | null } | undefined {
  const location = entry.locations[0];
  if (location) return location;
  const diff = entry.content.find((c) => c.type === 'diff');
  return diff ? { path: diff.path, line: null } : undefined;
}

const isRunning = (entry: ToolEntryView) => entry.status === 'pending' || entry.status === 'in_progress';

/**
 * Follow the agent: while a tool call runs, the file it touches is shown at its line, without
 * taking the keyboard from the prompt box (preserveFocus), and its lines are marked with a
 * subtle decoration that goes when the call ends. Only paths inside the followed session's roots
 * are followed: an agent cannot make the editor open anything else.
 */
export class Follower implements vscode.Disposable {
  /** The theme's own range highlight: subtle in every theme, high contrast included. */
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  /** Per running tool call: what it last pointed at (so an update that moves nothing reopens nothing) and where it is marked. */
  private readonly followed = new Map<string, { key: string; uri?: vscode.Uri; range?: vscode.Range }>();
  private subscription: vscode.Disposable | undefined;
  /** An editor that comes into view (another tab, a split) gets the marks of its file too. */
  private readonly visibleEditors = vscode.window.onDidChangeVisibleTextEditors(() => this.redecorate());
  /** Each follow waits for the one before it, so the editor ends on the agent's latest location. */
  private chain: Promise<void> = Promise.resolve();
  /** The roots of the session followed (SessionOrigin.confinement). */
  private roots: () => readonly string[] = () => [];
  /** Set only by the integration tests (holdUntil). */
  private gate: Promise<void> | undefined;

  constructor(
    private enabled: boolean,
    private readonly log: (message: string) => void,
  ) {}

  attach(transcript: Transcript, roots: () => readonly string[]): void {
    this.subscription?.dispose();
    this.clearAll();
    this.roots = roots;
    this.subscription = transcript.onChange((event) => this.onChange(transcript, event));
  }

  /**
   * The user opens an editor from the panel (a diff, to review the call before allowing it; a
   * location; a link): a follow still on its way (its file being read) gives way, rather than put
   * its preview in the place of what the user opened. What it pointed at counts as followed: the
   * same location again opens nothing, a new one does.
   */
  yieldToUser(): void {
    for (const [toolCallId, { key, uri }] of this.followed) if (uri === undefined) this.followed.set(toolCallId, { key });
  }

  /** Resolves once every follow asked for so far has shown its file or given up (for the integration tests). */
  settled(): Promise<void> {
    return this.chain;
  }

  /**
   * For the integration tests: follows wait until `gate` resolves between reading their file and
   * showing it (undefined: they wait no more), so that a test can open an editor in that window,
   * where a race would otherwise put it only sometimes (a follow's file is usually shown before a
   * diff has been built).
   */
  holdUntil(gate: Promise<void> | undefined): void {
    this.gate = gate;
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) this.clearAll();
  }

  private onChange(transcript: Transcript, event: TranscriptEvent): void {
    if (event.type === 'reset') return this.clearAll();
    if (event.type === 'appended') return;
    const entry = transcript.entries[event.index];
    if (entry?.kind !== 'tool') return;
    const followed = this.followed.get(entry.toolCallId);
    if (!isRunning(entry)) {
      if (followed) this.clear(entry.toolCallId);
      return;
    }
    const where = target(entry);
    if (!this.enabled || !where) return;
    const key = `${where.path}:${where.line ?? ''}`;
    if (followed?.key === key) return;
    const state: { key: string; uri?: vscode.Uri; range?: vscode.Range } = { key };
    this.followed.set(entry.toolCallId, state);
    this.chain = this.chain.then(() => this.show(entry.toolCallId, state, where.path, where.line));
  }

  private async show(toolCallId: string, state: { key: string; uri?: vscode.Uri; range?: vscode.Range }, path: string, line: number | null): Promise<void> {
    // The call may end (or move on, or the user open an editor: yieldToUser) at every await: while
    // earlier follows open their files, while its file is read, while it is shown. Then it shows
    // nothing: its late editor, opened as a preview, would take the place of what the user opened.
    const over = () => this.followed.get(toolCallId) !== state;
    try {
      if (over()) return;
      const uri = await resolveWorkspacePath(path, this.roots());
      const document = await vscode.workspace.openTextDocument(uri);
      if (this.gate) await this.gate;
      if (over()) return;
      const editor = await vscode.window.showTextDocument(document, { preserveFocus: true, preview: true });
      if (over()) return;
      // Without a line the whole file is the call's.
      const range = line === null ? new vscode.Range(0, 0, 0, 0) : document.lineAt(toZeroBasedLine(line, document.lineCount)).range;
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      state.uri = uri;
      state.range = range;
      if (line !== null) this.redecorate();
    } catch (error) {
      // Not in the workspace, missing, binary: not followed, and only worth a log line.
      this.log(`Not following ${JSON.stringify(path)}: ${(error as Error).message}`);
    }
  }

  private clear(toolCallId: string): void {
    this.followed.delete(toolCallId);
    this.redecorate();
  }

  private clearAll(): void {
    this.followed.clear();
    this.redecorate();
  }

  /** Every visible editor shows exactly the ranges of the calls still running in its file. */
  private redecorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const ranges = [...this.followed.values()].filter((f) => f.range && f.uri?.toString() === editor.document.uri.toString()).map((f) => f.range!);
      editor.setDecorations(this.decoration, ranges);
    }
  }

  dispose(): void {
    this.subscription?.dispose();
    this.followed.clear();
    this.visibleEditors.dispose();
    this.decoration.dispose();
  }
}
