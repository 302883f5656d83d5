import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { FocusPromptSchema, HostToViewSchema, ViewToHostSchema } from '../../webview-protocol/messages';
import type { HostToView } from '../../webview-protocol/messages';
import { panelHtml } from '../../view/panelHtml';
import { ViewFeed } from '../../view/viewFeed';
import type { FeedSource } from '../../view/viewFeed';
import type { PanelIntent } from './actions';
import { CONTEXT_KEYS } from './sessionContextKeys';

/**
 * The "Agent" webview view: a projection of the controller's transcript and session state. A
 * (re)resolved view asks for a snapshot with `ready`; after that the ViewFeed sends it patches,
 * one post at a time, each answered with `rendered`.
 */
export class AgentViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'acpHost.agentView';
  private view: vscode.WebviewView | undefined;
  private readonly feed = new ViewFeed((message) => this.post(message));
  /** acpHost.focusPrompt showed a view that (re)loads its page: its prompt takes focus once it says `ready`. */
  private focusWhenReady = false;
  /** What `acpHost.panelFocused` says. */
  private focused = false;
  /** Kept for a view not resolved yet (or resolved again): it gets it when it is. */
  private badgeValue: vscode.ViewBadge | undefined;
  private readonly visibility = new vscode.EventEmitter<void>();
  /** Fired when the view is resolved, shown, hidden or disposed. */
  readonly onDidChangeVisibility = this.visibility.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onIntent: (intent: PanelIntent) => void,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Called when the controller is replaced (another agent): the view follows the new one. */
  attach(source: FeedSource): void {
    this.feed.attach(source);
  }

  /** Whether the view is on screen (a view never resolved is not). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The view's badge (on the activity bar's icon while the view is hidden): the WebviewView's own once resolved. Public: the integration tests read it. */
  get badge(): vscode.ViewBadge | undefined {
    return this.view ? this.view.badge : this.badgeValue;
  }

  set badge(badge: vscode.ViewBadge | undefined) {
    this.badgeValue = badge;
    if (this.view) this.view.badge = badge;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.badge = this.badgeValue;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = this.html(view.webview, media);
    view.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = ViewToHostSchema.safeParse(raw);
      if (!parsed.success) {
        this.log.warn(`Ignored an invalid message from the panel: ${parsed.error.issues[0]?.message}`);
        return;
      }
      if (parsed.data.type === 'ready') {
        this.feed.snapshot();
        if (this.focusWhenReady) this.postFocus(view);
      } else if (parsed.data.type === 'rendered') this.feed.rendered(parsed.data.seq);
      else if (parsed.data.type === 'panelFocus') this.setFocused(parsed.data.focused);
      else this.onIntent(parsed.data);
    });
    view.onDidChangeVisibility(() => {
      // A hidden page is gone (not retained): it cannot say it lost the keyboard.
      if (!view.visible) this.setFocused(false);
      this.visibility.fire();
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.setFocused(false);
      this.visibility.fire();
    });
    this.visibility.fire();
  }

  /**
   * Shows the panel with the keyboard in its prompt box (acpHost.focusPrompt). A hidden view has no
   * page (it is not retained): VS Code's focus command loads it, and the box takes focus once the
   * page says `ready`; a shown one is told at once.
   */
  async focusPrompt(): Promise<void> {
    const shown = this.view?.visible === true;
    this.focusWhenReady = !shown;
    await vscode.commands.executeCommand(`${AgentViewProvider.viewId}.focus`);
    if (shown && this.view) this.postFocus(this.view);
  }

  private setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.panelFocused, focused);
  }

  private postFocus(view: vscode.WebviewView): void {
    this.focusWhenReady = false;
    void view.webview.postMessage(FocusPromptSchema.parse({ type: 'focusPrompt' }));
  }

  private post(message: HostToView): void {
    if (!this.view) return; // the next resolve sends a snapshot: nothing is lost
    // Validated on the way out too: the webview must never get a shape it was not built for.
    const checked = HostToViewSchema.parse(message);
    void this.view.webview.postMessage(checked);
  }

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    return panelHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      asset: (name) => webview.asWebviewUri(vscode.Uri.joinPath(media, name)).toString(),
    });
  }

  dispose(): void {
    this.feed.dispose();
    this.visibility.dispose();
  }
}
