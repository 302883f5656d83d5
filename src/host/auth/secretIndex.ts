// Where `env_var` sign-in values are kept: one SecretStorage entry per agent (its name AND its
// launch identity, runtime/agentIdentity.ts) and variable, and an index of the variable names
// (never the values) in globalState, so they can be listed and forgotten. Pure (no vscode).
import * as z from 'zod/mini';
import type { SecretOwner } from '../../runtime/agentIdentity';

const IndexEntrySchema = z.object({ name: z.string(), identity: z.string(), vars: z.array(z.string()) });
export type SecretIndex = z.infer<typeof IndexEntrySchema>[];

/** The SecretStorage key of one agent's variable. */
export function secretKey(owner: SecretOwner, varName: string): string {
  return `acpHost.agentSecret:${JSON.stringify([owner.name, owner.identity, varName])}`;
}

/** The key of the versions that stored secrets under the agent's name alone (a 2-element array, so it never equals a secretKey). */
export function legacySecretKey(agentName: string, varName: string): string {
  return `acpHost.agentSecret:${JSON.stringify([agentName, varName])}`;
}

/** The index as stored, each entry that does not parse dropped. */
export function readIndex(raw: unknown): SecretIndex {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = IndexEntrySchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** `entry` is exactly this agent's: the same name and the same launch identity. */
export const owns = (entry: SecretOwner, owner: SecretOwner) => entry.name === owner.name && entry.identity === owner.identity;

/** The variables stored for exactly this agent: same name and same launch identity. */
export function varsOf(index: SecretIndex, owner: SecretOwner): string[] {
  return index.find((entry) => owns(entry, owner))?.vars ?? [];
}

export function withVar(index: SecretIndex, owner: SecretOwner, varName: string): SecretIndex {
  const vars = [...new Set([...varsOf(index, owner), varName])];
  return [...index.filter((entry) => !owns(entry, owner)), { name: owner.name, identity: owner.identity, vars }];
}

/** The older index: agent name → variable names, as far as it parses. */
export function readLegacyIndex(raw: unknown): Record<string, string[]> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const index: Record<string, string[]> = {};
  for (const [name, vars] of Object.entries(raw)) {
    if (Array.isArray(vars)) index[name] = vars.filter((v): v is string => typeof v === 'string');
  }
  return index;
}

export interface Migration {
  /** Secrets that go to the user's own agent of their name. */
  moves: { owner: SecretOwner; varName: string }[];
  /** Secrets of a name the user has no agent of (a workspace's, or one since removed): deleted, asked again when needed. */
  dropped: { name: string; varName: string }[];
}

/**
 * Where each secret stored under an agent's name alone goes: to the user's own definition of
 * that name (`ownIdentity`: their settings' entry, else the built-in one). None is handed to a
 * workspace's definition, whose secrets are its own.
 */
export function planMigration(legacy: Record<string, string[]>, ownIdentity: (agentName: string) => string | undefined): Migration {
  const migration: Migration = { moves: [], dropped: [] };
  for (const [name, vars] of Object.entries(legacy)) {
    const identity = ownIdentity(name);
    for (const varName of vars) {
      if (identity === undefined) migration.dropped.push({ name, varName });
      else migration.moves.push({ owner: { name, identity }, varName });
    }
  }
  return migration;
}
