import * as z from 'zod/mini';
import { emptyObject, meta } from './common';
import { emptyOnNull, lenientArray, lenientNullable, lenientOptional } from './lenient';

/** The agent authenticates by itself when the client calls `authenticate`. A missing `type` means this. */
export const AuthMethodAgentSchema = z.object({
  type: z.optional(z.literal('agent')),
  id: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  ...meta,
});
export type AuthMethodAgent = z.infer<typeof AuthMethodAgentSchema>;

/**
 * The client runs the agent command again, interactively, with `args` added and `env` laid
 * over its environment; exit code 0 means success. Never passed to `authenticate`.
 */
export const AuthMethodTerminalSchema = z.object({
  type: z.literal('terminal'),
  id: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  args: z.optional(emptyOnNull(z.array(z.string()), [])),
  env: z.optional(emptyOnNull(z.record(z.string(), z.string()), {})),
  ...meta,
});
export type AuthMethodTerminal = z.infer<typeof AuthMethodTerminalSchema>;

/** A POSIX-style environment variable name: nothing an agent could use to smuggle `=` or NUL into an env. */
const envVarName = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/));

/**
 * CLIENT-SIDE EXTENSION, not in the ACP v1 schema (`schema.v1.json` has only `agent` and
 * `terminal`): the agent reads a credential from an environment variable. The client asks the
 * user for it once, keeps it in its secret store and restarts the agent with it set. Accepted in
 * two shapes seen in ACP's auth-methods RFD: a single `varName`, or `vars: [{name, label?,
 * optional?}]` (several variables). Both are normalized to `vars`; invalid entries are dropped,
 * and a method left with no variable fails (and is dropped from `authMethods`).
 */
const AuthMethodEnvVarFields = z.object({
  type: z.literal('env_var'),
  id: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  varName: lenientOptional(envVarName),
  vars: lenientOptional(
    lenientArray(
      z.object({ name: envVarName, label: lenientNullable(z.string()), optional: lenientOptional(z.boolean()) }),
    ),
  ),
  /** Where to get the credential (shown in the prompt, never opened by itself). */
  link: lenientNullable(z.string()),
  ...meta,
});
export const AuthMethodEnvVarSchema = z
  .pipe(
    AuthMethodEnvVarFields,
    z.transform(({ varName, vars, ...rest }: z.output<typeof AuthMethodEnvVarFields>) => ({
      ...rest,
      vars: [...(varName !== undefined ? [{ name: varName }] : []), ...(vars ?? []).filter((v) => v.name !== varName)],
    })),
  )
  .check(z.refine((m) => m.vars.length > 0, { message: 'an env_var auth method needs varName or vars' }));
export type AuthMethodEnvVar = z.infer<typeof AuthMethodEnvVarSchema>;

/**
 * The JSON schema reads any non-`terminal` object as an agent method, but a `type` this client
 * does not know is some other flow (calling `authenticate` for it would be wrong), so it fails
 * here and `InitializeResponse.authMethods` drops it. `env_var` is the one extension read here.
 */
export const AuthMethodSchema = z.union([AuthMethodTerminalSchema, AuthMethodEnvVarSchema, AuthMethodAgentSchema]);
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

/**
 * The older shape of a terminal sign-in, from before ACP had the `terminal` type (claude-code-acp,
 * opencode, Copilot CLI and others still send it): an agent-type method whose
 * `_meta["terminal-auth"]` names a whole command line, `{command, args, label, env?}`. Agents
 * send it only to a client whose `clientCapabilities._meta["terminal-auth"]` is true. Unlike the
 * `terminal` type, the agent chooses the program: see runtime/loginCommand.ts for when it runs.
 */
export const TerminalAuthMetaSchema = z.object({
  command: z.string().check(z.minLength(1)),
  args: z._default(emptyOnNull(z.array(z.string()), []), []),
  label: lenientNullable(z.string()),
  env: z._default(emptyOnNull(z.record(z.string(), z.string()), {}), {}),
});
export type TerminalAuthMeta = z.infer<typeof TerminalAuthMetaSchema>;

/** The `_meta["terminal-auth"]` command of an agent-type method, when it has a valid one; a `terminal` method's own shape wins. */
export function legacyTerminalAuth(method: AuthMethod): TerminalAuthMeta | undefined {
  if (method.type !== undefined && method.type !== 'agent') return undefined;
  const parsed = TerminalAuthMetaSchema.safeParse(method._meta?.['terminal-auth']);
  return parsed.success ? parsed.data : undefined;
}

/** Only for `agent` methods. */
export const AuthenticateRequestSchema = z.object({
  methodId: z.string(),
  ...meta,
});
export type AuthenticateRequest = z.infer<typeof AuthenticateRequestSchema>;

export const AuthenticateResponseSchema = emptyObject();
export type AuthenticateResponse = z.infer<typeof AuthenticateResponseSchema>;

/** Gated by `agentCapabilities.auth.logout`. */
export const LogoutRequestSchema = emptyObject();
export type LogoutRequest = z.infer<typeof LogoutRequestSchema>;

export const LogoutResponseSchema = emptyObject();
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;
