import type { NewAttachment } from '../../session/attachments';
import type { AgentSession } from '../../session/agentSession';
import type { DiffSource } from '../../session/transcript';
import type { Checkpoints } from '../checkpoints/checkpoints';
import { editPastPrompt } from '../checkpoints/editPrompt';
import type { EditHost } from '../checkpoints/editPrompt';
import { DIFF_TEXTS_DROPPED } from '../../session/diffTexts';
import { conversationMarkdown } from '../../view/exportMarkdown';
import { shortcutChoice } from '../../session/permissionShortcut';
import type { ShortcutAnswer } from '../../session/permissionShortcut';
import { messageText, toolOutput } from '../../session/entryText';
import type { ViewToHost } from '../../webview-protocol/messages';
import { runAction } from './actionRunner';
import type { Action, RunnerHost } from './actionRunner';

/**
 * One table of what the user can do: every intent the panel sends and every `acpHost.*` command
 * of the palette, the palette's commands naming the panel's action where they do the same
 * (ACP: Cancel Turn is the panel's `cancel`). VS Code-free: AgentHost is the ActionHost, and the
 * VS Code UI the actions open is its Workbench (workbench.ts); unit tests pass fakes of both.
 */

/** What the panel asks of the host; `ready` and `rendered` pace the view's feed and `panelFocus` sets a context key: the view answers them itself. */
export type PanelIntent = Exclude<ViewToHost, { type: 'ready' | 'rendered' | 'panelFocus' }>;

/** The shown session, as far as the actions use it. */
export type ShownSession = Pick<
  AgentSession,
  | 'currentStatus'
  | 'transcript'
  | 'start'
  | 'authenticate'
  | 'cancelSignIn'
  | 'signOut'
  | 'restart'
  | 'prompt'
  | 'unqueue'
  | 'cancel'
  | 'choosePermission'
  | 'answerElicitation'
  | 'setMode'
  | 'setConfigOption'
  | 'attach'
  | 'detach'
  | 'noteAttachment'
  | 'origin'
  | 'label'
  | 'runtime'
  | 'currentSessionId'
>;

/** The VS Code UI the actions open. */
export interface Workbench {
  openDiff(diff: DiffSource): Promise<void>;
  /** Confined to `roots` (the shown session's), and `openLink` to safe schemes (host/editor/openers.ts). */
  openLocation(path: string, line: number | null, roots: readonly string[]): Promise<void>;
  openLink(href: string, roots: readonly string[]): Promise<void>;
  /** A page an agent asked the user to open (http and https only), in their browser. */
  openWebPage(url: string): Promise<void>;
  /** Tells the user something done, briefly (the status bar). */
  inform(message: string): void;
  /** ACP: Choose Agent…'s picker: the name picked, its last row "Browse the ACP Registry…", or undefined when dismissed. */
  pickAgent(choices: readonly { name: string; commandLine: string; note?: string }[], current: string): Promise<string | typeof BROWSE_REGISTRY | undefined>;
  setFollow(enabled: boolean): Thenable<void>;
  showLog(): void;
  showTrace(agentName: string): Thenable<unknown>;
  copyTrace(agentName: string): Thenable<unknown>;
  /** Forgets every stored agent secret, and says how many there were. */
  forgetSecrets(): Promise<void>;
  /** Puts `text` on the clipboard, and says so. */
  copy(text: string): Promise<void>;
  /** Opens `text` as a read-only document named `name` (its extension picks the language). */
  openText(name: string, text: string): Promise<void>;
  /** Opens Markdown as an untitled document: the user saves it where they like, or closes it. */
  openMarkdown(text: string): Promise<void>;
  failed(what: string, error: Error, tellUser: boolean): void;
}

/** The agent picker's answer for its row that opens ACP: Browse Agents… (a symbol: no agent's name). */
export const BROWSE_REGISTRY = Symbol('browse the ACP Registry');

