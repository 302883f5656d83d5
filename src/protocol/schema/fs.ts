import * as z from 'zod/mini';
import { emptyObject, meta, uint32 } from './common';
import { lenientNullable } from './lenient';

// Client file system access, so agents see unsaved editor buffers and the client sees edits.
// Gated by `clientCapabilities.fs.readTextFile` / `.writeTextFile`. Paths are absolute.

export const ReadTextFileRequestSchema = z.object({
  sessionId: z.string(),
  path: z.string(),
  /**
   * 1-based first line to read. The schema's minimum is 0, so 0 — like null or absent — means
   * "from the start".
   */
  line: lenientNullable(uint32),
  /** Maximum number of lines; null or absent means no limit. */
  limit: lenientNullable(uint32),
  ...meta,
});
export type ReadTextFileRequest = z.infer<typeof ReadTextFileRequestSchema>;

export const ReadTextFileResponseSchema = z.object({
  content: z.string(),
  ...meta,
});
export type ReadTextFileResponse = z.infer<typeof ReadTextFileResponseSchema>;

/** Must create the file if it is missing. */
export const WriteTextFileRequestSchema = z.object({
  sessionId: z.string(),
  path: z.string(),
  content: z.string(),
  ...meta,
});
export type WriteTextFileRequest = z.infer<typeof WriteTextFileRequestSchema>;

export const WriteTextFileResponseSchema = emptyObject();
export type WriteTextFileResponse = z.infer<typeof WriteTextFileResponseSchema>;
