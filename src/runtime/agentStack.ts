// The agent stack (agent/launch.ts: the process, its process group, the NDJSON connection and
// what they load of Node: child_process, streams), required when the first agent starts rather
// than when the extension loads. Activation and the panel's first paint need none of it, and a
// window where no agent is started never loads it. Within esbuild's bundle the `require` is a
// module evaluated at the first call (the same module, so its classes are the ones everywhere);
// under tsc it is a plain one.

export type AgentStack = typeof import('../agent/launch');

let stack: AgentStack | undefined;

export function agentStack(): AgentStack {
  return (stack ??= require('../agent/launch') as AgentStack);
}
