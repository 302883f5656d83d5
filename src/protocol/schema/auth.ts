import { z } from 'zod';
import { emptyObject, meta } from './common';
import { emptyOnNull, lenientNullable } from './lenient';

/** The agent authenticates by itself when the client calls `authenticate`. A missing `type` means this. */
export const AuthMethodAgentSchema = z.object({
  type: z.literal('agent').optional(),
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
  args: emptyOnNull(z.array(z.string()), []).optional(),
  env: emptyOnNull(z.record(z.string(), z.string()), {}).optional(),
  ...meta,
});
export type AuthMethodTerminal = z.infer<typeof AuthMethodTerminalSchema>;

/**
 * The JSON schema reads any non-`terminal` object as an agent method, but a `type` this client
 * does not know is some other flow (calling `authenticate` for it would be wrong), so it fails
 * here and `InitializeResponse.authMethods` drops it.
 */
export const AuthMethodSchema = z.union([AuthMethodTerminalSchema, AuthMethodAgentSchema]);
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

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