/** What the actions act on: the extension's host (src/host/agentHost.ts). */
export interface ActionHost extends RunnerHost<ShownSession> {
  readonly workbench: Workbench;
  readonly reviewer: { open(path: string): Promise<void>; keep(path?: string): Promise<void>; undo(path?: string): Promise<void> };
  readonly mentions: { pick(): Promise<NewAttachment[]> };
  /** The panel: acpHost.focusPrompt shows it with the keyboard in its prompt box. */
  readonly view: { focusPrompt(): Promise<void> };
  /** The open sessions, in the switcher's order: next and previous go round them. */
  readonly tabs: { readonly all: readonly { key: string }[]; readonly shown: { key: string } | undefined };
  /** The workspace's audit log (host/audit/workspaceAudit.ts). */
  readonly audit: { show(): Promise<unknown>; export(): Promise<unknown> };
  agentChoices(): readonly { name: string; commandLine: string; note?: string }[];
  startAgent(): Promise<void>;
  chooseAgent(name: string): Promise<void>;
  newSession(): Promise<void>;
  /** "Fork from here" on the user message at entry `index` of `session`: a new tab, shown and started (`before`: holding the conversation before it). */
  forkSession(session: ShownSession, index: number, before?: boolean): Promise<void>;
  /** The workspace's checkpoints (host/checkpoints/checkpoints.ts). */
  readonly checkpoints: EditHost['checkpoints'] & Pick<Checkpoints, 'restoreAt' | 'pick'>;
  switchSession(key: string): void;
  closeSession(key?: string): Promise<void>;
  openFromHistory(): Promise<void>;
  addSelection(): Promise<void>;
  manageRememberedPermissions(): Promise<void>;
  /** Lists this workspace's consent decisions and revokes the one picked. */
  manageWorkspaceConsent(): Promise<void>;
  /** ACP: Browse Agents… (host/registry/). */
  readonly registry: { browse(): Promise<void> };
}

type HostAction<I> = Action<ActionHost, ShownSession, I>;

/** What the panel reports about a pasted or dropped file it did not read. */
const ATTACH_REFUSALS = {
  tooLarge: 'images larger than 5 MB are not attached.',
  unsupportedType: 'only PNG, JPEG, GIF and WebP images can be pasted or dropped (attach other files with @).',
  unreadable: 'it could not be read.',
} as const;

