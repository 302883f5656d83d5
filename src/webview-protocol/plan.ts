import * as z from 'zod/mini';

/**
 * The agent's plans as the panel shows them: a plan entry of the transcript, and the current plan
 * pinned above the prompt box (the session view model's `plan`). Apart from entries.ts and
 * session.ts so that both can use them (entries.ts imports session.ts).
 */
export const PlanEntryViewSchema = z.object({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

/** What an id-addressed plan holds: items, markdown (rendered sanitized), or the URI of a file. */
export const PlanContentViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('items'), entries: z.array(PlanEntryViewSchema) }),
  z.object({ type: z.literal('markdown'), text: z.string() }),
  z.object({ type: z.literal('file'), uri: z.string() }),
]);
