import * as path from 'node:path';
import vscode = require('vscode');
import { COMMAND_CHARS, shown } from '../../base/shownText';
import type { Entry } from '../../session/model';
import type { SessionState } from '../../session/sessionState';
import { setting } from '../config/settings';
import { ReadOnlyDocuments } from '../editor/readOnlyDocuments';
import { ContentCache } from '../editor/review/contentCache';
import type { Before } from '../editor/review/contentCache';
import type { ChangeSink } from '../editor/review/editReviewer';
import { CheckpointStore, DEFAULT_CHECKPOINT_LIMITS } from './checkpointStore';
import type { FileTarget } from './checkpointStore';

/** What a restore needs of the review: the files' states now, and the one WorkspaceEdit that puts them back. */
export interface Restorer {
  state(fsPath: string): Promise<string | null | undefined>;
  putBack(targets: readonly FileTarget[], label: string): Promise<void>;
}

/** The modal "Restore N files?": true on Restore. Tests replace it (`Checkpoints.confirm`). */
export type Confirm = (message: string, detail: string) => Promise<boolean>;

const RESTORE = 'Restore';
const modalConfirm: Confirm = async (message, detail) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, RESTORE)) === RESTORE;

/** The session a checkpoint is restored from, as far as a restore needs it. */
export interface CheckpointSession {
  readonly transcript: { readonly entries: readonly Entry[] };
  readonly currentStatus: { readonly phase: string };
}

/**
 * Checkpoints of the workspace's files, one per prompt the user sends (checkpointStore.ts keeps
 * them in the workspace's storage folder). The review tells them what each file held before the
 * agent changed it, whether the agent wrote through ACP Host or straight to disk (`ChangeSink`).
 * "Restore checkpoint" shows every change it would make in VS Code's multi-file diff, asks in a
 * modal, then applies ONE WorkspaceEdit, which VS Code's undo takes back.
 */
export class Checkpoints implements ChangeSink, vscode.Disposable {
  private store: CheckpointStore | undefined;
  /** Resolves once the store is read back from storage (no store without a workspace's storage). */
  readonly ready: Promise<void>;
  /** The sessions shown the oldest available checkpoint (their older messages say it is gone). */
  private readonly sessions = new Set<SessionState>();
  private readonly documents = new ReadOnlyDocuments('acp-checkpoint', 200);
  confirm: Confirm = modalConfirm;

  constructor(
    storage: vscode.Uri | undefined,
    private readonly restorer: Restorer,
    private readonly log: Pick<vscode.LogOutputChannel, 'warn'>,
  ) {
    const limits = () => ({ ...DEFAULT_CHECKPOINT_LIMITS, maxBytes: setting('checkpoints.maxMegabytes') * 1024 * 1024 });
    const warn = (message: string) => log.warn(message);
    this.ready = storage
      ? CheckpointStore.load(path.join(storage.fsPath, 'checkpoints'), limits, warn, () => this.announce()).then(
          (store) => {
            this.store = store;
            this.announce();
          },
          (error: Error) => warn(`Checkpoints are off: their folder could not be read (${error.message}).`),
        )
      : Promise.resolve();
  }

  /** A checkpoint begins (a prompt goes out); undefined before the store is read, or without one. */
  begin(): number | undefined {
    return this.store?.begin();
  }

  wants(fsPath: string): boolean {
    return this.store?.wants(fsPath) ?? false;
  }

  record(fsPath: string, before: Before): void {
    this.store?.record(fsPath, before);
  }

  watch(session: SessionState): void {
    this.sessions.add(session);
    session.setOldestCheckpoint(this.store?.oldest ?? null);
  }

  unwatch(session: SessionState): void {
    this.sessions.delete(session);
  }

  /** The checkpoint of the user message at entry `index`; throws, in words, when it cannot be restored now. */
  checkpointAt(session: CheckpointSession, index: number): number {
    const entry = session.transcript.entries[index];
    if (entry?.kind !== 'user') throw new Error(`Entry ${index} is not one of your messages: only your messages have checkpoints.`);
    if (entry.checkpoint === undefined) throw new Error('That message has no checkpoint (it was replayed from the agent’s history, or sent before checkpoints were kept).');
    if (session.currentStatus.phase === 'prompting') throw new Error('A turn is running: stop it first (the agent may still be changing files).');
    return entry.checkpoint;
  }

