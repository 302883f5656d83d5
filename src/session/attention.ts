import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import type { TabInfo } from './sessionTabs';

/** What an open session asks of the user while they look elsewhere: an answer (a permission, a form), or a look at a turn that ended. */
export type Attention = 'waiting' | 'done' | null;

/** An open session as the switcher lists it, with its mark. */
export type MarkedTab = TabInfo & { attention: Attention };

interface Marks {
  /** Questions waiting in the session now. */
  questions: number;
  /** A question came while the user looked elsewhere, and still waits. */
  waiting: boolean;
  /** A turn ended while the user looked elsewhere. */
  done: boolean;
}

/**
 * Which open sessions need the user: a question (permission, form) asked, or a turn ended, while
 * they were not looking at that session (the panel hidden, the window unfocused, or another
 * session shown). A mark goes when the user looks at the session, or, for a question, when no
 * question waits any more (answered, cancelled, withdrawn). No `vscode` here: the host feeds it
 * what happens and what the user looks at (host/panel/attention.ts), and tells the user when a
 * call returns true: once per mark, so never twice for one wait, never while they look.
 */
export class AttentionMarks {
  private readonly marks = new Map<string, Marks>();
  /** The session the user looks at (shown, in a visible panel of a focused window), if any. */
  private looking: string | undefined;
  private readonly changed = new Emitter<void>();
  /** Fired when a session's mark changes. */
  readonly onChange: Event<void> = this.changed.event;

  /** Session `key` has `count` questions waiting now. True: a question came while the user looked elsewhere, the first since they looked. */
  questions(key: string, count: number): boolean {
    const marks = this.of(key);
    const asked = count > marks.questions;
    marks.questions = count;
    if (count === 0) {
      this.set(marks, { waiting: false });
      return false;
    }
    if (!asked || key === this.looking || marks.waiting) return false;
    this.set(marks, { waiting: true });
    return true;
  }

  /** A turn of session `key` ended. True: the user looked elsewhere, and no turn end of it is marked yet. */
  turnEnded(key: string): boolean {
    const marks = this.of(key);
    if (key === this.looking || marks.done) return false;
    this.set(marks, { done: true });
    return true;
  }

  /** The user looks at session `key` now (undefined: at none); its marks go. */
  look(key: string | undefined): void {
    this.looking = key;
    const marks = key === undefined ? undefined : this.marks.get(key);
    if (marks) this.set(marks, { waiting: false, done: false });
  }

  /** Session `key` was closed. */
  closed(key: string): void {
    const had = this.attention(key) !== null;
    this.marks.delete(key);
    if (had) this.changed.fire();
  }

  attention(key: string): Attention {
    const marks = this.marks.get(key);
    return marks?.waiting ? 'waiting' : marks?.done ? 'done' : null;
  }

  /** How many sessions need the user (the view's badge). */
  get count(): number {
    let count = 0;
    for (const key of this.marks.keys()) if (this.attention(key) !== null) count++;
    return count;
  }

  mark(tabs: readonly TabInfo[]): MarkedTab[] {
    return tabs.map((tab) => ({ ...tab, attention: this.attention(tab.key) }));
  }

  dispose(): void {
    this.changed.dispose();
  }

  private of(key: string): Marks {
    let marks = this.marks.get(key);
    if (!marks) this.marks.set(key, (marks = { questions: 0, waiting: false, done: false }));
    return marks;
  }

  private set(marks: Marks, patch: Partial<Omit<Marks, 'questions'>>): void {
    const { waiting, done } = marks;
    Object.assign(marks, patch);
    if (marks.waiting !== waiting || marks.done !== done) this.changed.fire();
  }
}
