// The ACP Registry's index (github.com/agentclientprotocol/registry: FORMAT.md, agent.schema.json),
// as zod schemas. Unknown fields are ignored (the format says it may still change); an agent that
// fails its schema is skipped with the reason, never the whole list. No `vscode`.
import * as z from 'zod/mini';
import '../../protocol/schema/locale';

/** The platform keys the format names for binaries (FORMAT.md, "Platform Targets"). */
export const PLATFORM_KEYS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

/** Ids and versions name folders in global storage: nothing that could climb out of them. */
const ID = /^[a-z][a-z0-9-]{0,63}$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]{0,64}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const args = z._default(z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(64)), []);
const env = z._default(z.record(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/)), z.string().check(z.maxLength(4096))), {});

export const BinaryTargetSchema = z.object({
  archive: z.url({ protocol: /^https?$/ }),
  /** Relative to the unpacked archive ("./codex-acp"). */
  cmd: text(512),
  args,
  env,
  /** Not in the format today ("a checksum if any"): verified when an index carries it. */
  sha256: z.optional(z.string().check(z.regex(SHA256))),
});
export type BinaryTarget = z.infer<typeof BinaryTargetSchema>;

export const PackageDistributionSchema = z.object({
  /** "@scope/name", with an optional version ("@google/gemini-cli@0.27.3"). */
  package: text(256),
  args,
  env,
});
export type PackageDistribution = z.infer<typeof PackageDistributionSchema>;

const DistributionSchema = z.object({
  // Keyed by platform: a key this version does not know is simply never this machine's.
  binary: z.optional(z.record(z.string(), BinaryTargetSchema)),
  npx: z.optional(PackageDistributionSchema),
  uvx: z.optional(PackageDistributionSchema),
});

export const RegistryAgentSchema = z.object({
  id: z.string().check(z.regex(ID)),
  name: text(100),
  version: z.string().check(z.regex(VERSION)),
  description: z._default(z.string().check(z.maxLength(1000)), ''),
  repository: z.optional(z.string()),
  website: z.optional(z.string()),
  authors: z._default(z.array(z.string()), []),
  license: z.optional(z.string()),
  distribution: DistributionSchema.check(
    z.refine((d) => d.binary !== undefined || d.npx !== undefined || d.uvx !== undefined, 'distribution names no binary, npx or uvx'),
  ),
});
export type RegistryAgent = z.infer<typeof RegistryAgentSchema>;

const IndexSchema = z.object({ version: z.optional(z.string()), agents: z.array(z.unknown()) });

export interface ParsedIndex {
  agents: RegistryAgent[];
  /** One line per agent left out, with why. */
  skipped: string[];
}

/** The valid agents of an index, one per id; throws only when `raw` is not an index at all. */
export function parseRegistryIndex(raw: unknown): ParsedIndex {
  const index = IndexSchema.safeParse(raw);
  if (!index.success) throw new Error(`not an ACP Registry index: ${index.error.issues[0]?.message ?? 'invalid'} at ${index.error.issues[0]?.path.join('.') || 'the top'}`);
  const agents: RegistryAgent[] = [];
  const skipped: string[] = [];
  const ids = new Set<string>();
  for (const [at, item] of index.data.agents.entries()) {
    const parsed = RegistryAgentSchema.safeParse(item);
    const id = JSON.stringify((item as { id?: unknown } | null)?.id ?? null);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skipped.push(`agent ${at} (id ${id}): ${issue?.message ?? 'invalid'}${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}`);
    } else if (ids.has(parsed.data.id)) {
      skipped.push(`agent ${at} (id ${id}): a second agent with that id`);
    } else {
      ids.add(parsed.data.id);
      agents.push(parsed.data);
    }
  }
  return { agents, skipped };
}
