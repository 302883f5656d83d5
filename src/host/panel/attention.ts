import vscode = require('vscode');
import { AttentionMarks } from '../../session/attention';
import type { MarkedTab } from '../../session/attention';
import type { SessionTabs, Tab } from '../../session/sessionTabs';
import { shown } from '../../base/shownText';
import { setting } from '../config/settings';
import { AgentViewProvider } from './agentView';

/** What a notification quotes of a session's label. */
const LABEL_MAX = 80;

/**
 * Tells the user when a session needs them while they look elsewhere (session/attention.ts says
 * when): the view's badge counts the sessions marked, the switcher shows each mark, and a
 * notification (acpHost.notify.waits, acpHost.notify.turnEnds) offers to show the session. It
 * watches every open session's questions and turn ends, and what the user looks at: the shown
 * session, in a visible Agent view, in a focused window.
 */
export class AttentionWatcher implements vscode.Disposable {
  readonly marks = new AttentionMarks();
  /** Per open tab, what it listens to. */
  private readonly watched = new Map<string, vscode.Disposable>();
  private readonly subscriptions: vscode.Disposable[];
  /** How the user is told; the integration tests replace it to see what is said. */
  notify: (message: string, action: string) => Thenable<string | undefined> = (message, action) => vscode.window.showInformationMessage(message, action);

  constructor(
    private readonly tabs: SessionTabs,
    private readonly view: AgentViewProvider,
    /** Shows session `key` in the panel. */
    private readonly show: (key: string) => void,
  ) {
    this.subscriptions = [
      tabs.onChange(() => this.sync()),
      vscode.window.onDidChangeWindowState(() => this.look()),
      view.onDidChangeVisibility(() => this.look()),
      this.marks.onChange(() => this.badge()),
    ];
    this.sync();
  }

  /** Fired when a session's mark changes (the switcher shows marks). */
  get onDidChange(): AttentionMarks['onChange'] {
    return this.marks.onChange;
  }

  /** The open sessions as the switcher lists them, each with its mark. */
  sessions(): MarkedTab[] {
    return this.marks.mark(this.tabs.views());
  }

  /** Tabs opened are watched, tabs closed forgotten; the shown one may have changed. */
  private sync(): void {
    const open = new Set(this.tabs.all.map((tab) => tab.key));
    for (const [key, subscription] of this.watched) {
      if (open.has(key)) continue;
      subscription.dispose();
      this.watched.delete(key);
      this.marks.closed(key);
    }
    for (const tab of this.tabs.all) if (!this.watched.has(tab.key)) this.watched.set(tab.key, this.watch(tab));
    this.look();
  }

  private watch(tab: Tab): vscode.Disposable {
    const { key, controller } = tab;
    let phase = controller.currentStatus.phase;
    const status = controller.onStatus((next) => {
      const ended = phase === 'prompting' && next.phase !== 'prompting';
      phase = next.phase;
      if (ended && this.marks.turnEnded(key) && setting('notify.turnEnds')) this.tell(tab, 'finished its turn');
    });
    // Every change of the transcript, so the check is a count, not a search.
    const questions = controller.transcript.onChange(() => {
      if (this.marks.questions(key, controller.transcript.questions.waitingCount) && setting('notify.waits')) this.tell(tab, 'is waiting for your answer');
    });
    return vscode.Disposable.from(status, questions);
  }

  /** What the user looks at now: the shown session, if the view is on screen in a focused window. */
  private look(): void {
    const looking = this.view.visible && vscode.window.state.focused;
    this.marks.look(looking ? this.tabs.shown?.key : undefined);
  }

  private badge(): void {
    const count = this.marks.count;
    this.view.badge = count === 0 ? undefined : { value: count, tooltip: count === 1 ? '1 session needs you' : `${count} sessions need you` };
  }

  private tell({ key, controller }: Tab, what: string): void {
    // The label (a first prompt, or the agent's title) may run over lines: one line of it is enough here.
    void this.notify(`${plain(controller.agentName)} (${plain(controller.label.replace(/[ \t\r\n]+/g, ' '), LABEL_MAX)}) ${what}.`, 'Show').then((choice) => {
      if (choice !== 'Show' || !this.tabs.get(key)) return;
      this.show(key);
      void vscode.commands.executeCommand(`${AgentViewProvider.viewId}.focus`);
    });
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.watched.forEach((subscription) => subscription.dispose());
    this.watched.clear();
    this.marks.dispose();
  }
}

/**
 * No markdown link (VS Code renders `[text](target)` in a notification as a link), and what
 * cannot be seen escaped, on one line, capped (shownText.ts): the name and the label are the
 * settings' and the agent's.
 */
function plain(text: string, max?: number): string {
  return shown(text.replace(/[[\]]+/g, ' ').trim(), max);
}
