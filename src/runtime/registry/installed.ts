// What ACP Host installed from the ACP Registry: per agent, the exact command line it launches,
// kept in the extension's global state and read back through this schema (a record that does
// not parse is dropped with a report, never launched). No `vscode`.
import * as z from 'zod/mini';
import '../../protocol/schema/locale';

export const InstalledAgentSchema = z.object({
  id: z.string().check(z.regex(/^[a-z][a-z0-9-]{0,63}$/)),
  name: z.string().check(z.minLength(1)),
  version: z.string().check(z.minLength(1)),
  kind: z.enum(['binary', 'npx', 'uvx']),
  command: z.string().check(z.minLength(1)),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  /** A binary's folder (global storage: agents/<id>/<version>), removed with it. */
  dir: z.optional(z.string()),
});
export type InstalledAgent = z.infer<typeof InstalledAgentSchema>;

/** The valid records of what global state holds, one per id. */
export function parseInstalled(raw: unknown, report: (message: string) => void): InstalledAgent[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    report('The list of agents installed from the ACP Registry is not a list: ignored.');
    return [];
  }
  const agents: InstalledAgent[] = [];
  for (const item of raw) {
    const parsed = InstalledAgentSchema.safeParse(item);
    if (!parsed.success) report(`Ignored an invalid record of an installed registry agent: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    else if (!agents.some((a) => a.id === parsed.data.id)) agents.push(parsed.data);
  }
  return agents;
}
