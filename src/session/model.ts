import type { ElicitationContent, ElicitationFieldView, ElicitationState } from '../forms/elicitationForm';

// The session model's types: what the engine keeps of a session, in its own terms. They are
// plain data, and today the panel's view model has the same shape for most of them; the
// projection (src/view/projection.ts) is where the two meet, so the compiler checks there that
// the model still fits what the panel validates, and the model can change without the panel.

export type Phase = 'idle' | 'starting' | 'ready' | 'prompting' | 'crashed' | 'auth';

/** One way to sign in: `agent` (the agent does it), `env_var` (the user types a key), `terminal` (a login command). */
export interface AuthMethodInfo {
  id: string;
  name: string;
  description: string | null;
  type: 'agent' | 'env_var' | 'terminal';
}

/** Where the agent and the session stand. */
export interface SessionStatus {
  agentName: string;
  phase: Phase;
  /** The crash or start failure (exit code, stderr tail), or why a sign-in failed. */
  detail?: string;
  /** The sign-in choices, in the auth phase. Names only: never a secret. */
  authMethods?: AuthMethodInfo[];
  /** The name of the method an `authenticate` in flight signs in with (the panel offers to cancel it). */
  signingIn?: string;
}

export type AttachmentKind = 'file' | 'folder' | 'selection' | 'image' | 'comment';

/** An attachment as a sent prompt lists it (the content went to the agent). */
export interface AttachmentLabel {
  kind: AttachmentKind;
  label: string;
}

/** Context attached to the prompt being composed. */
export interface AttachmentChip extends AttachmentLabel {
  id: string;
  detail: string | null;
  /** Why the current agent cannot take it: sending waits until it is removed. */
  problem: string | null;
}

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
}

/** `line` is 1-based, as on the wire; null when the agent gave none. */
export interface ToolLocation {
  path: string;
  line: number | null;
}

/** A diff's counts and a bounded preview of its changed lines (the full texts stay in the transcript). */
export interface DiffSummary {
  type: 'diff';
  path: string;
  isNewFile: boolean;
  added: number;
  removed: number;
  preview: string[];
  previewTruncated: boolean;
  /** The full texts are not kept (over the session's budget for them, or not saved): the diff no longer opens. */
  textsDropped?: boolean;
}

/** What a client terminal has shown so far, and how it ended. */
export interface TerminalState {
  output: string;
  truncated: boolean;
  exitStatus: { exitCode: number | null; signal: string | null } | null;
}

export type ToolContent = { type: 'text'; text: string } | DiffSummary | ({ type: 'terminal'; terminalId: string } & TerminalState);

export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'unfinished';

export interface PlanItem {
  content: string;
  priority: 'high' | 'medium' | 'low';
  status: 'pending' | 'in_progress' | 'completed';
}

export type TurnStopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';

/**
 * How a turn ended: the agent's stop reason, `failed` (session/prompt was answered with an error,
 * `error` says which), or `quiet` (a turn the agent carried on after session/load, which no answer
 * ends: nothing more came, see carriedTurn.ts).
 */
export interface TurnEnd {
  stopReason: TurnStopReason | 'failed' | 'quiet';
  /** The error session/prompt was answered with; `code` is null when there was none (the connection closed). */
  error?: { message: string; code: number | null };
  /** What the answer said the turn cost (unstable `PromptResponse.usage`, `_meta` cost and quota). */
  usage?: TurnUsage;
}

/**
 * What the user answered to a permission request: the option chosen, or nothing (dismissed, the
 * turn ended, Stop), or nothing because the agent withdrew it first (`$/cancel_request`).
 */
export type PermissionAnswer = { outcome: 'selected'; name: string; kind: PermissionOption['kind'] } | { outcome: 'cancelled' } | { outcome: 'withdrawn' };

/** A user's message keeps the id of the checkpoint of the workspace's files taken as it was sent (host/checkpoints). */
export type TextEntry = { kind: 'user'; text: string; attachments?: AttachmentLabel[]; checkpoint?: number } | { kind: 'agent'; text: string } | { kind: 'thought'; text: string };

export interface ToolEntry {
  kind: 'tool';
  toolCallId: string;
  title: string;
  /** The tool's programmatic name, when the agent gave one (the title stays the label). */
  name?: string;
  /** The tool call that started the subagent this call is part of, when the agent's `_meta` says so (subagentMeta.ts). */
  parentToolCallId?: string;
  toolKind: string;
  status: ToolStatus;
  content: ToolContent[];
  locations: ToolLocation[];
  /** The options offered while the agent waits for the user's choice (the transcript holds the answer). */
  permission?: PermissionOption[];
  /** How the last permission asked on it was answered. */
  permissionAnswer?: PermissionAnswer;
  /** What ACP Host's policy said about it: why it asks, or how it answered on its own. */
  policyNote?: string;
  /** The agent's `rawInput` and `rawOutput` as JSON text: pretty-printed, secret-looking keys masked, clipped (rawJson.ts). */
  rawInput?: string;
  rawOutput?: string;
}

/** The end of a turn's tally, from the agent's answer: its tokens (unstable `usage`), and the cost and quota it put in `_meta`. */
export interface TurnUsage {
  tokens: {
    total: number;
    input: number;
    output: number;
    thought: number | null;
    cachedRead: number | null;
    cachedWrite: number | null;
  } | null;
  cost: Cost | null;
  quota: QuotaItem[] | null;
}

