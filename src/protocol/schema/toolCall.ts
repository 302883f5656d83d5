import * as z from 'zod/mini';
import { meta, uint32 } from './common';
import { ContentBlockSchema } from './content';
import { isRecord, lenientArray, lenientNullable, lenientOptional, preprocess, tagsOf } from './lenient';

export const ToolKindSchema = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/** There is no `cancelled` on the wire: a cancelled turn's unfinished calls are a UI-only state. */
export const ToolCallStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed']);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

const toolCallContentVariants = [
  z.object({ type: z.literal('content'), content: ContentBlockSchema, ...meta }),
  /** Full old and new texts (not a unified diff); `oldText` absent or null means a new file. */
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: lenientNullable(z.string()),
    newText: z.string(),
    ...meta,
  }),
  /** Live output of a terminal the agent created through `terminal/create`. */
  z.object({ type: z.literal('terminal'), terminalId: z.string(), ...meta }),
] as const;

const contentBlockTypes = tagsOf(ContentBlockSchema);

/**
 * The docs' examples put bare content blocks where the schema wants
 * `{type: 'content', content: <block>}`; both read as the latter.
 */
export const ToolCallContentSchema = preprocess(
  (value) =>
    isRecord(value) && contentBlockTypes.has(value.type)
      ? { type: 'content', content: value }
      : value,
  z.discriminatedUnion('type', toolCallContentVariants),
);
export type ToolCallContent = z.infer<typeof ToolCallContentSchema>;
export type ContentToolCallContent = Extract<ToolCallContent, { type: 'content' }>;
export type DiffToolCallContent = Extract<ToolCallContent, { type: 'diff' }>;
export type TerminalToolCallContent = Extract<ToolCallContent, { type: 'terminal' }>;

/** A file the tool call touches, for follow-along; `line` is 1-based. */
export const ToolCallLocationSchema = z.object({
  path: z.string(),
  line: lenientNullable(uint32),
  ...meta,
});
export type ToolCallLocation = z.infer<typeof ToolCallLocationSchema>;

// Content items of unknown `type` (and otherwise invalid items) are dropped, per the schema's
// skip-invalid-items marker; an unknown kind or status reads as absent (the docs' defaults,
// `other` and `pending`, are the caller's to apply: in an update, absent means "unchanged").

/** `tool_call`: announces a tool call. */
export const ToolCallSchema = z.object({
  toolCallId: z.string(),
  title: z.string(),
  /** Programmatic tool name, when it differs from the human title. */
  name: lenientNullable(z.string()),
  kind: lenientOptional(ToolKindSchema),
  status: lenientOptional(ToolCallStatusSchema),
  content: lenientOptional(lenientArray(ToolCallContentSchema)),
  locations: lenientOptional(lenientArray(ToolCallLocationSchema)),
  rawInput: z.optional(z.unknown()),
  rawOutput: z.optional(z.unknown()),
  ...meta,
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * `tool_call_update` and `session/request_permission`'s `toolCall`: a patch of a tool call
 * announced before. `content` and `locations` replace the stored arrays.
 */
export const ToolCallUpdateSchema = z.object({
  toolCallId: z.string(),
  title: lenientNullable(z.string()),
  name: lenientNullable(z.string()),
  kind: lenientNullable(ToolKindSchema),
  status: lenientNullable(ToolCallStatusSchema),
  content: lenientNullable(lenientArray(ToolCallContentSchema)),
  locations: lenientNullable(lenientArray(ToolCallLocationSchema)),
  rawInput: z.optional(z.unknown()),
  rawOutput: z.optional(z.unknown()),
  ...meta,
});
export type ToolCallUpdate = z.infer<typeof ToolCallUpdateSchema>;
