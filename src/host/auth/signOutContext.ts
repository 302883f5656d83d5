import * as vscode from 'vscode';
import type { AgentSession } from '../../session/agentSession';
import { canSignOut } from '../../session/signOut';

/** The `when` clause key of ACP: Sign Out (package.json: the palette and the panel's title menu). */
const CAN_SIGN_OUT = 'acpHost.canSignOut';

/**
 * Keeps `acpHost.canSignOut` true exactly while the shown session's agent runs and advertises
 * `logout` (ACP §3): otherwise neither the palette nor the panel's menu offers ACP: Sign Out.
 */
export class SignOutContext implements vscode.Disposable {
  private shown: boolean | undefined;
  private subscription: { dispose(): void } | undefined;

  /** What the context key says now (for the integration tests, which cannot read a context key). */
  get value(): boolean {
    return this.shown ?? false;
  }

  /** Follows the session the panel shows now: its status changes with every start, stop and crash. */
  follow(session: AgentSession): void {
    this.subscription?.dispose();
    const update = () => this.set(canSignOut(session.agentInfo));
    this.subscription = session.onStatus(update);
    update();
  }

  private set(value: boolean): void {
    if (value === this.shown) return;
    this.shown = value;
    void vscode.commands.executeCommand('setContext', CAN_SIGN_OUT, value);
  }

  dispose(): void {
    this.subscription?.dispose();
  }
}
