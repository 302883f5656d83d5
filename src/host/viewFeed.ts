import type { SessionState } from '../session/sessionState';
import type { Transcript, TranscriptEvent } from '../session/transcript';
import type { HostToView, HostToViewMessage, StatusView } from '../webview-protocol/messages';

/** What the panel projects: a controller, seen through what it exposes. */
export interface FeedSource {
  readonly transcript: Transcript;
  readonly session: SessionState;
  readonly currentStatus: StatusView;
  onStatus(listener: (status: StatusView) => void): () => void;
}

/** One frame at 60 Hz: the panel gets at most one post per frame, however fast the agent streams. */
export const FRAME_MS = 16;

type Pending = { kind: 'entry' } | { kind: 'append'; text: string };

/**
 * Turns a source's changes into messages for the panel (no `vscode` here, so it is tested and
 * benchmarked in plain Node). Changes are marked, not copied: when the batch is posted each
 * changed entry is sent once, as it is then, and text that only grew is sent as the appended
 * part, so streaming costs O(chunk) per frame rather than O(entry).
 *
 * A change after a quiet frame is posted at once (from the next timer turn, so changes made in
 * the same task still travel together); while changes keep coming, each post goes out one frame
 * after the previous one, with everything that changed in between.
 */
export class ViewFeed {
  private source: FeedSource | undefined;
  private readonly pending = new Map<number, Pending>();
  private statusDirty = false;
  private sessionDirty = false;
  private snapshotDue = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPost = -Infinity;
  private subscriptions: (() => void)[] = [];

  constructor(
    private readonly post: (message: HostToView) => void,
    private readonly frameMs = FRAME_MS,
  ) {}

  /** Follows another source (another agent): the panel gets its whole state at once. */
  attach(source: FeedSource): void {
    this.unsubscribe();
    this.source = source;
    this.subscriptions = [
      source.transcript.onChange((event) => this.onTranscript(event)),
      source.onStatus(() => this.mark(() => (this.statusDirty = true))),
      source.session.onChange(() => this.mark(() => (this.sessionDirty = true))),
    ];
    this.snapshot();
  }

  /** The whole state, now; what was pending is in it. */
  snapshot(): void {
    const source = this.source;
    if (!source) return;
    this.clearPending();
    this.lastPost = performance.now();
    this.post({ type: 'snapshot', status: source.currentStatus, session: source.session.view, entries: [...source.transcript.entries] });
  }

  dispose(): void {
    this.unsubscribe();
    this.clearPending();
  }

  private onTranscript(event: TranscriptEvent): void {
    this.mark(() => {
      if (event.type === 'reset') {
        this.snapshotDue = true;
        return;
      }
      const pending = this.pending.get(event.index);
      if (event.type !== 'appended') this.pending.set(event.index, { kind: 'entry' });
      else if (!pending) this.pending.set(event.index, { kind: 'append', text: event.text });
      else if (pending.kind === 'append') pending.text += event.text;
      // A pending whole entry already holds the appended text when it is sent.
    });
  }

  private mark(change: () => void): void {
    change();
    // Node runs a timer due now or in the past (a quiet period) in its next timer turn.
    this.timer ??= setTimeout(() => this.flush(), this.lastPost + this.frameMs - performance.now());
  }

  private flush(): void {
    this.timer = undefined;
    const source = this.source;
    if (!source) return;
    if (this.snapshotDue) return this.snapshot();
    const messages: HostToViewMessage[] = [];
    for (const [index, pending] of [...this.pending].sort(([a], [b]) => a - b)) {
      if (pending.kind === 'append') messages.push({ type: 'append', index, text: pending.text });
      else messages.push({ type: 'entry', index, entry: source.transcript.entries[index] });
    }
    if (this.statusDirty) messages.push({ type: 'status', status: source.currentStatus });
    if (this.sessionDirty) messages.push({ type: 'session', session: source.session.view });
    this.clearPending();
    if (messages.length > 0) this.lastPost = performance.now();
    if (messages.length === 1) this.post(messages[0]);
    else if (messages.length > 1) this.post({ type: 'batch', messages });
  }

  private clearPending(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.statusDirty = false;
    this.sessionDirty = false;
    this.snapshotDue = false;
  }

  private unsubscribe(): void {
    this.subscriptions.splice(0).forEach((off) => off());
  }
}
