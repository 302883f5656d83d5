import * as z from 'zod/mini';

/** A blob's name: the SHA-256 of its UTF-8 content, in hex. */
const HashSchema = z.string().check(z.regex(/^[0-9a-f]{64}$/));

/**
 * A file's state when a checkpoint began: the hash of its text; null, it did not exist; false,
 * unknown (binary, too large, past the budget, or never seen before it changed): not restorable.
 */
const FileStateSchema = z.union([HashSchema, z.null(), z.literal(false)]);
export type FileState = z.infer<typeof FileStateSchema>;

const CheckpointSchema = z.object({
  id: z.int().check(z.nonnegative()),
  /** [absolute path, its state before its first change after this checkpoint began]. */
  files: z.array(z.tuple([z.string().check(z.minLength(1)), FileStateSchema])),
});

/** The index of a workspace's checkpoints, as kept in its storage folder (read back through this). */
export const CheckpointIndexSchema = z.object({
  version: z.literal(1),
  /** The id the next checkpoint gets: ids only grow, so an evicted id never names a newer checkpoint. */
  next: z.int().check(z.nonnegative()),
  /** Oldest first, with consecutive ids. */
  checkpoints: z.array(CheckpointSchema),
  /** Every blob the checkpoints name, with its size in bytes. */
  blobs: z.array(z.tuple([HashSchema, z.int().check(z.nonnegative())])),
});
export type CheckpointIndex = z.infer<typeof CheckpointIndexSchema>;

/** Why an index read back is not usable as it is, or null when it is (ids consecutive and below `next`, every hash sized). */
export function indexProblem(index: CheckpointIndex): string | null {
  const sized = new Set(index.blobs.map(([hash]) => hash));
  for (let i = 0; i < index.checkpoints.length; i++) {
    const { id, files } = index.checkpoints[i];
    if (i > 0 && id !== index.checkpoints[i - 1].id + 1) return `checkpoint ${id} does not follow ${index.checkpoints[i - 1].id}`;
    if (id >= index.next) return `checkpoint ${id} is not below next (${index.next})`;
    for (const [, state] of files) if (typeof state === 'string' && !sized.has(state)) return `checkpoint ${id} names a blob the index does not size`;
  }
  return null;
}
