import * as z from 'zod/mini';
import { meta } from './common';
import { lenientNullable, lenientOptional } from './lenient';

// What each side supports. Anything absent, `false` or `null` means "not supported"; an invalid
// value reads as absent, i.e. unsupported.

/** A `{}` marker: present (and not null) means supported. */
const supportMarker = lenientNullable(z.object(meta));
const flag = lenientOptional(z.boolean());

export const FileSystemCapabilitiesSchema = z.object({
  readTextFile: flag,
  writeTextFile: flag,
  ...meta,
});
export type FileSystemCapabilities = z.infer<typeof FileSystemCapabilitiesSchema>;

export const AuthCapabilitiesSchema = z.object({
  /** The client can re-run the agent command in an interactive terminal for `terminal` auth methods. */
  terminal: flag,
  ...meta,
});
export type AuthCapabilities = z.infer<typeof AuthCapabilitiesSchema>;

/** Unlike MCP, `{}` advertises no mode at all: each mode needs its own `{}`. */
export const ElicitationCapabilitiesSchema = z.object({
  form: supportMarker,
  url: supportMarker,
  ...meta,
});
export type ElicitationCapabilities = z.infer<typeof ElicitationCapabilitiesSchema>;

export const SessionConfigOptionsCapabilitiesSchema = z.object({
  /** Lets the agent send `type: "boolean"` config options. */
  boolean: supportMarker,
  ...meta,
});
export type SessionConfigOptionsCapabilities = z.infer<typeof SessionConfigOptionsCapabilitiesSchema>;

export const ClientSessionCapabilitiesSchema = z.object({
  configOptions: lenientNullable(SessionConfigOptionsCapabilitiesSchema),
  /** `{}`: the client shows `notice` session updates. */
  notices: supportMarker,
  /** `{}`: the client shows `compaction_update` and `compaction_summary_chunk` (the whole contract). */
  compaction: supportMarker,
  ...meta,
});
export type ClientSessionCapabilities = z.infer<typeof ClientSessionCapabilitiesSchema>;

export const ClientCapabilitiesSchema = z.object({
  fs: lenientOptional(FileSystemCapabilitiesSchema),
  /** Promises all five `terminal/*` methods. */
  terminal: flag,
  auth: lenientOptional(AuthCapabilitiesSchema),
  elicitation: lenientNullable(ElicitationCapabilitiesSchema),
  session: lenientNullable(ClientSessionCapabilitiesSchema),
  /** Unstable: `{}` means the client shows both `plan_update` and `plan_removed`. */
  plan: supportMarker,
  ...meta,
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** `text` and `resource_link` blocks are always allowed in prompts; these gate the others. */
export const PromptCapabilitiesSchema = z.object({
  image: flag,
  audio: flag,
  /** `resource` blocks */
  embeddedContext: flag,
  ...meta,
});
export type PromptCapabilities = z.infer<typeof PromptCapabilitiesSchema>;

/** stdio MCP servers are always supported; these gate the others. */
export const McpCapabilitiesSchema = z.object({
  http: flag,
  sse: flag,
  ...meta,
});
export type McpCapabilities = z.infer<typeof McpCapabilitiesSchema>;

/** `session/load` is gated by `AgentCapabilities.loadSession`, not here. */
export const SessionCapabilitiesSchema = z.object({
  list: supportMarker,
  delete: supportMarker,
  additionalDirectories: supportMarker,
  resume: supportMarker,
  close: supportMarker,
  /** UNSTABLE (schema.v1.unstable.json only): `session/fork`. */
  fork: supportMarker,
  ...meta,
});
export type SessionCapabilities = z.infer<typeof SessionCapabilitiesSchema>;

export const AgentAuthCapabilitiesSchema = z.object({
  logout: supportMarker,
  ...meta,
});
export type AgentAuthCapabilities = z.infer<typeof AgentAuthCapabilitiesSchema>;

export const AgentCapabilitiesSchema = z.object({
  loadSession: flag,
  promptCapabilities: lenientOptional(PromptCapabilitiesSchema),
  mcpCapabilities: lenientOptional(McpCapabilitiesSchema),
  sessionCapabilities: lenientOptional(SessionCapabilitiesSchema),
  auth: lenientOptional(AgentAuthCapabilitiesSchema),
  ...meta,
});
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;