/** Every panel intent's action; the compiler holds the keys to the intent types, no more and no fewer. */
const INTENT_ACTIONS: { [K in PanelIntent['type']]: HostAction<Extract<PanelIntent, { type: K }>> } = {
  start: { run: ({ host, session }) => host.startSession(session) },
  restart: { run: ({ session }) => session.restart() },
  authenticate: { run: ({ session, intent }) => session.authenticate(intent.methodId) },
  cancelSignIn: { run: ({ session }) => session.cancelSignIn() },
  chooseAgent: { run: ({ host, intent }) => host.chooseAgent(intent.name) },
  prompt: { needs: 'agent', run: ({ session, intent }) => session.prompt(intent.text) },
  unqueue: { run: ({ session, intent }) => session.unqueue(intent.id) },
  cancel: { run: ({ session }) => session.cancel() },
  permission: { run: ({ session, intent }) => session.choosePermission(intent.toolCallId, intent.optionId) },
  dismissPermission: { run: ({ session, intent }) => session.choosePermission(intent.toolCallId, undefined) },
  // A refused answer keeps a form open with the reason. A URL card's `accept` is the user's click on
  // Open (or Open again): the host opens the URL the card holds, never one the panel sends.
  elicitation: {
    warnOnFailure: true,
    run: async ({ host, session, intent }) => {
      session.answerElicitation(intent.requestKey, intent.action, intent.content);
      const card = session.transcript.questions.urlEntry(intent.requestKey);
      if (intent.action === 'accept' && card?.state === 'waiting') await host.workbench.openWebPage(card.url);
    },
  },
  setMode: { run: ({ session, intent }) => session.setMode(intent.modeId) },
  setConfigOption: { run: ({ session, intent }) => session.setConfigOption(intent.configId, intent.value) },
  openDiff: {
    warnOnFailure: true,
    run: ({ host, session, intent }) => {
      const diff = session.transcript.diffSource(intent.index, intent.contentIndex);
      // Its card keeps the summary: the texts went with the session's budget for them, or a reload.
      if (!diff) throw new Error(DIFF_TEXTS_DROPPED);
      return host.workbench.openDiff(diff);
    },
  },
  // What the agent named opens only within its session's roots.
  openLocation: { warnOnFailure: true, run: ({ host, session, intent }) => host.workbench.openLocation(intent.path, intent.line, session.origin.confinement) },
  openLink: { warnOnFailure: true, run: ({ host, session, intent }) => host.workbench.openLink(intent.href, session.origin.confinement) },
  reviewOpen: { run: ({ host, intent }) => host.reviewer.open(intent.path) },
  reviewKeep: { run: ({ host, intent }) => host.reviewer.keep(intent.path) },
  reviewUndo: { run: ({ host, intent }) => host.reviewer.undo(intent.path) },
  // The setting is the one source of truth: its change event reaches the sessions and the editor.
  setFollow: { run: ({ host, intent }) => host.workbench.setFollow(intent.enabled) },
  mention: {
    needs: 'agentStarting',
    run: async ({ host, session }) => {
      for (const attachment of await host.mentions.pick()) session.attach(attachment);
    },
  },
  attachSelection: { run: ({ host }) => host.addSelection() },
  detach: { run: ({ session, intent }) => session.detach(intent.id) },
  attachImage: { needs: 'agent', run: ({ session, intent }) => session.attach({ kind: 'image', name: intent.name, mimeType: intent.mimeType, data: intent.data }) },
  attachRefused: { run: ({ session, intent }) => session.noteAttachment(`${intent.name} was not attached: ${ATTACH_REFUSALS[intent.reason]}`) },
  switchSession: { run: ({ host, intent }) => host.switchSession(intent.key) },
  newSession: { run: ({ host }) => host.newSession() },
  // The agent runs first: whether it forks (and the session's id) is known only then. A refusal says why.
  fork: { needs: 'agent', warnOnFailure: true, run: ({ host, session, intent }) => host.forkSession(session, intent.index) },
  closeSession: { run: ({ host, intent }) => host.closeSession(intent.key) },
  sessionHistory: { run: ({ host }) => host.openFromHistory() },
  copyMessage: { run: ({ host, session, intent }) => host.workbench.copy(messageText(session.transcript.entries[intent.index])) },
  copyText: { run: ({ host, intent }) => host.workbench.copy(intent.text) },
  openToolOutput: {
    warnOnFailure: true,
    run: ({ host, session, intent }) => {
      const output = toolOutput(session.transcript.entries[intent.index], intent.contentIndex);
      return host.workbench.openText(output.name, output.text);
    },
  },
  // Both show a diff and ask before anything changes; a refusal (a turn running, a checkpoint gone) says why.
  restoreCheckpoint: { warnOnFailure: true, run: ({ host, session, intent }) => host.checkpoints.restoreAt(session, intent.index) },
  // The agent runs first: whether it forks is known only then. The fork, once open, is the shown session.
  editPrompt: {
    needs: 'agent',
    warnOnFailure: true,
    run: ({ host, session, intent }) =>
      editPastPrompt({ checkpoints: host.checkpoints, forkBefore: async () => (await host.forkSession(session, intent.index, true), host.controller) }, session, intent.index, intent.text),
  },
};

/** The keyboard's answer to the oldest waiting permission (session/permissionShortcut.ts says which option). */
function answerWaiting(answer: ShortcutAnswer): HostAction<void> {
  return {
    run: ({ session }) => {
      const { toolCallId, optionId } = shortcutChoice(session.transcript, answer);
      session.choosePermission(toolCallId, optionId);
    },
  };
}

/** Shows the open session `step` places from the shown one, going round; nothing when there is no other. */
function stepSession(step: 1 | -1): HostAction<void> {
  return {
    run: ({ host }) => {
      const all = host.tabs.all;
      const at = all.findIndex((t) => t.key === host.tabs.shown?.key);
      if (all.length > 1) host.switchSession(all[(at + step + all.length) % all.length].key);
    },
  };
}

