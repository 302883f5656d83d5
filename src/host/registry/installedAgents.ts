import vscode = require('vscode');
import { parseInstalled } from '../../runtime/registry/installed';
import type { InstalledAgent } from '../../runtime/registry/installed';

const KEY = 'acpHost.registry.installed';

/**
 * The agents installed from the ACP Registry, in the extension's global state (the user's, on
 * this machine: no workspace writes it), each validated when read back. The agent picker lists
 * them (host/config/agentConfig.ts) and follows `onDidChange`.
 */
export class InstalledAgents implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Each problem once: the list is read whenever the picker is. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: (message: string) => void,
  ) {}

  list(): InstalledAgent[] {
    return parseInstalled(this.state.get(KEY), (message) => {
      if (this.reported.has(message)) return;
      this.reported.add(message);
      this.log(message);
    });
  }

  get(id: string): InstalledAgent | undefined {
    return this.list().find((a) => a.id === id);
  }

  /** Adds `agent`, or replaces the one of its id (an update). */
  async put(agent: InstalledAgent): Promise<void> {
    const others = this.list().filter((a) => a.id !== agent.id);
    await this.state.update(KEY, [...others, agent]);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.state.update(KEY, this.list().filter((a) => a.id !== id));
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
