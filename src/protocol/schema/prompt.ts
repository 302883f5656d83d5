import * as z from 'zod/mini';
import { meta } from './common';
import { ContentBlockSchema } from './content';
import { lenientNullable } from './lenient';
import { UsageSchema } from './usage';

/**
 * A user turn. `image`, `audio` and `resource` blocks need the matching prompt capability.
 * The turn ends only with the response; updates stream as `session/update` meanwhile.
 */
export const PromptRequestSchema = z.object({
  sessionId: z.string(),
  prompt: z.array(ContentBlockSchema),
  ...meta,
});
export type PromptRequest = z.infer<typeof PromptRequestSchema>;

/**
 * `refusal`: the refused prompt will not be in the next turn's context. `cancelled` is what an
 * agent must answer after `session/cancel`.
 */
export const StopReasonSchema = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const PromptResponseSchema = z.object({
  stopReason: StopReasonSchema,
  /** Unstable: the turn's tokens (an invalid one reads as absent). */
  usage: lenientNullable(UsageSchema),
  ...meta,
});
export type PromptResponse = z.infer<typeof PromptResponseSchema>;

/** `session/cancel` (a notification): cancels the running turn. */
export const CancelNotificationSchema = z.object({
  sessionId: z.string(),
  ...meta,
});
export type CancelNotification = z.infer<typeof CancelNotificationSchema>;
