import * as z from 'zod/mini';
import { PlanContentViewSchema } from './plan';

/**
 * The session's state beside its transcript: what the agent advertised (commands, modes, config
 * options), what it reported (title, usage), and the prompts waiting for the running turn. The
 * panel shows a picker or a completion only when its part here is non-empty.
 */
export const CommandViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The agent's hint for the text after the command, when it takes any. */
  hint: z.nullable(z.string()),
});

export const ModesViewSchema = z.object({
  currentModeId: z.string(),
  available: z.array(z.object({ id: z.string(), name: z.string(), description: z.nullable(z.string()) })),
});

export const SelectChoiceViewSchema = z.object({ value: z.string(), name: z.string(), description: z.nullable(z.string()) });

const configBase = {
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  /** mode, model, model_config, thought_level or any other string: a hint for the UI only. */
  category: z.nullable(z.string()),
};

export const ConfigOptionViewSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    ...configBase,
    currentValue: z.string(),
    /** Ungrouped choices come as one group named null. */
    groups: z.array(z.object({ name: z.nullable(z.string()), choices: z.array(SelectChoiceViewSchema) })),
  }),
  z.object({ type: z.literal('boolean'), ...configBase, currentValue: z.boolean() }),
]);

export const CostViewSchema = z.object({ amount: z.number(), currency: z.string() });

/** An agent's quota (`_meta.quota`) as labelled numbers or short strings: `used`, `limit`, `requests.remaining`, `resetsAt`. */
export const QuotaViewSchema = z.array(z.object({ label: z.string().check(z.maxLength(100)), value: z.union([z.number(), z.string().check(z.maxLength(100))]) })).check(z.maxLength(16));

export const UsageViewSchema = z.object({
  /** Tokens in the context, out of `size`. */
  used: z.number().check(z.nonnegative()),
  size: z.number().check(z.nonnegative()),
  cost: z.nullable(CostViewSchema),
  /** (A default keeps older snapshots valid.) */
  quota: z._default(z.nullable(QuotaViewSchema), null),
});

/** A file the agent changed in the last turns, not yet kept or undone by the user. */
export const ReviewFileViewSchema = z.object({
  path: z.string(),
  change: z.enum(['modified', 'created', 'deleted']),
  added: z.int().check(z.nonnegative()),
  removed: z.int().check(z.nonnegative()),
});

export const AttachmentKindSchema = z.enum(['file', 'folder', 'selection', 'image', 'comment']);

/** Context attached to the prompt being composed (a chip above the prompt box). */
export const AttachmentViewSchema = z.object({
  /** Host-made; `{type:'detach', id}` removes it. */
  id: z.string(),
  kind: AttachmentKindSchema,
  /** File name, `folder/`, `file.ts:3-9`, the image's name, or `file.ts:3-9 “a review comment”`. */
  label: z.string(),
  /** Where it is (the folder of a file, the path of a selection or comment, with the comment), or the size of an image. */
  detail: z.nullable(z.string()),
  /** Why the current agent cannot take it (an agent switched after it was attached): sending waits until it is removed. */
  problem: z.nullable(z.string()),
});

/** An attachment as a sent prompt lists it (the content went to the agent, not to the panel). */
export const AttachmentLabelSchema = z.object({ kind: AttachmentKindSchema, label: z.string() });

export const QueuedPromptViewSchema = z.object({
  id: z.int(),
  text: z.string(),
  /** What was attached when it was queued: it goes with this prompt. */
  attachments: z.optional(z.array(AttachmentLabelSchema)),
});

export const SessionViewSchema = z.object({
  title: z.nullable(z.string()),
  commands: z.array(CommandViewSchema),
  /** Legacy session modes; null when the agent has none, or has config options (which win). */
  modes: z.nullable(ModesViewSchema),
  configOptions: z.array(ConfigOptionViewSchema),
  usage: z.nullable(UsageViewSchema),
  /** Prompts typed while a turn runs, sent one by one after it. */
  queue: z.array(QueuedPromptViewSchema),
  /** Files the agent changed, for review (diff, keep, undo). */
  review: z.array(ReviewFileViewSchema),
  /** Said beside the review list: changed files it cannot show (their earlier text was over the budget). (A default keeps older snapshots valid.) */
  reviewNote: z._default(z.nullable(z.string()), null),
  /** Whether the editor follows the agent's tool call locations. */
  follow: z.boolean(),
  /** Context attached to the prompt being composed; sent with the next prompt. (Defaults keep older snapshots valid.) */
  attachments: z._default(z.array(AttachmentViewSchema), []),
  /** Why the last attachment was refused (e.g. an image for an agent without image support); cleared by the next change. */
  attachmentNotice: z._default(z.nullable(z.string()), null),
  /** The agent can fork the session (UNSTABLE session/fork): each message of the user offers "Fork from here". */
  canFork: z._default(z.boolean(), false),
  /** This session is a fork of the one titled `title`; `note` says what its transcript does not show of the agent's copy. */
  forkOf: z._default(z.nullable(z.object({ title: z.string(), note: z.nullable(z.string()) })), null),
  /** The current plan, pinned above the prompt box (the transcript keeps every plan entry too); null when there is none or it was removed. */
  plan: z._default(z.nullable(PlanContentViewSchema), null),
  /** The oldest checkpoint still kept: a user message with an older one says it is no longer available. */
  oldestCheckpoint: z._default(z.nullable(z.int()), null),
});

export type CommandView = z.infer<typeof CommandViewSchema>;
export type ModesView = z.infer<typeof ModesViewSchema>;
export type ConfigOptionView = z.infer<typeof ConfigOptionViewSchema>;
export type UsageView = z.infer<typeof UsageViewSchema>;
export type QueuedPromptView = z.infer<typeof QueuedPromptViewSchema>;
export type ReviewFileView = z.infer<typeof ReviewFileViewSchema>;
export type SessionView = z.infer<typeof SessionViewSchema>;
export type AttachmentKind = z.infer<typeof AttachmentKindSchema>;
export type AttachmentView = z.infer<typeof AttachmentViewSchema>;
export type AttachmentLabel = z.infer<typeof AttachmentLabelSchema>;

export const EMPTY_SESSION: SessionView = { title: null, commands: [], modes: null, configOptions: [], usage: null, queue: [], review: [], reviewNote: null, follow: true, attachments: [], attachmentNotice: null, canFork: false, forkOf: null, plan: null, oldestCheckpoint: null };
