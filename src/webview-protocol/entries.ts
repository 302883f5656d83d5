import * as z from 'zod/mini';
import { AttachmentLabelSchema, CostViewSchema, QuotaViewSchema } from './session';
import { ElicitationFieldViewSchema, ElicitationStateSchema, ElicitationValueSchema } from './elicitation';
import { PlanContentViewSchema, PlanEntryViewSchema } from './plan';

export { PlanContentViewSchema, PlanEntryViewSchema } from './plan';

/**
 * What the panel shows, in the panel's own terms (never raw ACP types): the host's transcript
 * model maps to these, the webview renders them. Shared by both sides, validated on both.
 */
export const PermissionOptionViewSchema = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});

/** `line` is 1-based, as on the wire; null when the agent gave none. */
export const ToolLocationViewSchema = z.object({ path: z.string(), line: z.nullable(z.int()) });

/**
 * A diff as the card shows it: counts and a bounded preview of the changed lines. The full old
 * and new texts stay on the host, which opens them in VS Code's diff editor on request.
 */
export const DiffViewSchema = z.object({
  type: z.literal('diff'),
  path: z.string(),
  /** The agent gave no old text: the edit creates the file. */
  isNewFile: z.boolean(),
  added: z.int().check(z.nonnegative()),
  removed: z.int().check(z.nonnegative()),
  /** Changed lines, each prefixed `+` or `-`, at most DIFF_PREVIEW_LINES of them. */
  preview: z.array(z.string()),
  /** More changed lines exist than the preview holds. */
  previewTruncated: z.boolean(),
  /** The host no longer keeps the full texts (a session's budget for them, or a restored session): no Open diff. */
  textsDropped: z.optional(z.boolean()),
});

export const ToolContentViewSchema = z.discriminatedUnion('type', [
  /** Text output of the tool, as markdown (agents fence command output themselves). */
  z.object({ type: z.literal('text'), text: z.string() }),
  DiffViewSchema,
  /** A client terminal (terminal/create) embedded in the card: its output so far and, once it ended, how. */
  z.object({
    type: z.literal('terminal'),
    terminalId: z.string(),
    /** The end of the output (the card shows a bounded tail; the VS Code terminal has it all). */
    output: z.string(),
    /** Output was dropped from the front (the agent's outputByteLimit, or the card's bound). */
    truncated: z.boolean(),
    exitStatus: z.nullable(z.object({ exitCode: z.nullable(z.int()), signal: z.nullable(z.string()) })),
  }),
]);

export const ToolStatusViewSchema = z.enum(['pending', 'in_progress', 'completed', 'failed', 'unfinished']);

/** The agent's stop reasons, and ours: `failed` (the prompt was answered with an error), `quiet` (a turn carried on after a load that went quiet). */
export const StopReasonViewSchema = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled', 'failed', 'quiet']);

/** How a permission was answered: the option's name and kind, or nothing (dismissed, Stop, the turn ended). */
export const PermissionAnswerViewSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('selected'), name: z.string(), kind: PermissionOptionViewSchema.shape.kind }),
  z.object({ outcome: z.literal('cancelled') }),
  /** The agent withdrew the request (`$/cancel_request`) before the user chose. */
  z.object({ outcome: z.literal('withdrawn') }),
]);

const tokenCount = z.int().check(z.nonnegative());

/** What the agent's answer said a turn cost: its tokens (unstable `usage`), and the cost and quota in its `_meta`. */
export const TurnUsageViewSchema = z.object({
  tokens: z.nullable(
    z.object({
      total: tokenCount,
      input: tokenCount,
      output: tokenCount,
      thought: z.nullable(tokenCount),
      cachedRead: z.nullable(tokenCount),
      cachedWrite: z.nullable(tokenCount),
    }),
  ),
  cost: z.nullable(CostViewSchema),
  quota: z.nullable(QuotaViewSchema),
});

