import vscode = require('vscode');
import type { ConnectionLog, TraceDirection } from '../../agent/connection';
import { SecretScrubbers, scrubbingLog } from '../../runtime/secrets';
import { DEFAULT_TRACE_LIMITS, TraceStore } from '../../runtime/trace';
import { TraceView } from './traceView';

/** One log channel for the extension, and the protocol trace a user can attach to a bug report. */
export class Logs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('ACP Host', { log: true });
  /** Each agent's secrets (its runtime feeds them): what the log and the trace must not show. */
  readonly secrets = new SecretScrubbers();
  /** Every message both ways, per agent: bounded, secrets redacted (see trace.ts). */
  readonly trace = new TraceStore(DEFAULT_TRACE_LIMITS, this.secrets);
  private readonly traceView = new TraceView(this.trace);

  /** What agents, their sessions and the ports serving them log: an agent's words may quote a secret of any agent's. */
  readonly connectionLog: ConnectionLog = scrubbingLog(this.channel, this.secrets);

  /** Records one message of `agent`'s protocol trace (redacted and clipped on the way in). */
  addTrace(agent: string, direction: TraceDirection, message: unknown): void {
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
