import * as path from 'node:path';
import vscode = require('vscode');
import { EditReview, MAX_BASELINE_CHARS } from '../../../session/editReview';
import type { CurrentText } from '../../../session/editReview';
import type { TranscriptEvent } from '../../../session/transcript';
import type { ReviewFileView } from '../../../webview-protocol/session';
import type { FeedSource } from '../../../view/viewFeed';
import { describeRestore, earlierOf } from '../../../session/restorePlan';
import type { Earlier, RestoreChange } from '../../../session/restorePlan';
import { ReadOnlyDocuments } from '../readOnlyDocuments';
import { confirmRestore, modalConfirm, planFiles, relative } from '../../checkpoints/guardedRestore';
import type { Confirm, RestoreGuard } from '../../checkpoints/guardedRestore';
import { ContentCache } from './contentCache';
import { applyTexts } from './restoreEdit';
import type { FileEventKind } from './contentCache';

export const REVIEW_SCHEME = 'acp-review';
/**
 * A watcher event reaches us some time after the write (VS Code batches them): writes an agent
 * makes just before it ends its turn are still the turn's when they are reported this late.
 */
const GRACE_MS = 2000;
/** Changes after a turn (the user edits a reviewed file) update the list at most this often. */
const DEBOUNCE_MS = 300;
/** Baselines held for opened diffs; the oldest go first. */
const MAX_KEPT = 200;

/** What the reviewer needs of a session: the same window the panel has. */
export type ReviewSource = Pick<FeedSource, 'transcript' | 'session' | 'currentStatus' | 'onStatus'>;

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn'>;

/** Told what each file held before the agent changed it, as the review learns it: the checkpoints record it (host/checkpoints). */
export interface ChangeSink {
  /** Whether `fsPath`'s earlier state is still wanted (the review may have it already, from an earlier turn). */
  wants(fsPath: string): boolean;
  record(fsPath: string, before: Earlier): void;
}

/**
 * Review of the agent's edits, whoever wrote them. Per turn it records the baseline of every
 * workspace file the agent touched, from three sources:
 *  - a tool call's diff content: that file's state is recorded at once, before the agent writes;
 *  - `beforeWrite` (our own fs/write_text_file calls it first);
 *  - the file system watcher, for agents that write to disk themselves: the cache's earlier
 *    text of the file becomes its baseline (see ContentCache).
 * After the turn the panel lists the files whose current state differs from their baseline; each
 * opens in VS Code's diff editor, and can be kept (the baseline is forgotten) or undone (the
 * baseline is restored by a WorkspaceEdit, which VS Code's own undo can take back).
 */
export class EditReviewer implements vscode.Disposable {
  private readonly review = new EditReview();
  private readonly cache: ContentCache;
  /** Every open session, whichever the panel shows: a turn in any of them may edit files. */
  private readonly sources = new Map<ReviewSource, vscode.Disposable>();
  private readonly disposables: vscode.Disposable[] = [];
  private phase: string | undefined;
  private inTurn = false;
  private graceUntil = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private computing: Promise<void> | undefined;
  private again = false;
  private published: ReviewFileView[] = [];
  /** What the list cannot show (files whose earlier text was over the review's budget), or null. */
  private note: string | null = null;
  /** The baselines shown on the left of review diffs. */
  private readonly documents = new ReadOnlyDocuments(REVIEW_SCHEME, MAX_KEPT);
  /** The modal an Undo of protected files asks in. Tests replace it. */
  confirm: Confirm = modalConfirm;

