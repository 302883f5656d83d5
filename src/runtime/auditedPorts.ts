// The host's fs and terminal ports, recording what they served in the workspace's audit log.
// These record what VS Code did with a request ACP Host let through: written, read from disk,
// started, or refused (-32602: not a regular file, too large), or failed. (A decision of ACP
// Host's policy over the request, and a path confinement refuses, are the policy gate's to record.) No vscode: unit-tested with fakes.
import type { NewAuditEvent } from '../audit/auditEvent';
import type { CreateTerminalRequest, ReadTextFileRequest } from '../protocol';
import { ErrorCodes, RpcError } from '../protocol/errors';
import { withCreate } from './ports';
import type { AgentPorts, TerminalPort } from './ports';
import { commandLine } from './presets';
import type { ResolvedPath } from './resolvedPath';

/** Records one event of one agent's. */
export type AuditRecorder = (event: Omit<NewAuditEvent, 'agent'>) => void;

/** Where a read was served from: an open editor's buffer is the user's own, and not recorded. */
export type ReadSource = 'buffer' | 'disk';
/** `fs/read_text_file` as served by the host, which says where it read from before reading. */
export type SourcedRead = (request: ReadTextFileRequest, target: ResolvedPath, onSource: (source: ReadSource) => void) => Promise<string>;

/** The path served, beside the one named, when they differ (a symlink, `..`): what the audit log keeps of a ResolvedPath. */
export function resolvedField(target: ResolvedPath): { resolved?: string } {
  return target.real === target.requested ? {} : { resolved: target.real };
}

/** How a request that threw went: refused by the workspace's confinement of paths, or failed. */
function outcome(error: unknown): Pick<NewAuditEvent, 'decision' | 'by' | 'detail'> {
  const refused = error instanceof RpcError && error.code === ErrorCodes.InvalidParams;
  return { decision: refused ? 'denied' : 'failed', by: 'default', detail: (error as Error).message };
}

/** Reads from disk are recorded, and refused ones (not a regular file, too large); reads of open buffers are not. */
export function auditReads(read: SourcedRead, record: AuditRecorder): AgentPorts['readTextFile'] {
  return async (request, target) => {
    let source: ReadSource | undefined;
    const event = { kind: 'read', sessionId: request.sessionId, target: request.path, ...resolvedField(target) } as const;
    try {
      const text = await read(request, target, (s) => (source = s));
      if (source === 'disk') record({ ...event, decision: 'allowed', by: 'default', ...lineRange(request) });
      return text;
    } catch (error) {
      if (source !== 'buffer') record({ ...event, ...outcome(error) });
      throw error;
    }
  };
}

export function auditWrites(write: NonNullable<AgentPorts['writeTextFile']>, record: AuditRecorder): NonNullable<AgentPorts['writeTextFile']> {
  return async (request, target, signal) => {
    const event = { kind: 'write', sessionId: request.sessionId, target: request.path, ...resolvedField(target) } as const;
    try {
      await write(request, target, signal);
      record({ ...event, decision: 'allowed', by: 'default', detail: `${request.content.length} characters` });
    } catch (error) {
      record({ ...event, ...outcome(error) });
      throw error;
    }
  };
}

/** `terminal/create` is recorded (the command line, its cwd, the names of the env it sets: never their values); the other terminal methods are not. */
export function auditTerminals(port: TerminalPort, record: AuditRecorder): TerminalPort {
  return withCreate(port, async (request) => {
    const event = { kind: 'terminal', sessionId: request.sessionId, target: terminalCommand(request) } as const;
    const setting = terminalSetting(request);
    try {
      const created = await port.create(request);
      record({ ...event, decision: 'allowed', by: 'default', ...(setting ? { detail: setting } : {}) });
      return created;
    } catch (error) {
      const failed = outcome(error);
      record({ ...event, ...failed, detail: [failed.detail, setting].filter(Boolean).join('; ') });
      throw error;
    }
  });
}

/** With arguments, the program and its quoted arguments; without, the shell line as the agent gave it. */
function terminalCommand(request: CreateTerminalRequest): string {
  const args = request.args ?? [];
  return args.length > 0 ? commandLine(request.command, args) : request.command;
}

function terminalSetting(request: CreateTerminalRequest): string | undefined {
  const env = request.env ?? [];
  const parts = [...(request.cwd ? [`cwd ${request.cwd}`] : []), ...(env.length > 0 ? [`env ${env.map((v) => v.name).join(', ')}`] : [])];
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function lineRange(request: ReadTextFileRequest): { detail?: string } {
  const from = request.line ? `from line ${request.line}` : '';
  const limit = request.limit != null ? `${request.limit} lines` : '';
  const detail = [limit, from].filter(Boolean).join(' ');
  return detail ? { detail } : {};
}