export const EntryViewSchema = z.discriminatedUnion('kind', [
  /** What the user sent (plain text, never rendered as markdown), with the labels of what was attached. */
  z.object({
    kind: z.literal('user'),
    text: z.string(),
    attachments: z.optional(z.array(AttachmentLabelSchema)),
    /** The checkpoint of the workspace's files taken when it was sent: "Restore checkpoint" and "Edit" name it. */
    checkpoint: z.optional(z.int().check(z.nonnegative())),
  }),
  /** The agent's reply (markdown), coalesced from its chunks. */
  z.object({ kind: z.literal('agent'), text: z.string() }),
  /** The agent's reasoning (markdown), collapsed by default. */
  z.object({ kind: z.literal('thought'), text: z.string() }),
  z.object({
    kind: z.literal('tool'),
    toolCallId: z.string(),
    title: z.string(),
    /** The tool's programmatic name (shown small beside the title). */
    name: z.optional(z.string()),
    /** The tool call that started the subagent this call belongs to: the card is shown nested under it. */
    parentToolCallId: z.optional(z.string()),
    /** ACP ToolKind (read, edit, delete, move, search, execute, think, fetch, switch_mode, other). */
    toolKind: z.string(),
    status: ToolStatusViewSchema,
    content: z.array(ToolContentViewSchema),
    locations: z.array(ToolLocationViewSchema),
    /** Present while the agent waits for the user's choice. */
    permission: z.optional(z.array(PermissionOptionViewSchema)),
    /** How the last permission asked on it was answered (the card shows it). */
    permissionAnswer: z.optional(PermissionAnswerViewSchema),
    /** ACP Host's own say (plain text): why it asks, or how it answered without asking. */
    policyNote: z.optional(z.string()),
    /** The agent's raw input and output as JSON text, secrets masked, clipped by the host (collapsed on the card). */
    rawInput: z.optional(z.string()),
    rawOutput: z.optional(z.string()),
  }),
  z.object({ kind: z.literal('plan'), entries: z.array(PlanEntryViewSchema) }),
  /** An id-addressed plan; `content` null: the agent removed it. */
  z.object({ kind: z.literal('planById'), planId: z.string(), content: z.nullable(PlanContentViewSchema) }),
  /** A turn's end; a failed one carries the error session/prompt was answered with (`code` null: no JSON-RPC error). */
  z.object({
    kind: z.literal('turnEnd'),
    stopReason: StopReasonViewSchema,
    error: z.optional(z.object({ message: z.string(), code: z.nullable(z.int()) })),
    usage: z.optional(TurnUsageViewSchema),
  }),
  z.object({ kind: z.literal('error'), message: z.string() }),
  /** Something the agent tells the user outside the conversation (plain text). */
  z.object({ kind: z.literal('notice'), severity: z.enum(['info', 'warning', 'error']), title: z.string(), description: z.nullable(z.string()) }),
  /** A context compaction: the agent's status word (open), its summary (markdown, collapsed), its error. */
  z.object({ kind: z.literal('compaction'), compactionId: z.string(), status: z.string(), summary: z.string(), error: z.nullable(z.string()) }),
  /**
   * The agent asks for structured input (`elicitation/create`, form mode): a form while pending,
   * then what was answered. `error` is the host's verdict on an answer it refused (the form stays).
   */
  z.object({
    kind: z.literal('elicitation'),
    requestKey: z.string(),
    agentName: z.string(),
    message: z.string(),
    title: z.nullable(z.string()),
    /** The tool call it is about, when the agent said. */
    toolCallId: z.nullable(z.string()),
    fields: z.array(ElicitationFieldViewSchema),
    /** Asked during the agent's start or sign-in, before any session: the answer is for every session of it. */
    forAgent: z.optional(z.literal(true)),
    state: ElicitationStateSchema,
    error: z.optional(z.string()),
    /** What was sent with `accept`. */
    content: z.optional(z.record(z.string(), ElicitationValueSchema)),
  }),
  /**
   * The agent asks the user to open a URL (`elicitation/create`, URL mode): its host and the full
   * URL as text (never a link), Open / Decline / Cancel; once opened, waiting for the agent to say
   * it is done. Only http(s) URLs reach the panel (the host refuses the rest); checked here again.
   */
  z.object({
    kind: z.literal('urlElicitation'),
    requestKey: z.string(),
    agentName: z.string(),
    message: z.string(),
    toolCallId: z.nullable(z.string()),
    url: z.string().check(z.maxLength(8192), z.regex(/^https?:\/\/[^\s]+$/i)),
    host: z.string().check(z.minLength(1)),
    warnings: z.array(z.enum(['punycode', 'notHttps', 'credentials'])),
    forAgent: z.optional(z.literal(true)),
    /** `withdrawn`: the agent cancelled its request (`$/cancel_request`) before the user answered. */
    state: z.enum(['pending', 'waiting', 'completed', 'declined', 'cancelled', 'ended', 'withdrawn']),
  }),
  /** ACP Host's own word in the conversation (plain text): e.g. signed out. */
  z.object({ kind: z.literal('note'), message: z.string() }),
]);

export type EntryView = z.infer<typeof EntryViewSchema>;
export type TextEntryView = Extract<EntryView, { kind: 'user' | 'agent' | 'thought' }>;
export type ToolEntryView = Extract<EntryView, { kind: 'tool' }>;
export type ToolContentView = z.infer<typeof ToolContentViewSchema>;
export type DiffView = z.infer<typeof DiffViewSchema>;
export type TerminalContentView = Extract<ToolContentView, { type: 'terminal' }>;
export type PermissionOptionView = z.infer<typeof PermissionOptionViewSchema>;
export type PermissionAnswerView = z.infer<typeof PermissionAnswerViewSchema>;
export type PlanEntryView = z.infer<typeof PlanEntryViewSchema>;
export type PlanContentView = z.infer<typeof PlanContentViewSchema>;
export type TurnUsageView = z.infer<typeof TurnUsageViewSchema>;
export type NoticeEntryView = Extract<EntryView, { kind: 'notice' }>;
export type CompactionEntryView = Extract<EntryView, { kind: 'compaction' }>;
export type StopReasonView = z.infer<typeof StopReasonViewSchema>;
export type ElicitationEntryView = Extract<EntryView, { kind: 'elicitation' }>;
export type UrlElicitationEntryView = Extract<EntryView, { kind: 'urlElicitation' }>;
