import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { HostToViewSchema, ViewToHostSchema } from '../../webview-protocol/messages';
import type { HostToView } from '../../webview-protocol/messages';
import { panelHtml } from '../../view/panelHtml';
import { ViewFeed } from '../../view/viewFeed';
import type { FeedSource } from '../../view/viewFeed';
import type { PanelIntent } from './actions';

/**
 * The "Agent" webview view: a projection of the controller's transcript and session state. A
 * (re)resolved view asks for a snapshot with `ready`; after that the ViewFeed sends it patches,
 * one post at a time, each answered with `rendered`.
 */
export class AgentViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'acpHost.agentView';
  private view: vscode.WebviewView | undefined;
  private readonly feed = new ViewFeed((message) => this.post(message));
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
    view.onDidChangeVisibility(() => this.visibility.fire());
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = this.html(view.webview, media);
    view.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = ViewToHostSchema.safeParse(raw);
      if (!parsed.success) {
        this.log.warn(`Ignored an invalid message from the panel: ${parsed.error.issues[0]?.message}`);
        return;
      }
      if (parsed.data.type === 'ready') this.feed.snapshot();
      else if (parsed.data.type === 'rendered') this.feed.rendered(parsed.data.seq);
      else this.onIntent(parsed.data);
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.visibility.fire();
    });
    this.visibility.fire();
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
