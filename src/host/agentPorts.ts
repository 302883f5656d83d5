import type { AgentSession } from '../session/agentSession';
import type { AgentPorts } from '../runtime/ports';
import type { AgentConfig } from './config/agentConfig';
import type { HostPolicy } from './policy/hostPolicy';
import { confirmLoginCommand, runLoginTerminal } from './auth/authPorts';
import type { AgentSecrets } from './auth/authPorts';
import { readForEmbed } from './attachments/attachmentSources';
import { readTextFile } from './editor/fileReader';
import { writeTextFile } from './editor/fileWriter';
import type { EditReviewer } from './editor/review/editReviewer';
import type { Checkpoints } from './checkpoints/checkpoints';
import type { Logs } from './trace/logs';
import type { WorkspaceAudit } from './audit/workspaceAudit';
import { TerminalPort } from './terminals/terminalPort';

/** The parts of the extension an agent's ports are served by. */
export interface PortSources {
  logs: Logs;
  audit: WorkspaceAudit;
  policy: HostPolicy;
  reviewer: EditReviewer;
  checkpoints: Pick<Checkpoints, 'begin'>;
  config: AgentConfig;
  secrets: AgentSecrets;
}

/**
 * What a session (or, without `owner`, its agent's runtime) gets from VS Code: the fs and
 * terminal ports (recorded in the audit log), the log and the trace, secrets, sign-in, MCP
 * servers, and ACP Host's policy. `owner` is bound late: the port exists before the session
 * whose transcript shows its terminals, and whose roots its paths are confined to (until it
 * exists, and for the runtime, `workspaceFolder` alone).
 */
export function agentPorts(from: PortSources, owner: (() => AgentSession | undefined) | undefined, workspaceFolder: string, agentName: string): AgentPorts {
  const { logs, audit, policy, reviewer, config, secrets } = from;
  const roots = () => owner?.()?.origin.confinement ?? [workspaceFolder];
  const terminals = new TerminalPort({
    baseEnv: config.baseEnv,
    roots,
    log: logs.connectionLog,
    onUpdate: (terminalId, state) => owner?.()?.transcript.tools.updateTerminal(terminalId, state),
  });
  return {
    ...audit.ports(agentName, {
      read: async (request, target, onSource) => {
        const text = await readTextFile(request, target, logs.connectionLog, onSource);
        policy.markRead(target);
        return text;
      },
      write: (request, target, signal) => writeTextFile(request, target, { log: logs.connectionLog, beforeWrite: (uri) => reviewer.beforeWrite(uri), signal }),
      terminals,
    }),
    log: logs.connectionLog,
    onTrace: (name, direction, message) => logs.addTrace(name, direction, message),
    // One scrubber per agent: the runtime feeds it what the agent is given, the log and the trace mask what it knows.
    secrets: (name) => logs.secrets.for(name),
    askSecret: (agent, varName, prompt) => secrets.ask(agent, varName, prompt),
    storedSecrets: (agent) => secrets.stored(agent),
    forgetSecrets: (agent) => secrets.forgetOwner(agent),
    runLoginTerminal,
    confirmLoginCommand,
    mcpServers: (agent) => config.mcpServers(agent, (m) => logs.channel.warn(m)),
    readForEmbed,
    checkpoint: () => from.checkpoints.begin(),
    // The panel renders elicitation forms and URL cards (whose Open the host serves).
    forms: true,
    policy,
  };
}
