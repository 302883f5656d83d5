import * as z from 'zod/mini';
import { meta } from './common';
import { lenientList } from './lenient';

export const PlanEntryPrioritySchema = z.enum(['high', 'medium', 'low']);
export type PlanEntryPriority = z.infer<typeof PlanEntryPrioritySchema>;

export const PlanEntryStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
export type PlanEntryStatus = z.infer<typeof PlanEntryStatusSchema>;

export const PlanEntrySchema = z.object({
  content: z.string(),
  priority: PlanEntryPrioritySchema,
  status: PlanEntryStatusSchema,
  ...meta,
});
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

/** Always the complete plan: it replaces the previous one. Invalid entries are dropped. */
export const PlanSchema = z.object({
  entries: lenientList(PlanEntrySchema),
  ...meta,
});
export type Plan = z.infer<typeof PlanSchema>;

// Id-addressed plans (unstable; only when the client advertised `clientCapabilities.plan`): each
// `plan_update` replaces the plan `planId`, `plan_removed` removes it. Other plans are untouched.

const planId = { planId: z.string() };

/** The new content of one plan: items (the complete list, as `plan` sends), a file, or markdown. */
export const PlanUpdateContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('items'), ...planId, entries: lenientList(PlanEntrySchema), ...meta }),
  z.object({ type: z.literal('file'), ...planId, uri: z.string(), ...meta }),
  z.object({ type: z.literal('markdown'), ...planId, content: z.string(), ...meta }),
]);
export type PlanUpdateContent = z.infer<typeof PlanUpdateContentSchema>;

export const PlanUpdateSchema = z.object({
  plan: PlanUpdateContentSchema,
  ...meta,
});
export type PlanUpdate = z.infer<typeof PlanUpdateSchema>;

export const PlanRemovedSchema = z.object({
  ...planId,
  ...meta,
});
export type PlanRemoved = z.infer<typeof PlanRemovedSchema>;
