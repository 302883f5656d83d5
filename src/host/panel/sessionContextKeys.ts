import vscode = require('vscode');
import type { AgentSession } from '../../session/agentSession';
import { canSignOut } from '../../session/signOut';

/** The `when` clause keys of package.json (keybindings, menus): the panel's focus, and the shown session. */
export const CONTEXT_KEYS = {
  /** The panel's page has the keyboard (set by AgentViewProvider from the page's focus and blur). */
  panelFocused: 'acpHost.panelFocused',
  /** A turn runs: Stop (acpHost.cancelTurn) has something to stop. */
  turnRunning: 'acpHost.turnRunning',
  /** A permission request waits on the user: acpHost.acceptPermission and acpHost.rejectPermission answer it. */
  permissionWaiting: 'acpHost.permissionWaiting',
  /** The shown session's agent runs and advertises `logout` (ACP §3): ACP: Sign Out is offered (palette, the panel's menu). */
  canSignOut: 'acpHost.canSignOut',
} as const;

type Key = Exclude<keyof typeof CONTEXT_KEYS, 'panelFocused'>;

/**
 * Keeps the context keys true exactly while the shown session is in that state. They are
 * recomputed on each status and transcript change (O(1) each: the phase, the oldest waiting
 * permission, the agent's capabilities) and sent to VS Code only when one changes, not for every
 * streamed chunk.
 */
export class SessionContextKeys implements vscode.Disposable {
  private readonly values = new Map<Key, boolean>();
  private readonly subscriptions: { dispose(): void }[] = [];

  /** What a context key says now (for the integration tests, which cannot read one). */
  value(key: Key): boolean {
    return this.values.get(key) ?? false;
  }

  /** Follows the session the panel shows now. */
  follow(session: AgentSession): void {
    this.dispose();
    const update = () => {
      this.set('turnRunning', session.currentStatus.phase === 'prompting');
      this.set('canSignOut', canSignOut(session.agentInfo));
      this.set('permissionWaiting', session.transcript.questions.firstPermission !== undefined);
    };
    this.subscriptions.push(session.onStatus(update), session.transcript.onChange(update));
    update();
  }

  private set(key: Key, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS[key], value);
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}