  /** "Restore checkpoint" on the user message at entry `index`. */
  async restoreAt(session: CheckpointSession, index: number): Promise<void> {
    const text = (session.transcript.entries[index] as { text?: string } | undefined)?.text ?? '';
    await this.restore(this.checkpointAt(session, index), text);
  }

  /** ACP: Restore Checkpoint…: the shown session's messages with a checkpoint, newest first. */
  async pick(session: CheckpointSession): Promise<void> {
    await this.ready;
    const oldest = this.store?.oldest ?? Infinity;
    const items = session.transcript.entries
      .flatMap((entry, index) => (entry.kind === 'user' && entry.checkpoint !== undefined && entry.checkpoint >= oldest ? [{ label: entry.text.replace(/\s+/g, ' ').slice(0, 200), index }] : []))
      .reverse();
    if (items.length === 0) throw new Error('No message of this session has a checkpoint that is still kept.');
    const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Restore the files as they were before this message' });
    if (picked) await this.restoreAt(session, picked.index);
  }

  /**
   * Restores checkpoint `id` (of the message `prompt`): shows what changes, asks, applies.
   * Resolves true when the files are as they were (restored now, or nothing had changed), false when the user declined.
   */
  async restore(id: number, prompt: string): Promise<boolean> {
    await this.ready;
    if (!this.store) throw new Error('Checkpoints need a workspace folder: this window has none.');
    const plan = await this.store.plan(id);
    const unrestorable = [...plan.unrestorable];
    const changes: { target: FileTarget; now: string | null | undefined }[] = [];
    for (const target of plan.files) {
      // Only the workspace's files, never .git or node_modules: the same rule as the review.
      if (!ContentCache.reviewable(vscode.Uri.file(target.path))) {
        unrestorable.push(target.path);
        continue;
      }
      const now = await this.restorer.state(target.path);
      if (now !== target.text) changes.push({ target, now });
    }
    const cannot = unrestorable.length === 0 ? '' : `\n\nCannot be restored (binary, too large, or not kept): ${unrestorable.map(relative).join(', ')}.`;
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`Nothing to restore: no file the agent changed since this message differs from then.${cannot}`);
      return true;
    }
    const excerpt = prompt.replace(/\s+/g, ' ').slice(0, 80);
    await this.showChanges(changes, excerpt);
    const lines = changes.map(({ target, now }) => `${relative(target.path)}: ${target.text === null ? 'removed' : now === null ? 're-created' : 'restored'}`);
    const count = changes.length === 1 ? '1 file' : `${changes.length} files`;
    const detail = `${lines.join('\n')}${cannot}\n\nEdit > Undo takes it back.`;
    if (!(await this.confirm(`Restore ${count} to how they were before “${excerpt}”?`, detail))) return false;
    await this.restorer.putBack(
      changes.map((c) => c.target),
      'Restore checkpoint',
    );
    return true;
  }

  dispose(): void {
    this.documents.dispose();
    this.sessions.clear();
  }

  /** Every change in VS Code's multi-file diff: each file now on the left, as the restore leaves it on the right. */
  private async showChanges(changes: { target: FileTarget; now: string | null | undefined }[], excerpt: string): Promise<void> {
    const resources = await Promise.all(
      changes.map(async ({ target, now }) => {
        const uri = vscode.Uri.file(target.path);
        const name = path.basename(target.path);
        const left = now === null ? this.documents.add(`absent/${name}`, '') : uri;
        const right = this.documents.add(`checkpoint/${name}`, target.text ?? '');
        return [uri, left, right] as const;
      }),
    );
    await vscode.commands.executeCommand('vscode.changes', `Restore checkpoint: before “${excerpt}”`, resources).then(undefined, (error: Error) => {
      this.log.warn(`Checkpoints: the diff of the restore could not be shown (${error.message}).`);
    });
  }

  private announce(): void {
    const oldest = this.store?.oldest ?? null;
    for (const session of this.sessions) session.setOldestCheckpoint(oldest);
  }
}

/** A path as the user knows it: relative to its workspace folder; escaped and capped (shownText.ts), as the agent named the file. */
function relative(fsPath: string): string {
  return shown(vscode.workspace.asRelativePath(fsPath, false), COMMAND_CHARS);
}
