import * as z from 'zod/mini';
import { ElicitationValueSchema } from './elicitation';
import { EntryViewSchema } from './entries';
import { SessionViewSchema } from './session';

/** One way to sign in: `agent` (the agent does it), `env_var` (the user types a key), `terminal` (a login command). */
export const AuthMethodViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  type: z.enum(['agent', 'env_var', 'terminal']),
});
export type AuthMethodView = z.infer<typeof AuthMethodViewSchema>;

const PhaseSchema = z.enum(['idle', 'starting', 'ready', 'prompting', 'crashed', 'auth']);

/** One of the open sessions, for the panel's session switcher. */
export const SessionTabViewSchema = z.object({
  /** The host's key for it (stable while it is open; not the agent's session id). */
  key: z.string().check(z.maxLength(200)),
  /** The agent's title for it, or what the host made of its first prompt. */
  label: z.string().check(z.maxLength(500)),
  agentName: z.string(),
  phase: PhaseSchema,
  /** It needs the user, who looked elsewhere: a question waits (`waiting`), or a turn ended (`done`). (A default keeps older hosts valid.) */
  attention: z._default(z.nullable(z.enum(['waiting', 'done'])), null),
});
export type SessionTabView = z.infer<typeof SessionTabViewSchema>;

/** Where the agent and its session stand, for the panel's header and buttons. */
export const StatusViewSchema = z.object({
  agentName: z.string(),
  /** `auth`: the agent answered "authentication required" (-32000); the panel offers `authMethods`. */
  phase: PhaseSchema,
  /** The crash or start failure, with exit code and stderr tail, when phase is crashed (or why a sign-in failed, in auth). */
  detail: z.optional(z.string()),
  /** The sign-in choices the agent listed in `initialize`, when phase is auth. Names only: never a secret. */
  authMethods: z.optional(z.array(AuthMethodViewSchema)),
  /** The method an `authenticate` in flight signs in with: the panel shows it, with a way to cancel it. */
  signingIn: z.optional(z.string()),
  /** The agents the user can switch to, in the picker's order (names; the host adds them). */
  agents: z.optional(z.array(z.string())),
  /** The open sessions, in the switcher's order, and which one the panel shows (the host adds them). */
  sessions: z.optional(z.array(SessionTabViewSchema)),
  sessionKey: z.optional(z.string().check(z.maxLength(200))),
});
export type StatusView = z.infer<typeof StatusViewSchema>;

const index = z.int().check(z.nonnegative());

/** What the panel may attach as images, and how big (the base64 of 5 MB). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_BASE64_MAX = Math.ceil(IMAGE_MAX_BYTES / 3) * 4;
/** What a code block's Copy may carry: the panel renders a tool's text as markdown up to 100,000 characters, an answer whole. */
export const COPY_TEXT_MAX = 10_000_000;

/**
 * The host's post number, on the snapshots and batches that the ViewFeed sends: the panel answers
 * `rendered` with it once the post is in the DOM, and the feed holds further changes until then.
 */
const seq = z.int().check(z.nonnegative());

const HostToViewMessageSchema = z.discriminatedUnion('type', [
  /** The whole state: sent whenever the view is (re)resolved, so nothing lives only in the DOM. */
  z.object({ type: z.literal('snapshot'), seq: z.optional(seq), status: StatusViewSchema, session: SessionViewSchema, entries: z.array(EntryViewSchema) }),
  /** Entry `index` is new or replaced. */
  z.object({ type: z.literal('entry'), index, entry: EntryViewSchema }),
  /** Text streamed onto the end of text entry `index` (user, agent or thought): O(chunk), not O(entry). */
  z.object({ type: z.literal('append'), index, text: z.string() }),
  z.object({ type: z.literal('status'), status: StatusViewSchema }),
  z.object({ type: z.literal('session'), session: SessionViewSchema }),
]);
export type HostToViewMessage = z.infer<typeof HostToViewMessageSchema>;

/**
 * What one `postMessage` carries: one message, or everything that changed while the panel was
 * rendering the previous post, applied in order.
 */
export const HostToViewSchema = z.union([
  HostToViewMessageSchema,
  z.object({ type: z.literal('batch'), seq: z.optional(seq), messages: z.array(HostToViewMessageSchema) }),
]);
export type HostToView = z.infer<typeof HostToViewSchema>;

/** Posted outside the feed (it changes no state): put the focus in the prompt box (acpHost.focusPrompt). */
export const FocusPromptSchema = z.object({ type: z.literal('focusPrompt') });

