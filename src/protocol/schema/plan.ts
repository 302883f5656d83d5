import { z } from 'zod';
import { meta } from './common';
import { lenientArray } from './lenient';

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
  entries: lenientArray(PlanEntrySchema),
  ...meta,
});
export type Plan = z.infer<typeof PlanSchema>;