/**
 * The palette's commands (package.json's contributes.commands, which test/unit/manifest.test.ts
 * holds to these keys): the panel intent a command shares, or its own action.
 */
const COMMANDS = {
  'acpHost.startAgent': { run: ({ host }) => host.startAgent() },
  'acpHost.chooseAgent': {
    run: async ({ host, session }) => {
      const name = await host.workbench.pickAgent(host.agentChoices(), session.currentStatus.agentName);
      if (name === BROWSE_REGISTRY) await host.registry.browse();
      else if (name) await host.chooseAgent(name);
    },
  },
  'acpHost.newSession': { type: 'newSession' },
  'acpHost.sessionHistory': { type: 'sessionHistory' },
  'acpHost.closeSession': { type: 'closeSession' },
  'acpHost.cancelTurn': { type: 'cancel' },
  'acpHost.restartAgent': { type: 'restart' },
  'acpHost.showLog': { run: ({ host }) => host.workbench.showLog() },
  'acpHost.showTrace': { run: ({ host, session }) => host.workbench.showTrace(session.currentStatus.agentName) },
  'acpHost.copyTrace': { run: ({ host, session }) => host.workbench.copyTrace(session.currentStatus.agentName) },
  'acpHost.forgetSecrets': { run: ({ host }) => host.workbench.forgetSecrets() },
  // Offered (palette, the panel's menu) only while the shown agent advertises logout: `acpHost.canSignOut`.
  'acpHost.signOut': { run: async ({ host, session }) => host.workbench.inform(await session.signOut()) },
  'acpHost.manageWorkspaceConsent': { run: ({ host }) => host.manageWorkspaceConsent() },
  'acpHost.addSelection': { type: 'attachSelection' },
  'acpHost.manageRememberedPermissions': { run: ({ host }) => host.manageRememberedPermissions() },
  'acpHost.showAuditLog': { run: ({ host }) => host.audit.show() },
  'acpHost.exportAuditLog': { run: ({ host }) => host.audit.export() },
  'acpHost.exportConversation': {
    run: ({ host, session }) =>
      host.workbench.openMarkdown(
        conversationMarkdown({
          title: session.label,
          agentName: session.currentStatus.agentName,
          date: new Date().toISOString(),
          roots: [session.origin.roots.cwd, ...session.origin.roots.additionalDirectories],
          entries: session.transcript.entries,
          diffSource: (index, contentIndex) => session.transcript.diffSource(index, contentIndex),
        }),
      ),
  },
  'acpHost.focusPrompt': { run: ({ host }) => host.view.focusPrompt() },
  'acpHost.acceptPermission': answerWaiting('allow'),
  'acpHost.rejectPermission': answerWaiting('reject'),
  'acpHost.nextSession': stepSession(1),
  'acpHost.previousSession': stepSession(-1),
  'acpHost.restoreCheckpoint': { run: ({ host, session }) => host.checkpoints.pick(session) },
  'acpHost.browseAgents': { run: ({ host }) => host.registry.browse() },
} satisfies Record<`acpHost.${string}`, PanelIntent | HostAction<void>>;

export type CommandId = keyof typeof COMMANDS;
export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];

/** Runs what the panel asked for; a failure is logged (and, for what the user opened, shown), never thrown. */
export async function dispatchIntent(host: ActionHost, intent: PanelIntent): Promise<void> {
  const action: HostAction<PanelIntent> = INTENT_ACTIONS[intent.type];
  await runAction(host, action, intent, { what: intent.type });
}

/** Runs a palette command; a failure is logged and shown. Resolves with what the action returned. */
export function runCommand(host: ActionHost, id: CommandId): Promise<unknown> {
  const command: PanelIntent | HostAction<void> = COMMANDS[id];
  const report = { what: id, tellUser: true };
  if (!('type' in command)) return runAction(host, command, undefined, report);
  const action: HostAction<PanelIntent> = INTENT_ACTIONS[command.type];
  return runAction(host, action, command, report);
}
