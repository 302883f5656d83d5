import * as z from 'zod/mini';

/**
 * The `_meta` key with which the Claude Agent adapter (`@agentclientprotocol/claude-agent-acp`)
 * marks the work of a subagent for a client that does not advertise the unstable `subagents`
 * capability: each tool call the subagent makes carries `claudeCode.parentToolUseId`, the id of
 * the Agent/Task tool call that started it. Anything else under `_meta` stays uninterpreted.
 */
function claudeSubagentMetaSchema() {
  return z.object({ claudeCode: z.object({ parentToolUseId: z.string().check(z.minLength(1)) }) });
}
let schema: ReturnType<typeof claudeSubagentMetaSchema> | undefined;

/** The tool call that started the subagent this update's `_meta` says it belongs to, if it says so. */
export function parentToolCallIdOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  // Built at its first use: the session layer imports this without ACP's other schemas (lazySchemas.ts).
  const parsed = (schema ??= claudeSubagentMetaSchema()).safeParse(meta);
  return parsed.success ? parsed.data.claudeCode.parentToolUseId : undefined;
}
