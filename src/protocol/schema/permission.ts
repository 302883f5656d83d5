import * as z from 'zod/mini';
import { meta } from './common';
import { ToolCallUpdateSchema } from './toolCall';

/** Only a hint for icons and wording: the answer is always one of the agent's `optionId`s. */
export const PermissionOptionKindSchema = z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export type PermissionOptionKind = z.infer<typeof PermissionOptionKindSchema>;

export const PermissionOptionSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: PermissionOptionKindSchema,
  ...meta,
});
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

export const RequestPermissionRequestSchema = z.object({
  sessionId: z.string(),
  /** May hold only `toolCallId` (a call announced before) or more fields to merge into it. */
  toolCall: ToolCallUpdateSchema,
  options: z.array(PermissionOptionSchema),
  ...meta,
});
export type RequestPermissionRequest = z.infer<typeof RequestPermissionRequestSchema>;

/** `cancelled` is the required answer to every pending request once the turn was cancelled. */
export const RequestPermissionOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('cancelled') }),
  z.object({ outcome: z.literal('selected'), optionId: z.string(), ...meta }),
]);
export type RequestPermissionOutcome = z.infer<typeof RequestPermissionOutcomeSchema>;

export const RequestPermissionResponseSchema = z.object({
  outcome: RequestPermissionOutcomeSchema,
  ...meta,
});
export type RequestPermissionResponse = z.infer<typeof RequestPermissionResponseSchema>;
