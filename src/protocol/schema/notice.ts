import * as z from 'zod/mini';
import { meta } from './common';
import { ContentBlockOrUnknownSchema, ContentBlockSchema } from './content';
import { lenientArray, lenientNullable } from './lenient';

// Session updates an agent sends only when the client advertised `session.notices` or
// `session.compaction` (SDK schema; the repository's unstable schema sends notices unasked).

/**
 * `notice`: fire-and-forget information for the user, not session history. The severity is open:
 * `info`, `warning`, `error`, or a custom or future string (shown as `info`).
 */
export const NoticeSchema = z.object({
  severity: z.string(),
  /** Plain text that stands alone. */
  title: z.string().check(z.minLength(1)),
  description: lenientNullable(z.string()),
  ...meta,
});
export type Notice = z.infer<typeof NoticeSchema>;

/**
 * `compaction_update`: an upsert of the compaction `compactionId`; the first one fixes its place
 * in the timeline. `summary` and `error` are patches: absent leaves them, `null` (or `summary: []`)
 * clears, a value replaces. The status is open: `in_progress`, `completed`, `failed`,
 * `cancelled`, or a custom or future string.
 */
export const CompactionUpdateSchema = z.object({
  compactionId: z.string(),
  status: z.string(),
  summary: lenientNullable(lenientArray(ContentBlockSchema)),
  error: lenientNullable(z.string()),
  ...meta,
});
export type CompactionUpdate = z.infer<typeof CompactionUpdateSchema>;

/** `compaction_summary_chunk`: one block appended to that compaction's summary (a first-seen id starts one, in progress). */
export const CompactionSummaryChunkSchema = z.object({
  compactionId: z.string(),
  content: ContentBlockOrUnknownSchema,
  ...meta,
});
export type CompactionSummaryChunk = z.infer<typeof CompactionSummaryChunkSchema>;