  constructor(
    /** Where an Undo may write: inside the workspace's folders, protected paths only when the user says so. */
    private readonly guard: RestoreGuard,
    private readonly log?: Log,
    private readonly sink: () => ChangeSink | undefined = () => undefined,
    /** Told first when the user opens a file's diff (following the agent gives way: Follower.yieldToUser). */
    private readonly userOpens: () => void = () => undefined,
  ) {
    this.cache = new ContentCache(undefined, () => this.recording);
    this.disposables.push(
      this.cache,
      this.cache.onWillChange((fsPath, kind, before) => this.onFileEvent(fsPath, kind, before)),
      this.documents,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!this.recording && this.review.has(e.document.uri.fsPath)) this.schedule(DEBOUNCE_MS);
      }),
    );
  }

  /** True while a turn runs, and a little after it (late watcher events). */
  private get recording(): boolean {
    return this.inTurn || Date.now() < this.graceUntil;
  }

  /** The files the panel lists now. */
  get files(): readonly ReviewFileView[] {
    return this.published;
  }

  /**
   * Follows a session until `unwatch`: its turns are recorded, and it shows the review list (one
   * list for the workspace, whichever session made the changes: the files are the user's).
   */
  watch(source: ReviewSource): void {
    if (this.sources.has(source)) return;
    this.sources.set(source, vscode.Disposable.from(
      source.onStatus(() => this.onPhases()),
      source.transcript.onChange((event) => this.onTranscript(source, event)),
    ));
    this.onPhases();
    source.session.setReview(this.published, this.note);
  }

  unwatch(source: ReviewSource): void {
    this.sources.get(source)?.dispose();
    this.sources.delete(source);
    this.onPhases();
  }

  /** Called by fs/write_text_file before it writes: the file's state now is its baseline. */
  async beforeWrite(file: string | vscode.Uri): Promise<void> {
    const uri = typeof file === 'string' ? vscode.Uri.file(path.normalize(file)) : file;
    if (!ContentCache.reviewable(uri) || this.known(uri.fsPath)) return;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) this.baseline(uri.fsPath, { kind: 'text', text: open.getText() }, true);
    else await this.recordFromCacheOrDisk(uri, true);
    if (!this.recording) this.schedule(DEBOUNCE_MS);
  }

  /** The baseline ↔ current file in VS Code's diff editor (the right side is the real, editable file). */
  async open(fsPath: string): Promise<void> {
    this.userOpens();
    const baseline = this.baselineOf(fsPath);
    const uri = vscode.Uri.file(fsPath);
    const name = path.basename(fsPath);
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    const left = this.documents.add(`baseline/${name}`, baseline.kind === 'text' ? baseline.text : '');
    const right = exists ? uri : this.documents.add(`deleted/${name}`, '');
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (agent’s changes)`, { preview: true });
  }

  /** Keeps one file's changes (or all, without a path): its baseline is forgotten. */
  async keep(fsPath?: string): Promise<void> {
    const paths = fsPath === undefined ? this.review.paths : [fsPath];
    // The cache learns the kept state first: a watcher event of the turn arriving late (or one
    // whose re-read is still running) must find it, not the earlier text, or the file would be
    // listed again against its old baseline.
    const states = await Promise.all(paths.map((p) => this.cache.read(vscode.Uri.file(p))));
    paths.forEach((p, i) => {
      const state = states[i];
      if (state !== undefined) this.cache.set(p, state);
      this.review.keep(p);
    });
    await this.compute();
  }

  /**
   * Restores the baseline of one file (or of every listed one) in one WorkspaceEdit: a modified
   * file gets its whole text back and is saved, a created one is deleted, a deleted one is
   * recreated. Undo in VS Code takes the edit back.
   */
  async undo(fsPath?: string): Promise<void> {
    try {
      await this.restore(fsPath);
    } catch (error) {
      // What the user clicked must say why nothing happened.
      void vscode.window.showWarningMessage(`Undo failed: ${(error as Error).message}`);
      throw error;
    }
  }

  /**
   * Undo, placed like a checkpoint's restore (guardedRestore.ts): a file whose real path leads
   * out of the workspace is left alone and named; protected files are undone only after a modal
   * naming them. Files whose earlier state is unknown are never listed, so never undone.
   */
  private async restore(fsPath?: string): Promise<void> {
    const paths = fsPath === undefined ? this.published.map((f) => f.path) : [fsPath];
    const files = paths.map((p) => ({ path: p, earlier: this.baselineOf(p) }));
    if (files.length === 0) return;
    const plan = await planFiles(files, this.guard, (p) => this.current(vscode.Uri.file(p)));
    const label = fsPath === undefined ? 'Undo the agent’s changes' : `Undo the agent’s changes to ${path.basename(fsPath)}`;
    let chosen = plan.changes;
    if (chosen.some((c) => c.protectedBy !== undefined)) {
      const count = plan.changes.length === 1 ? relative(plan.changes[0].path) : `${plan.changes.length} files`;
      chosen = (await confirmRestore(plan, this.confirm, `Undo the agent’s changes to ${count}? Protected files are among them.`, 'Undo')) ?? [];
    }
    await this.putBack(chosen, label);
    for (const { path: p } of chosen) this.review.forget(p);
    // What was left alone stays listed; the user is told why.
    if (plan.refused.length > 0) void vscode.window.showWarningMessage(`Undo left files as they are: ${describeRestore({ ...plan, changes: [] }, relative)}`);
    await this.compute();
  }

  /**
   * Puts files back as `changes` say (a checkpoint's restore, or an Undo) in one WorkspaceEdit at
   * their real paths, which VS Code's undo takes back; the cache learns their states at once, and
   * the review list follows.
   */
  async putBack(changes: readonly RestoreChange[], label: string): Promise<void> {
    await applyTexts(changes, label, (uri) => this.current(uri), this.log?.warn.bind(this.log));
    for (const { path: p, real, text } of changes) {
      this.cache.set(p, text);
      if (real !== p) this.cache.set(real, text);
    }
    await this.compute();
  }

  /** A file's state now, as a restore compares it: its unsaved buffer, else its text on disk. */
  state(fsPath: string): Promise<CurrentText | undefined> {
    return this.current(vscode.Uri.file(fsPath));
  }

  dispose(): void {
    for (const subscription of this.sources.values()) subscription.dispose();
    this.sources.clear();
    for (const d of this.disposables) d.dispose();
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
  }

  /** A turn runs while any session prompts; the recording ends when the last one stops. */
  private onPhases(): void {
    const phases = [...this.sources.keys()].map((s) => s.currentStatus.phase);
    this.onPhase(phases.includes('prompting') ? 'prompting' : phases.some((p) => p !== 'idle') ? 'ready' : 'idle');
  }

  private onPhase(phase: string): void {
    const previous = this.phase;
    this.phase = phase;
    // Seeded as soon as an agent starts: the earlier, the less a first turn can race it.
    if (phase !== 'idle') void this.cache.seed().catch((error: Error) => this.log?.warn(`Review: reading the workspace failed: ${error.message}`));
    if (phase === 'prompting' && previous !== 'prompting') {
      this.inTurn = true;
    } else if (phase !== 'prompting' && previous === 'prompting') {
      this.inTurn = false;
      this.graceUntil = Date.now() + GRACE_MS;
      this.schedule(0);
      // Once late events can no longer be the turn's, the list is settled (and pruned).
      clearTimeout(this.graceTimer);
      this.graceTimer = setTimeout(() => this.schedule(0), GRACE_MS + 50);
    }
  }

  private onTranscript(source: ReviewSource, event: TranscriptEvent): void {
    if (event.type !== 'added' && event.type !== 'updated') return;
    const entry = source.transcript.entries[event.index];
    if (entry?.kind !== 'tool') return;
    entry.content.forEach((content, contentIndex) => {
      if (content.type !== 'diff') return;
      const diff = source.transcript.diffSource(event.index, contentIndex);
      if (!diff || !path.isAbsolute(diff.path)) return;
      const uri = vscode.Uri.file(path.normalize(diff.path));
      if (!ContentCache.reviewable(uri) || this.known(uri.fsPath)) return;
      void this.recordFromCacheOrDisk(uri).then(() => {
        if (!this.recording) this.schedule(DEBOUNCE_MS);
      });
    });
  }

  /** The cache answers synchronously (before the agent can write); a file it lacks is read now. */
  private async recordFromCacheOrDisk(uri: vscode.Uri, agentWrite = false): Promise<void> {
    const cached = this.cache.before(uri.fsPath);
    this.baseline(uri.fsPath, cached.kind !== 'unknown' ? cached : earlierOf(await this.cache.read(uri)), agentWrite);
  }

  /** Whether both the review and the checkpoints have `fsPath`'s earlier state already. */
  private known(fsPath: string): boolean {
    return this.review.has(fsPath) && !this.sink()?.wants(fsPath);
  }

  /**
   * `fsPath` held `before` before the agent changed it; returns whether the review recorded it
   * now. The checkpoints take it in a turn, or from the agent's own write: a tool call replayed
   * by a load between turns changes nothing.
   */
  private baseline(fsPath: string, before: Earlier, agentWrite = false): boolean {
    if (this.recording || agentWrite) this.sink()?.record(fsPath, before);
    return before.kind === 'unknown' ? this.review.touch(fsPath) : this.review.record(fsPath, before.kind === 'text' ? before.text : null);
  }

  private onFileEvent(fsPath: string, kind: FileEventKind, before: Earlier): void {
    if (this.recording) {
      if (this.baseline(fsPath, before) && before.kind === 'unknown') this.log?.info(`Review: ${fsPath} changed (${kind}) but its earlier state is unknown (binary, too large or never read): it is not listed.`);
    }
    if (this.review.has(fsPath) && !this.inTurn) this.schedule(DEBOUNCE_MS);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.compute();
    }, delay);
  }

  /** Recomputes the list from the files' current states and publishes it; calls during a run queue one more. */
  private async compute(): Promise<void> {
    if (this.computing) {
      this.again = true;
      return this.computing;
    }
    this.computing = (async () => {
      do {
        this.again = false;
        const current = new Map<string, CurrentText>();
        for (const p of this.review.paths) {
          const state = await this.current(vscode.Uri.file(p));
          if (state !== undefined) current.set(p, state);
        }
        const files = this.review.list(current);
        if (!this.recording) this.review.prune(current);
        this.publish(files);
      } while (this.again);
    })().finally(() => (this.computing = undefined));
    return this.computing;
  }

  private publish(files: ReviewFileView[]): void {
    const notKept = this.review.notKept;
    const note = notKept === 0 ? null : `${notKept === 1 ? '1 more changed file is' : `${notKept} more changed files are`} not listed: the review keeps ${MAX_BASELINE_CHARS / 1_000_000} million characters of earlier text, and that was used up. Keep all clears this.`;
    if (note === this.note && JSON.stringify(files) === JSON.stringify(this.published)) return;
    this.published = files;
    this.note = note;
    for (const source of this.sources.keys()) source.session.setReview(files, note);
  }

  /** A file's state now: its unsaved buffer when it has one, else its text on disk. */
  private async current(uri: vscode.Uri): Promise<CurrentText | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) return open.getText();
    return this.cache.read(uri);
  }

  /** The earlier state of a listed file (a file the review has no earlier state of is not listed: it cannot be undone). */
  private baselineOf(fsPath: string): Earlier {
    const baseline = this.review.baseline(fsPath);
    if (!baseline?.known) throw new Error(`${path.basename(fsPath)} has no changes to review (or its earlier state is unknown: it is left as it is).`);
    return earlierOf(baseline.text);
  }
}
