/**
 * The older part of a restored transcript, rendered after the first paint. Rendering every entry
 * of a long snapshot at once (markdown, sanitizing, DOM) blocked the panel for seconds at 10,000
 * entries; the transcript renders the tail the user sees and leaves a placeholder for each older
 * entry, which this fills in idle slices, newest first, so the entries nearest the view come first.
 * Slices are short, so a host message or a keystroke waits at most one slice.
 */

/** Main-thread time one slice may take, whatever the browser's idle deadline offers. */
const SLICE_MS = 4;

/** The class of an entry not rendered yet: an empty div, without `.entry`, at its index's place. */
export const PENDING = 'entry-pending';

export class Backlog {
  private handle: number | undefined;
  private next = -1;

  /** `render(index)` renders the placeholder at `index`, if it still is one. */
  constructor(private readonly render: (index: number) => void) {}

  /** Renders indices `below - 1` down to 0, in idle slices; replaces any backlog still running. */
  start(below: number): void {
    this.cancel();
    this.next = below - 1;
    if (this.next >= 0) this.schedule();
  }

  cancel(): void {
    if (this.handle !== undefined) cancelIdleCallback(this.handle);
    this.handle = undefined;
    this.next = -1;
  }

  private schedule(): void {
    this.handle = requestIdleCallback((deadline) => {
      this.handle = undefined;
      const end = performance.now() + Math.min(SLICE_MS, deadline.timeRemaining());
      do this.render(this.next--);
      while (this.next >= 0 && performance.now() < end);
      if (this.next >= 0) this.schedule();
    });
  }
}
