import * as vscode from 'vscode';
import type { ConnectionLog, TraceDirection } from '../../agent/connection';
import { TraceStore } from '../../runtime/trace';
import { setting } from '../config/settings';
import { TraceView } from './traceView';

/** One log channel for the extension, and the protocol trace a user can attach to a bug report. */
export class Logs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('ACP Host', { log: true });
  /** Every message both ways, per agent: bounded, secrets redacted (see trace.ts). */
  readonly trace = new TraceStore();
  private readonly traceView = new TraceView(this.trace);

  get connectionLog(): ConnectionLog {
    return {
      info: (m) => this.channel.info(m),
      warn: (m) => this.channel.warn(m),
      error: (m) => this.channel.error(m),
    };
  }

  /** Records one message of `agent`'s protocol trace (redacted and clipped on the way in). */
  addTrace(agent: string, direction: TraceDirection, message: unknown): void {
    // Each start re-reads the agent's configured env: its values are masked wherever they appear.
    if (direction === 'send' && (message as { method?: unknown } | null)?.method === 'initialize') this.trace.addSecrets(agent, configuredEnvValues(agent));
    this.trace.add(agent, direction, message);
  }

  traceText(agent: string): string {
    return this.trace.text(agent);
  }

  showTrace(agent: string): Promise<vscode.TextDocument> {
    return this.traceView.show(agent);
  }

  copyTrace(agent: string): Promise<string> {
    return this.traceView.copy(agent);
  }

  dispose(): void {
    this.traceView.dispose();
    this.channel.dispose();
  }
}

/** The values of the `env` an agent is configured with in acpHost.agents (API keys, typically). */
function configuredEnvValues(agent: string): string[] {
  const values: string[] = [];
  for (const entry of setting('agents')) {
    const { name, env } = (entry ?? {}) as { name?: unknown; env?: unknown };
    if (name !== agent || typeof env !== 'object' || env === null) continue;
    for (const value of Object.values(env)) if (typeof value === 'string') values.push(value);
  }
  return values;
}
