import type { Disposable, Event } from 'vscode-jsonrpc';
import type { SessionState } from '../session/sessionState';
import type { Transcript, TranscriptEvent } from '../session/transcript';
import { entriesView, entryView, sessionView } from './projection';
import type { HostToView, HostToViewMessage, StatusView } from '../webview-protocol/messages';

/** What the panel projects: a controller, seen through what it exposes. */
export interface FeedSource {
  readonly transcript: Transcript;
  readonly session: SessionState;
  readonly currentStatus: StatusView;
  readonly onStatus: Event<StatusView>;
}

/**
 * How long a post may go unacknowledged before the feed posts again anyway. A live panel answers
 * in milliseconds; this only matters if an answer is lost (a view reloaded mid-post sends `ready`
 * instead, which brings a snapshot).
 */
export const RENDERED_TIMEOUT_MS = 1000;

type Pending = { kind: 'entry' } | { kind: 'append'; text: string };

/** What the feed posts: a snapshot or a batch, always numbered for the panel's `rendered`. */
export type FeedPost = HostToView & { seq: number };

/**
 * Turns a source's changes into messages for the panel (no `vscode` here, so it is tested and
 * benchmarked in plain Node). Changes are marked, not copied: when a batch is posted each
 * changed entry is sent once, as it is then, and text that only grew is sent as the appended
 * part, so streaming costs O(chunk) per post rather than O(entry).
 *
 * Pacing is flow control, not a clock: one post is in flight at a time. A change while the panel
 * is idle is posted at once (from the next turn of the event loop, so changes made in the same
 * task travel together); changes made while a post is in flight wait for the panel's `rendered`
 * and then go as one batch. So text reaches the DOM as soon as the panel can take it (a frame
 * clock holds every change for up to a frame first), and a panel that renders slowly is sent
 * fewer, bigger batches instead of falling behind. VS Code's terminal paces pty data to its
 * renderer with acknowledgements for the same reason.
 */
export class ViewFeed {
  private source: FeedSource | undefined;
  private readonly pending = new Map<number, Pending>();
  private statusDirty = false;
  private sessionDirty = false;
  private snapshotDue = false;
  /** A flush is scheduled for the next turn of the event loop. */
  private scheduled: ReturnType<typeof setImmediate> | undefined;
  private seq = 0;
  /** The post the panel has not yet said it rendered, with the timer that stops waiting for it. */
  private inFlight: { seq: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private subscriptions: Disposable[] = [];

  constructor(
    private readonly post: (message: FeedPost) => void,
    private readonly renderedTimeoutMs = RENDERED_TIMEOUT_MS,
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

  /** The whole state, now, whatever is in flight (a reloaded panel lost it); what was pending is in it. */
  snapshot(): void {
    const source = this.source;
    if (!source) return;
    this.clearPending();
    this.send({ type: 'snapshot', seq: this.nextSeq(), status: source.currentStatus, session: sessionView(source.session.view), entries: entriesView(source.transcript.entries) });
  }

  /** The panel has post `seq` in its DOM: what changed meanwhile goes now. Stale answers are ignored. */
  rendered(seq: number): void {
    if (this.inFlight?.seq !== seq) return;
    this.settle();
    if (this.hasPending()) this.schedule();
  }

  dispose(): void {
    this.unsubscribe();
    this.clearPending();
    this.settle();
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
    if (!this.inFlight) this.schedule();
  }

  private schedule(): void {
    this.scheduled ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = undefined;
    const source = this.source;
    if (!source || this.inFlight) return;
    if (this.snapshotDue) return this.snapshot();
    const messages: HostToViewMessage[] = [];
    for (const [index, pending] of [...this.pending].sort(([a], [b]) => a - b)) {
      if (pending.kind === 'append') messages.push({ type: 'append', index, text: pending.text });
      else messages.push({ type: 'entry', index, entry: entryView(source.transcript.entries[index]) });
    }
    if (this.statusDirty) messages.push({ type: 'status', status: source.currentStatus });
    if (this.sessionDirty) messages.push({ type: 'session', session: sessionView(source.session.view) });
    this.clearPending();
    if (messages.length > 0) this.send({ type: 'batch', seq: this.nextSeq(), messages });
  }

  private send(message: FeedPost): void {
    this.settle();
    const { seq } = message;
    // A lost answer must not stop the feed: after the timeout, whatever is pending goes anyway.
    this.inFlight = { seq, timer: setTimeout(() => this.rendered(seq), this.renderedTimeoutMs) };
    this.post(message);
  }

  private nextSeq(): number {
    return ++this.seq;
  }

  private hasPending(): boolean {
    return this.pending.size > 0 || this.statusDirty || this.sessionDirty || this.snapshotDue;
  }

  private settle(): void {
    clearTimeout(this.inFlight?.timer);
    this.inFlight = undefined;
  }

  private clearPending(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.pending.clear();
    this.statusDirty = false;
    this.sessionDirty = false;
    this.snapshotDue = false;
  }

  private unsubscribe(): void {
    this.subscriptions.splice(0).forEach((subscription) => subscription.dispose());
  }
}