export const ViewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Host post `seq` (and every one before it) is in the DOM: the ViewFeed may post again. */
  z.object({ type: z.literal('rendered'), seq }),
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('restart') }),
  z.object({ type: z.literal('prompt'), text: z.string().check(z.minLength(1), z.maxLength(1_000_000)) }),
  /** Drops a prompt that is still queued. */
  z.object({ type: z.literal('unqueue'), id: z.int() }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('permission'), toolCallId: z.string(), optionId: z.string() }),
  /** The permission card's dismiss button: no choice, the agent is answered `cancelled`. */
  z.object({ type: z.literal('dismissPermission'), toolCallId: z.string() }),
  /** The answer to an elicitation form; `content` (accept only) is checked again by the host against the form. */
  z.object({
    type: z.literal('elicitation'),
    requestKey: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.optional(z.record(z.string(), ElicitationValueSchema)),
  }),
  z.object({ type: z.literal('setMode'), modeId: z.string() }),
  z.object({ type: z.literal('setConfigOption'), configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
  /** Open diff `contentIndex` of the tool call at entry `index` in VS Code's diff editor. */
  z.object({ type: z.literal('openDiff'), index, contentIndex: index }),
  /** Open a file (absolute path, confined to the workspace by the host) at a 1-based line. */
  z.object({ type: z.literal('openLocation'), path: z.string(), line: z.nullable(z.int()) }),
  /** A link in agent markdown: the host opens only safe schemes. */
  z.object({ type: z.literal('openLink'), href: z.string().check(z.maxLength(8192)) }),
  /** Review of the agent's edits: a file's baseline ↔ current diff; keep or undo one file (or all, without a path). */
  z.object({ type: z.literal('reviewOpen'), path: z.string() }),
  z.object({ type: z.literal('reviewKeep'), path: z.optional(z.string()) }),
  z.object({ type: z.literal('reviewUndo'), path: z.optional(z.string()) }),
  /** Follow the agent's tool call locations in the editor, or stop. */
  z.object({ type: z.literal('setFollow'), enabled: z.boolean() }),
  /** The session switcher: show another open session, open a new one (current agent), close one (the shown one without a key), or pick one from the history. */
  z.object({ type: z.literal('switchSession'), key: z.string().check(z.maxLength(200)) }),
  z.object({ type: z.literal('newSession') }),
  /** "Fork from here" on the user message at entry `index` (offered only when the session's `canFork`). */
  z.object({ type: z.literal('fork'), index }),
  /** "Restore checkpoint" on the user message at entry `index`: the files the agent changed since go back (after a diff and a confirmation). */
  z.object({ type: z.literal('restoreCheckpoint'), index }),
  /** "Edit" on the user message at entry `index`, sent as `text`: its checkpoint is restored, then `text` goes in a fork before it (or the same session). */
  z.object({ type: z.literal('editPrompt'), index, text: z.string().check(z.minLength(1), z.maxLength(1_000_000)) }),
  z.object({ type: z.literal('closeSession'), key: z.optional(z.string().check(z.maxLength(200))) }),
  z.object({ type: z.literal('sessionHistory') }),
  /** Open a new session with another agent (by name) and start it; it becomes the default agent. */
  z.object({ type: z.literal('chooseAgent'), name: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** Context for the next prompt: pick files and folders (the host's QuickPick), add the editor's selection, remove one. */
  z.object({ type: z.literal('mention') }),
  z.object({ type: z.literal('attachSelection') }),
  z.object({ type: z.literal('detach'), id: z.string().check(z.maxLength(100)) }),
  /** A pasted or dropped image, read by the panel (base64, at most 5 MB decoded). */
  z.object({
    type: z.literal('attachImage'),
    mimeType: z.enum(IMAGE_MIME_TYPES),
    data: z.string().check(z.minLength(1), z.maxLength(IMAGE_BASE64_MAX), z.regex(/^[A-Za-z0-9+/]+={0,2}$/)),
    name: z.string().check(z.minLength(1), z.maxLength(255)),
  }),
  /** A pasted or dropped file the panel could not attach (the host says why, near the attachments). */
  z.object({ type: z.literal('attachRefused'), name: z.string().check(z.maxLength(255)), reason: z.enum(['tooLarge', 'unsupportedType', 'unreadable']) }),
  /** Sign in with one of the status's `authMethods`. */
  z.object({ type: z.literal('authenticate'), methodId: z.string() }),
  /** Give up on the sign-in in progress (`signingIn`): the agent's `authenticate` is cancelled. */
  z.object({ type: z.literal('cancelSignIn') }),
  /** A message's Copy: the host copies the markdown source of text entry `index` (the user's, the agent's, a thought). */
  z.object({ type: z.literal('copyMessage'), index }),
  /** A code block's Copy: its text, as the panel rendered it from the entry. */
  z.object({ type: z.literal('copyText'), text: z.string().check(z.maxLength(COPY_TEXT_MAX)) }),
  /** Open the text or terminal output `contentIndex` of the tool call at entry `index` in an editor, whole. */
  z.object({ type: z.literal('openToolOutput'), index, contentIndex: index }),
  /**
   * The panel's page gained or lost the keyboard: the keybindings that act in the panel need it
   * (VS Code's `focusedView` does not follow focus into a webview view's page).
   */
  z.object({ type: z.literal('panelFocus'), focused: z.boolean() }),
]);
export type ViewToHost = z.infer<typeof ViewToHostSchema>;
