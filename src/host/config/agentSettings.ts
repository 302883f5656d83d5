// The entries of acpHost.agents, validated: what the user's settings (or a workspace's, after
// consent) define as agents. Pure (no vscode), so it is unit-tested in plain Node.
import * as z from 'zod/mini';
import { DEMO_AGENT_NAME } from './settingValues';

export const AgentSettingSchema = z.object({
  name: z.string().check(z.minLength(1)),
  command: z.string().check(z.minLength(1)),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
  cwd: z.optional(z.string()),
});
export type AgentSetting = z.infer<typeof AgentSettingSchema>;

/**
 * The valid entries of one acpHost.agents value (`where` says whose, for the report), one per
 * name: each invalid entry, and each second one of a name, is reported and skipped.
 */
export function parseAgentSettings(raw: unknown, where: string, report: (message: string) => void): AgentSetting[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    report(`Ignored ${where}: it must be an array.`);
    return [];
  }
  const entries: AgentSetting[] = [];
  for (const item of raw) {
    const parsed = AgentSettingSchema.safeParse(item);
    if (!parsed.success) {
      report(`Ignored an invalid entry in ${where}: ${parsed.error.issues[0]?.message ?? 'invalid'} (name: ${JSON.stringify((item as { name?: unknown } | null)?.name ?? null)})`);
      continue;
    }
    if (parsed.data.name === DEMO_AGENT_NAME || entries.some((e) => e.name === parsed.data.name)) {
      report(`Ignored a second agent named "${parsed.data.name}" in ${where}.`);
      continue;
    }
    entries.push(parsed.data);
  }
  return entries;
}
