import * as z from 'zod/mini';
import { AuthMethodSchema } from './auth';
import { AgentCapabilitiesSchema, ClientCapabilitiesSchema } from './capabilities';
import { meta, uint16 } from './common';
import { lenientArray, lenientNullable, lenientOptional } from './lenient';

/** Who is on the other end (for display and logs). */
export const ImplementationSchema = z.object({
  name: z.string(),
  version: z.string(),
  title: lenientNullable(z.string()),
  ...meta,
});
export type Implementation = z.infer<typeof ImplementationSchema>;

/** The first request on every connection. */
export const InitializeRequestSchema = z.object({
  /** The latest version the client speaks. */
  protocolVersion: uint16,
  clientCapabilities: lenientOptional(ClientCapabilitiesSchema),
  clientInfo: lenientNullable(ImplementationSchema),
  ...meta,
});
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

export const InitializeResponseSchema = z.object({
  /** The client's version if the agent speaks it, else the agent's latest. */
  protocolVersion: uint16,
  agentCapabilities: lenientOptional(AgentCapabilitiesSchema),
  /** Absent means none (the schema's default is `[]`). */
  authMethods: lenientOptional(lenientArray(AuthMethodSchema)),
  agentInfo: lenientNullable(ImplementationSchema),
  ...meta,
});
export type InitializeResponse = z.infer<typeof InitializeResponseSchema>;
