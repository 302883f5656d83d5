import * as z from 'zod/mini';
import { emptyObject, meta } from './common';
import { emptyOnNull, lenientArray, lenientList, lenientNullable, lenientOptional, nullAsEmpty } from './lenient';
import { McpServerSchema } from './mcp';
import { SessionConfigOptionSchema, sessionStateFields } from './sessionConfig';

// Session lifecycle: new, load, resume, list, close, delete, and mode/config changes.
// Paths (`cwd`, `additionalDirectories`) are absolute.

const mcpServers = emptyOnNull(z.array(McpServerSchema), []);
/** Send only if `sessionCapabilities.additionalDirectories`; on load/resume, send the full list again. */
const additionalDirectories = z.optional(emptyOnNull(z.array(z.string()), []));

export const NewSessionRequestSchema = z.object({
  cwd: z.string(),
  /** Required, even when empty. */
  mcpServers,
  additionalDirectories,
  ...meta,
});
export type NewSessionRequest = z.infer<typeof NewSessionRequestSchema>;

export const NewSessionResponseSchema = z.object({
  sessionId: z.string(),
  ...sessionStateFields,
  ...meta,
});
export type NewSessionResponse = z.infer<typeof NewSessionResponseSchema>;

/** Gated by `agentCapabilities.loadSession`. The agent replays the history as `session/update`s before it answers. */
export const LoadSessionRequestSchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers,
  additionalDirectories,
  ...meta,
});
export type LoadSessionRequest = z.infer<typeof LoadSessionRequestSchema>;

export const LoadSessionResponseSchema = nullAsEmpty(z.object({ ...sessionStateFields, ...meta }));
export type LoadSessionResponse = z.infer<typeof LoadSessionResponseSchema>;

/** Gated by `sessionCapabilities.resume`. Unlike load, nothing is replayed. */
export const ResumeSessionRequestSchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: z.optional(mcpServers),
  additionalDirectories,
  ...meta,
});
export type ResumeSessionRequest = z.infer<typeof ResumeSessionRequestSchema>;

export const ResumeSessionResponseSchema = nullAsEmpty(z.object({ ...sessionStateFields, ...meta }));
export type ResumeSessionResponse = z.infer<typeof ResumeSessionResponseSchema>;

/**
 * UNSTABLE (only in schema.v1.unstable.json; may change or go): gated by
 * `sessionCapabilities.fork`. A new session holding the whole conversation of `sessionId` (there
 * is no "up to message N"); its later turns do not reach the original. `mcpServers` is optional
 * here, as on resume.
 */
export const ForkSessionRequestSchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: z.optional(mcpServers),
  additionalDirectories,
  ...meta,
});
export type ForkSessionRequest = z.infer<typeof ForkSessionRequestSchema>;

/** UNSTABLE: the new session's id, and its state as `session/new` would answer it. */
export const ForkSessionResponseSchema = z.object({
  sessionId: z.string(),
  ...sessionStateFields,
  ...meta,
});
export type ForkSessionResponse = z.infer<typeof ForkSessionResponseSchema>;

/** Gated by `sessionCapabilities.list`. Cursors are opaque and must not be persisted. */
export const ListSessionsRequestSchema = nullAsEmpty(
  z.object({
    cwd: z.nullish(z.string()),
    cursor: z.nullish(z.string()),
    ...meta,
  }),
);
export type ListSessionsRequest = z.infer<typeof ListSessionsRequestSchema>;

export const SessionInfoSchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  additionalDirectories: lenientOptional(lenientArray(z.string())),
  title: lenientNullable(z.string()),
  /** ISO 8601 */
  updatedAt: lenientNullable(z.string()),
  ...meta,
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const ListSessionsResponseSchema = z.object({
  sessions: lenientList(SessionInfoSchema),
  /** Absent at the end of the list. */
  nextCursor: lenientNullable(z.string()),
  ...meta,
});
export type ListSessionsResponse = z.infer<typeof ListSessionsResponseSchema>;

/** Gated by `sessionCapabilities.close`. Cancels ongoing work, then frees the session. */
export const CloseSessionRequestSchema = z.object({
  sessionId: z.string(),
  ...meta,
});
export type CloseSessionRequest = z.infer<typeof CloseSessionRequestSchema>;

export const CloseSessionResponseSchema = emptyObject();
export type CloseSessionResponse = z.infer<typeof CloseSessionResponseSchema>;

/** Gated by `sessionCapabilities.delete`. Removes the session from later `session/list` results. */
export const DeleteSessionRequestSchema = z.object({
  sessionId: z.string(),
  ...meta,
});
export type DeleteSessionRequest = z.infer<typeof DeleteSessionRequestSchema>;

export const DeleteSessionResponseSchema = emptyObject();
export type DeleteSessionResponse = z.infer<typeof DeleteSessionResponseSchema>;

/** Legacy modes API: only when the agent returned `modes`. */
export const SetSessionModeRequestSchema = z.object({
  sessionId: z.string(),
  modeId: z.string(),
  ...meta,
});
export type SetSessionModeRequest = z.infer<typeof SetSessionModeRequestSchema>;

export const SetSessionModeResponseSchema = emptyObject();
export type SetSessionModeResponse = z.infer<typeof SetSessionModeResponseSchema>;

const setConfigOptionTarget = {
  sessionId: z.string(),
  configId: z.string(),
  ...meta,
};

/** Boolean values carry `type: "boolean"`; select values (a value id) carry no `type`. */
export const SetSessionConfigOptionRequestSchema = z.union([
  z.object({ ...setConfigOptionTarget, type: z.literal('boolean'), value: z.boolean() }),
  z.object({ ...setConfigOptionTarget, value: z.string() }),
]);
export type SetSessionConfigOptionRequest = z.infer<typeof SetSessionConfigOptionRequestSchema>;

/**
 * The complete new set (changing one option may change others). Agents answer `null` or `{}`
 * too, meaning the value was applied and nothing else changed, so the set may be absent; a
 * value that is no list reads as `[]` (the schema's default-on-error).
 */
export const SetSessionConfigOptionResponseSchema = nullAsEmpty(
  z.object({
    configOptions: z.optional(z.catch(lenientArray(SessionConfigOptionSchema), () => [])),
    ...meta,
  }),
);
export type SetSessionConfigOptionResponse = z.infer<typeof SetSessionConfigOptionResponseSchema>;
