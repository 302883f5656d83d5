import { z } from 'zod';
import { EntryViewSchema } from './entries';

/** Where the agent and its session stand, for the panel's header and buttons. */
export const StatusViewSchema = z.object({
  agentName: z.string(),
  phase: z.enum(['idle', 'starting', 'ready', 'prompting', 'crashed']),
  /** The crash or start failure, with exit code and stderr tail, when phase is crashed. */
  detail: z.string().optional(),
});
export type StatusView = z.infer<typeof StatusViewSchema>;

export const HostToViewSchema = z.discriminatedUnion('type', [
  /** The whole state: sent whenever the view is (re)resolved, so nothing lives only in the DOM. */
  z.object({ type: z.literal('snapshot'), status: StatusViewSchema, entries: z.array(EntryViewSchema) }),
  z.object({ type: z.literal('entry'), index: z.number().int().nonnegative(), entry: EntryViewSchema }),
  z.object({ type: z.literal('status'), status: StatusViewSchema }),
]);
export type HostToView = z.infer<typeof HostToViewSchema>;

export const ViewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('restart') }),
  z.object({ type: z.literal('prompt'), text: z.string().min(1).max(1_000_000) }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('permission'), toolCallId: z.string(), optionId: z.string() }),
]);
export type ViewToHost = z.infer<typeof ViewToHostSchema>;
