import * as vscode from 'vscode';
import type { ConnectionLog, TraceDirection } from '../agent/connection';

/** One log channel for the extension, and a bounded protocol trace a user can attach to a bug report. */
export class Logs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('ACP Host', { log: true });
  private readonly trace: string[] = [];

  constructor(private readonly maxTraceLines = 5000) {}

  get connectionLog(): ConnectionLog {
    return {
      info: (m) => this.channel.info(m),
      warn: (m) => this.channel.warn(m),
      error: (m) => this.channel.error(m),
    };
  }

  addTrace(agent: string, direction: TraceDirection, message: unknown): void {
    const text = JSON.stringify(message);
    const clipped = text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} chars)` : text;
    this.trace.push(`${new Date().toISOString()} ${agent} ${direction === 'send' ? '→' : '←'} ${clipped}`);
    if (this.trace.length > this.maxTraceLines) this.trace.splice(0, this.trace.length - this.maxTraceLines);
  }

  traceText(): string {
    return this.trace.join('\n');
  }

  async showTrace(): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ content: this.traceText(), language: 'log' });
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
