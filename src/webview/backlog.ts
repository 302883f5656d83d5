/**
 * The older part of a restored transcript, rendered after the first paint. Rendering every entry
 * of a long snapshot at once (markdown, sanitizing, DOM) blocked the panel for seconds at 10,000
 * entries; the transcript renders the tail the user sees and leaves a placeholder for each older
 * entry, which this fills in idle slices, newest first, so the entries nearest the view come first.
 * Slices are short, so a host message or a keystroke waits at most one slice.
 */

/** Main-thread time one slice may take, whatever the browser's idle deadline offers. */
const SLICE_MS = 4;
/**
 * The same while the host streams (an update within the last STREAMING_MS): its next post then
 * waits at most this long behind a slice, and the backlog takes less of the time between frames.
 * Not always this short: the browser runs one idle callback per idle period, so 1 ms slices on an
 * idle panel would take four times as long to fill the placeholders. In bench/pixels.mjs's stream
 * after a 10,000-entry restore, the p95 from host to DOM fell by about 1 ms in each of three
 * alternating rounds (worst of 5 runs 11.0, 11.0, 10.6 ms against 11.8, 12.0, 13.1 ms).
 */
const STREAMING_SLICE_MS = 1;
const STREAMING_MS = 100;

/** The class of an entry not rendered yet: an empty div, without `.entry`, at its index's place. */
export const PENDING = 'entry-pending';

export class Backlog {
  private handle: number | undefined;
  private next = -1;
  private lastUpdate = -Infinity;

  /** `render(index)` renders the placeholder at `index`, if it still is one. */
  constructor(private readonly render: (index: number) => void) {}

  /** Renders indices `below - 1` down to 0, in idle slices; replaces any backlog still running. */
  start(below: number): void {
    this.cancel();
    this.next = below - 1;
    if (this.next >= 0) this.schedule();
  }

  /** The host changed an entry: while it keeps doing so, slices are short. */
  noteUpdate(): void {
    this.lastUpdate = performance.now();
  }

  cancel(): void {
    if (this.handle !== undefined) cancelIdleCallback(this.handle);
    this.handle = undefined;
    this.next = -1;
  }

  private schedule(): void {
    this.handle = requestIdleCallback((deadline) => {
      this.handle = undefined;
      const now = performance.now();
      const slice = now - this.lastUpdate < STREAMING_MS ? STREAMING_SLICE_MS : SLICE_MS;
      const end = now + Math.min(slice, deadline.timeRemaining());
      do this.render(this.next--);
      while (this.next >= 0 && performance.now() < end);
      if (this.next >= 0) this.schedule();
    });
  }
}
