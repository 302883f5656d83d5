import { deferredSummary } from './diffSummary';
import type { DiffSummary } from './model';

/** The full texts behind a diff card, kept because the card only carries a summary. */
export interface DiffSource {
  path: string;
  oldText: string | null;
  newText: string;
}

/**
 * The characters of diff texts one session keeps (UTF-16: up to twice as many bytes). Past it the
 * oldest diffs lose their texts (their cards keep the summary and say so): an agent rewriting
 * big files all day must not grow the extension host without end.
 */
export const MAX_DIFF_TEXT_CHARS = 32_000_000;

/** Why a diff no longer opens (its card keeps the summary). */
export const DIFF_TEXTS_DROPPED = `The full texts of this diff are no longer kept: a session keeps the newest ${MAX_DIFF_TEXT_CHARS / 1_000_000} million characters of diff texts, and none after a window reload.`;

/** One diff of a tool call: its card's summary, and its full texts while they are kept. */
interface Diff {
  readonly toolCallId: string;
  view: DiffSummary;
  source: DiffSource | undefined;
  /** Tells a repeated diff without comparing whole texts, once they are dropped (taken then). */
  fingerprint?: string;
  /** The characters charged to it while it is held: its texts, less an old text it shares with `prior`. */
  size: number;
  /** The diff whose new text its old text is, the same string (taken so when it was made). */
  prior?: Diff;
  /** The diff held after it that shares its new text: it takes the charge when this one goes. */
  next?: Diff;
}

const ENDS = 256;

/** The path, the lengths and both ends of each text: a repeat of a dropped diff has the same. */
function fingerprintOf({ path, oldText, newText }: DiffSource): string {
  const ends = (text: string | null) => (text === null ? 'null' : `${text.length}:${text.slice(0, ENDS)}:${text.slice(-ENDS)}`);
  return JSON.stringify([path, ends(oldText), ends(newText)]);
}

/**
 * The diffs of a session's tool calls: per call, its diffs at the index of the content they belong
 * to, and their full texts within MAX_DIFF_TEXT_CHARS, newest kept first. Pure: the transcript
 * shows the summaries, the host opens the texts in VS Code's diff editor.
 *
 * An agent that sends whole files edits a file as a chain: each edit's old text is the new text
 * of the one before. The two are kept as one string, charged once (to the older diff, then to the
 * newer when the older goes), so a session editing the same files keeps about twice as many diffs
 * within the budget, and the copy the agent sent again is garbage at once rather than memory.
 */
export class DiffTexts {
  private readonly calls = new Map<string, (Diff | undefined)[]>();
  /** The diffs whose texts are kept, oldest first. */
  private readonly held = new Set<Diff>();
  /** Per path, the held diff with its newest text: the one an edit of that file chains to. */
  private readonly newest = new Map<string, Diff>();
  private chars = 0;

  constructor(private readonly budget = MAX_DIFF_TEXT_CHARS) {}

  /**
   * A tool call's new content (its diffs' sources at their indexes): its card summaries, and the
   * other tool calls whose diffs lost their texts to make room (their cards are to be shown again).
   * Agents resend a call's whole content with later updates: a diff it already had keeps its summary.
   */
  set(toolCallId: string, sources: readonly (DiffSource | undefined)[]): { views: (DiffSummary | undefined)[]; dropped: Set<string> } {
    const before = this.calls.get(toolCallId) ?? [];
    const diffs = sources.map((source) => source && (before.find((d) => d && same(d, source)) ?? this.make(toolCallId, source)));
    for (const old of before) if (old && !diffs.includes(old)) this.release(old);
    this.calls.set(toolCallId, diffs);
    const dropped = new Set<string>();
    for (const diff of diffs) if (diff?.source && !this.held.has(diff)) this.hold(diff, dropped);
    dropped.delete(toolCallId);
    return { views: this.views(toolCallId), dropped };
  }

  /** The summaries of a tool call's diffs, at their content indexes. */
  views(toolCallId: string): (DiffSummary | undefined)[] {
    return (this.calls.get(toolCallId) ?? []).map((d) => d?.view);
  }

  /** The full texts of a tool call's diff, while they are kept. */
  source(toolCallId: string, contentIndex: number): DiffSource | undefined {
    return this.calls.get(toolCallId)?.[contentIndex]?.source;
  }

  /** What is kept now, in characters (for tests and logs). */
  get keptChars(): number {
    return this.chars;
  }

  clear(): void {
    this.calls.clear();
    this.held.clear();
    this.newest.clear();
    this.chars = 0;
  }

  private make(toolCallId: string, source: DiffSource): Diff {
    // An old text equal to the held newest text of its file is taken as that very string.
    const newest = this.newest.get(source.path);
    const prior = source.oldText !== null && source.oldText === newest?.source?.newText ? newest : undefined;
    const texts = prior ? { ...source, oldText: prior.source!.newText } : source;
    return { toolCallId, view: deferredSummary(texts.path, texts.oldText, texts.newText), source: texts, size: 0, prior };
  }

  /** Keeps `diff`'s texts, dropping the oldest others' (their tool calls go to `dropped`) until they fit; too big on its own, it keeps none. */
  private hold(diff: Diff, dropped: Set<string>): void {
    const { oldText, newText, path } = diff.source!;
    // Its old text costs nothing while the diff it shares it with holds it (the loop may drop that
    // one), unless another diff shares it already: one takes the charge over, the other pays its own.
    const shares = () => diff.prior !== undefined && this.held.has(diff.prior) && (diff.prior.next ?? diff) === diff;
    const cost = () => (shares() ? 0 : (oldText?.length ?? 0)) + newText.length;
    for (const oldest of this.held) {
      if (cost() > this.budget || this.chars + cost() <= this.budget) break;
      this.release(oldest);
      this.drop(oldest);
      dropped.add(oldest.toolCallId);
    }
    diff.size = cost();
    if (diff.size > this.budget) {
      diff.prior = undefined;
      return this.drop(diff);
    }
    if (shares()) diff.prior!.next = diff;
    else diff.prior = undefined;
    this.newest.set(path, diff);
    this.held.add(diff);
    this.chars += diff.size;
  }

  /**
   * Lets go of `diff`'s texts. A new text it shares with the diff after it stays, charged to that
   * one now; the links go, so that neither keeps the other's texts alive.
   */
  private release(diff: Diff): void {
    if (!this.held.delete(diff)) return;
    this.chars -= diff.size;
    const { next, prior, source } = diff;
    if (next) {
      next.size += source!.newText.length;
      this.chars += source!.newText.length;
      next.prior = undefined;
      diff.next = undefined;
    }
    if (prior) {
      prior.next = undefined;
      diff.prior = undefined;
    }
    if (this.newest.get(source!.path) === diff) this.newest.delete(source!.path);
  }

  private drop(diff: Diff): void {
    if (diff.source) diff.fingerprint = fingerprintOf(diff.source);
    diff.source = undefined;
    diff.view = { ...diff.view, textsDropped: true };
  }
}

function same(diff: Diff, source: DiffSource): boolean {
  if (diff.source) return diff.source.path === source.path && diff.source.oldText === source.oldText && diff.source.newText === source.newText;
  return diff.fingerprint === fingerprintOf(source);
}