export interface Cost {
  amount: number;
  currency: string;
}

/** One number of an agent's quota (`_meta.quota`): `used`, `limit`, `requests.remaining`, `resetsAt`. */
export interface QuotaItem {
  label: string;
  value: number | string;
}

/** A `notice`: said to the user, not part of the session's history. Custom severities are `info`. */
export interface NoticeEntry {
  kind: 'notice';
  severity: 'info' | 'warning' | 'error';
  title: string;
  description: string | null;
}

/** A context compaction, updated in place by its id; `status` is the agent's (open: custom strings too). */
export interface CompactionEntry {
  kind: 'compaction';
  compactionId: string;
  status: string;
  /** The summary's text (markdown), clipped at COMPACTION_SUMMARY_MAX characters with a note of what was dropped. */
  summary: string;
  error: string | null;
}

/** What an id-addressed plan holds: items (as a `plan`), markdown, or a file's URI. */
export type PlanContent = { type: 'items'; entries: PlanItem[] } | { type: 'markdown'; text: string } | { type: 'file'; uri: string };

/** An id-addressed plan (unstable `plan_update`); `content` is null once the agent removed it. */
export interface PlanByIdEntry {
  kind: 'planById';
  planId: string;
  content: PlanContent | null;
}

export interface FormEntry {
  kind: 'elicitation';
  requestKey: string;
  agentName: string;
  message: string;
  title: string | null;
  toolCallId: string | null;
  fields: ElicitationFieldView[];
  /** Asked of the agent as a whole (its start or sign-in), not of this session: every session of it waits on the answer. */
  forAgent?: true;
  state: ElicitationState;
  /** Why the last answer was refused (the form stays open). */
  error?: string;
  /** What was sent with `accept`. */
  content?: ElicitationContent;
}

/** What is worth a warning in a URL an agent asks the user to open. */
export type UrlWarning = 'punycode' | 'notHttps' | 'credentials';

/**
 * Pending: Open, Decline, Cancel. Waiting: the user opened it (`accept`), the agent has not said
 * it is done. Ended: the agent stopped (or the session was restored) before it said so.
 */
export type UrlState = 'pending' | 'waiting' | 'completed' | 'declined' | 'cancelled' | 'ended' | 'withdrawn';

/** A URL-mode elicitation: the agent asks the user to open a URL, which opens only on their click. */
export interface UrlEntry {
  kind: 'urlElicitation';
  requestKey: string;
  agentName: string;
  message: string;
  toolCallId: string | null;
  /** As it opens: parsed and normalized (an internationalized host is in its punycode form). */
  url: string;
  /** Its host (with a port that is not the default), shown prominently. */
  host: string;
  warnings: UrlWarning[];
  /** As `FormEntry.forAgent`. */
  forAgent?: true;
  state: UrlState;
}

export type Entry =
  | TextEntry
  | ToolEntry
  | { kind: 'plan'; entries: PlanItem[] }
  | PlanByIdEntry
  | ({ kind: 'turnEnd' } & TurnEnd)
  | { kind: 'error'; message: string }
  /** ACP Host's own word, not an error (signed out). */
  | { kind: 'note'; message: string }
  | NoticeEntry
  | CompactionEntry
  | FormEntry
  | UrlEntry;

export interface Command {
  name: string;
  description: string;
  hint: string | null;
}

export interface Modes {
  currentModeId: string;
  available: { id: string; name: string; description: string | null }[];
}

interface ConfigBase {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
}

export type ConfigOption =
  | (ConfigBase & { type: 'select'; currentValue: string; groups: { name: string | null; choices: { value: string; name: string; description: string | null }[] }[] })
  | (ConfigBase & { type: 'boolean'; currentValue: boolean });

export interface QueuedPromptInfo {
  id: number;
  text: string;
  attachments?: AttachmentLabel[];
}

/** A file the agent changed, not yet kept or undone by the user. */
export interface ReviewFile {
  path: string;
  change: 'modified' | 'created' | 'deleted';
  added: number;
  removed: number;
}

/** The session's state beside its transcript, as it stands now. */
export interface SessionSnapshot {
  title: string | null;
  commands: Command[];
  /** Legacy modes; null when the agent has none, or has config options (which supersede them, ACP §10). */
  modes: Modes | null;
  configOptions: ConfigOption[];
  /** The context window (`usage_update`), with the cost it or its `_meta` gave, and the quota in its `_meta`. */
  usage: { used: number; size: number; cost: Cost | null; quota: QuotaItem[] | null } | null;
  queue: QueuedPromptInfo[];
  review: ReviewFile[];
  /** What the review list cannot show (changed files whose earlier text was not kept), or null. */
  reviewNote: string | null;
  follow: boolean;
  attachments: AttachmentChip[];
  attachmentNotice: string | null;
  /** The agent advertises (UNSTABLE) session/fork: the user's messages offer "Fork from here". */
  canFork: boolean;
  /** What this session is a fork of (the original's title), and what its transcript does not show; null when it is no fork. */
  forkOf: { title: string; note: string | null } | null;
  /** The current plan (the transcript's `Plans` keeps it), pinned above the prompt box; null when there is none. */
  plan: PlanContent | null;
  /** The oldest checkpoint still kept (older ones were dropped past the budget), or null when there is none. */
  oldestCheckpoint: number | null;
}
