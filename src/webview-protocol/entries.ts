import { z } from 'zod';

/**
 * What the panel shows, in the panel's own terms (never raw ACP types): the host's transcript
 * model maps to these, the webview renders them. Shared by both sides, validated on both.
 */
export const PermissionOptionViewSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});

export const ToolLocationViewSchema = z.object({ path: z.string(), line: z.number().int().nullable() });

export const ToolContentViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('diff'), path: z.string(), oldText: z.string().nullable(), newText: z.string() }),
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);

export const EntryViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), text: z.string() }),
  z.object({ kind: z.literal('agent'), text: z.string() }),
  z.object({ kind: z.literal('thought'), text: z.string() }),
  z.object({
    kind: z.literal('tool'),
    toolCallId: z.string(),
    title: z.string(),
    toolKind: z.string(),
    status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'unfinished']),
    content: z.array(ToolContentViewSchema),
    locations: z.array(ToolLocationViewSchema),
    /** Present while the agent waits for the user's choice. */
    permission: z.array(PermissionOptionViewSchema).optional(),
  }),
  z.object({
    kind: z.literal('plan'),
    entries: z.array(
      z.object({
        content: z.string(),
        priority: z.enum(['high', 'medium', 'low']),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    ),
  }),
  z.object({
    kind: z.literal('turnEnd'),
    stopReason: z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']),
  }),
  z.object({ kind: z.literal('error'), message: z.string() }),
]);

export type EntryView = z.infer<typeof EntryViewSchema>;
export type ToolEntryView = Extract<EntryView, { kind: 'tool' }>;
export type ToolContentView = z.infer<typeof ToolContentViewSchema>;
export type PermissionOptionView = z.infer<typeof PermissionOptionViewSchema>;
export type StopReasonView = Extract<EntryView, { kind: 'turnEnd' }>['stopReason'];
