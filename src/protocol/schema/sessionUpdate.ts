import * as z from 'zod/mini';
import { meta, uint64 } from './common';
import { ContentBlockOrUnknownSchema } from './content';
import { lenientList, lenientNullable, openDiscriminatedUnion } from './lenient';
import { CompactionSummaryChunkSchema, CompactionUpdateSchema, NoticeSchema } from './notice';
import { PlanRemovedSchema, PlanSchema, PlanUpdateSchema } from './plan';
import { SessionConfigOptionListSchema } from './sessionConfig';
import { ToolCallSchema, ToolCallUpdateSchema } from './toolCall';

// `session/update`: everything the agent streams about a session.

/** A piece of a user message (history replay), agent message, or agent thought. */
export const ContentChunkSchema = z.object({
  content: ContentBlockOrUnknownSchema,
  /** Opaque; chunks with the same id belong to one message. */
  messageId: lenientNullable(z.string()),
  ...meta,
});
export type ContentChunk = z.infer<typeof ContentChunkSchema>;

export const UnstructuredCommandInputSchema = z.object({
  hint: z.string(),
  ...meta,
});
export type UnstructuredCommandInput = z.infer<typeof UnstructuredCommandInputSchema>;

/** A slash command; the client runs it by prompting `/name rest…` as text. */
export const AvailableCommandSchema = z.object({
  name: z.string(),
  description: z.string(),
  input: lenientNullable(UnstructuredCommandInputSchema),
  ...meta,
});
export type AvailableCommand = z.infer<typeof AvailableCommandSchema>;

export const AvailableCommandsUpdateSchema = z.object({
  availableCommands: lenientList(AvailableCommandSchema),
  ...meta,
});
export type AvailableCommandsUpdate = z.infer<typeof AvailableCommandsUpdateSchema>;

const currentModeFields = z.object({
  currentModeId: z.optional(z.string()),
  modeId: z.optional(z.string()),
  ...meta,
});

/** The schema says `currentModeId`, the session-modes doc example says `modeId`: read either. */
function withCurrentModeId<T extends z.output<typeof currentModeFields>>(
  { currentModeId, modeId, ...rest }: T,
  ctx: z.core.ParsePayload,
) {
  const id = currentModeId ?? modeId;
  if (id === undefined) {
    ctx.issues.push({ code: 'custom', message: 'currentModeId is required', path: ['currentModeId'], input: rest });
    return z.NEVER;
  }
  return { ...rest, currentModeId: id };
}

export const CurrentModeUpdateSchema = z.pipe(currentModeFields, z.transform(withCurrentModeId));
export type CurrentModeUpdate = z.infer<typeof CurrentModeUpdateSchema>;

export const ConfigOptionUpdateSchema = z.object({
  configOptions: SessionConfigOptionListSchema,
  ...meta,
});
export type ConfigOptionUpdate = z.infer<typeof ConfigOptionUpdateSchema>;

/** A patch: an absent field is unchanged, `null` clears it. */
export const SessionInfoUpdateSchema = z.object({
  title: lenientNullable(z.string()),
  /** ISO 8601 */
  updatedAt: lenientNullable(z.string()),
  ...meta,
});
export type SessionInfoUpdate = z.infer<typeof SessionInfoUpdateSchema>;

export const CostSchema = z.object({
  amount: z.number(),
  /** ISO 4217 */
  currency: z.string(),
  ...meta,
});
export type Cost = z.infer<typeof CostSchema>;

/** Tokens in the context (`used`) out of the context window (`size`). */
export const UsageUpdateSchema = z.object({
  used: uint64,
  size: uint64,
  cost: lenientNullable(CostSchema),
  ...meta,
});
export type UsageUpdate = z.infer<typeof UsageUpdateSchema>;

function updateKind<const K extends string>(sessionUpdate: K) {
  return { sessionUpdate: z.literal(sessionUpdate) };
}

/**
 * One update. A `sessionUpdate` kind this client does not know (e.g. `subagent_update`, which
 * needs a capability we do not advertise, or kinds of later versions) reads as
 * `{ sessionUpdate: 'unknown', kind }` for the caller to log and ignore; a known kind with a
 * bad payload is a validation error. `notice`, `compaction_*` and `plan_update`/`plan_removed`
 * come only with the capabilities the client advertises because the panel shows them.
 */
export const SessionUpdateSchema = openDiscriminatedUnion('sessionUpdate', [
  z.extend(ContentChunkSchema, updateKind('user_message_chunk')),
  z.extend(ContentChunkSchema, updateKind('agent_message_chunk')),
  z.extend(ContentChunkSchema, updateKind('agent_thought_chunk')),
  z.extend(ToolCallSchema, updateKind('tool_call')),
  z.extend(ToolCallUpdateSchema, updateKind('tool_call_update')),
  z.extend(PlanSchema, updateKind('plan')),
  z.extend(AvailableCommandsUpdateSchema, updateKind('available_commands_update')),
  z.pipe(z.extend(currentModeFields, updateKind('current_mode_update')), z.transform(withCurrentModeId)),
  z.extend(ConfigOptionUpdateSchema, updateKind('config_option_update')),
  z.extend(SessionInfoUpdateSchema, updateKind('session_info_update')),
  z.extend(UsageUpdateSchema, updateKind('usage_update')),
  z.extend(NoticeSchema, updateKind('notice')),
  z.extend(CompactionUpdateSchema, updateKind('compaction_update')),
  z.extend(CompactionSummaryChunkSchema, updateKind('compaction_summary_chunk')),
  z.extend(PlanUpdateSchema, updateKind('plan_update')),
  z.extend(PlanRemovedSchema, updateKind('plan_removed')),
]);
export type SessionUpdate = z.infer<typeof SessionUpdateSchema>;
export type UnknownSessionUpdate = Extract<SessionUpdate, { sessionUpdate: 'unknown' }>;

/** `session/update` params. */
export const SessionNotificationSchema = z.object({
  sessionId: z.string(),
  update: SessionUpdateSchema,
  ...meta,
});
export type SessionNotification = z.infer<typeof SessionNotificationSchema>;
