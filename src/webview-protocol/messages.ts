import { z } from 'zod';
import { EntryViewSchema } from './entries';
import { SessionViewSchema } from './session';

/** Where the agent and its session stand, for the panel's header and buttons. */
export const StatusViewSchema = z.object({
  agentName: z.string(),
  phase: z.enum(['idle', 'starting', 'ready', 'prompting', 'crashed']),
  /** The crash or start failure, with exit code and stderr tail, when phase is crashed. */
  detail: z.string().optional(),
});
export type StatusView = z.infer<typeof StatusViewSchema>;

const index = z.number().int().nonnegative();

const HostToViewMessageSchema = z.discriminatedUnion('type', [
  /** The whole state: sent whenever the view is (re)resolved, so nothing lives only in the DOM. */
  z.object({ type: z.literal('snapshot'), status: StatusViewSchema, session: SessionViewSchema, entries: z.array(EntryViewSchema) }),
  /** Entry `index` is new or replaced. */
  z.object({ type: z.literal('entry'), index, entry: EntryViewSchema }),
  /** Text streamed onto the end of text entry `index` (user, agent or thought): O(chunk), not O(entry). */
  z.object({ type: z.literal('append'), index, text: z.string() }),
  z.object({ type: z.literal('status'), status: StatusViewSchema }),
  z.object({ type: z.literal('session'), session: SessionViewSchema }),
]);
export type HostToViewMessage = z.infer<typeof HostToViewMessageSchema>;

/**
 * What one `postMessage` carries: one message, or a frame's worth of them, applied in order.
 * Batching keeps a fast stream to one post per frame however many entries changed.
 */
export const HostToViewSchema = z.union([
  HostToViewMessageSchema,
  z.object({ type: z.literal('batch'), messages: z.array(HostToViewMessageSchema) }),
]);
export type HostToView = z.infer<typeof HostToViewSchema>;

export const ViewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('restart') }),
  z.object({ type: z.literal('prompt'), text: z.string().min(1).max(1_000_000) }),
  /** Drops a prompt that is still queued. */
  z.object({ type: z.literal('unqueue'), id: z.number().int() }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('permission'), toolCallId: z.string(), optionId: z.string() }),
  z.object({ type: z.literal('setMode'), modeId: z.string() }),
  z.object({ type: z.literal('setConfigOption'), configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
  /** Open diff `contentIndex` of the tool call at entry `index` in VS Code's diff editor. */
  z.object({ type: z.literal('openDiff'), index, contentIndex: index }),
  /** Open a file (absolute path, confined to the workspace by the host) at a 1-based line. */
  z.object({ type: z.literal('openLocation'), path: z.string(), line: z.number().int().nullable() }),
  /** A link in agent markdown: the host opens only safe schemes. */
  z.object({ type: z.literal('openLink'), href: z.string().max(8192) }),
  /** Review of the agent's edits: a file's baseline ↔ current diff; keep or undo one file (or all, without a path). */
  z.object({ type: z.literal('reviewOpen'), path: z.string() }),
  z.object({ type: z.literal('reviewKeep'), path: z.string().optional() }),
  z.object({ type: z.literal('reviewUndo'), path: z.string().optional() }),
  /** Follow the agent's tool call locations in the editor, or stop. */
  z.object({ type: z.literal('setFollow'), enabled: z.boolean() }),
]);
export type ViewToHost = z.infer<typeof ViewToHostSchema>;
