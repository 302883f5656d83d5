import { diffArrays } from 'diff';
import type { DiffSummary } from './model';

/** How many changed lines a tool card previews; the diff editor shows the rest. */
export const DIFF_PREVIEW_LINES = 40;
/** A minified one-line file must not become a megabyte of preview. */
export const PREVIEW_LINE_CHARS = 400;
/**
 * Line diffs are O(N·D): an agent that rewrites a huge file must not stall the extension host.
 * Past these bounds the card counts every line after the common start as replaced (still true,
 * only coarser).
 */
const MAX_DIFF_CHARS = 2_000_000;
const MAX_EDIT_LENGTH = 2_000;

/** Summarises an agent's diff (whole files or fragments, `oldText` null for a new file) for its card. */
export function summariseDiff(path: string, oldText: string | null, newText: string): DiffSummary {
  const preview: string[] = [];
  let added = 0;
  let removed = 0;
  const note = (sign: '+' | '-', lines: readonly string[]) => {
    if (sign === '+') added += lines.length;
    else removed += lines.length;
    // One line past the limit is kept to know that the preview is truncated.
    for (const line of lines) if (preview.length <= DIFF_PREVIEW_LINES) preview.push(sign + withoutMark(line).slice(0, PREVIEW_LINE_CHARS));
  };
  const old = oldText ?? '';
  // Only the lines between those both texts begin and end with are diffed: an edit of a few lines
  // of a long file then costs about those lines, not the whole file. The counts are the same,
  // for a shortest line diff keeps every common line at either end; where several shortest
  // diffs exist, the preview may show another of them than a diff of the whole texts would.
  const start = sharedStart(old, newText);
  const end = sharedEnd(old, newText, start);
  const oldLines = lineTokens(old.slice(start, old.length - end));
  const newLines = lineTokens(newText.slice(start, newText.length - end));
  // All added or all removed needs no diff.
  const diffable = oldLines.length > 0 && newLines.length > 0 && old.length + newText.length - 2 * (start + end) <= MAX_DIFF_CHARS;
  const changes = diffable ? diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH }) : undefined;
  if (changes) {
    for (const change of changes) {
      if (change.added) note('+', change.value);
      else if (change.removed) note('-', change.value);
    }
  } else {
    note('-', oldLines);
    note('+', newLines);
  }
  return {
    type: 'diff',
    path,
    isNewFile: oldText === null,
    added,
    removed,
    preview: detached(preview.slice(0, DIFF_PREVIEW_LINES)),
    previewTruncated: preview.length > DIFF_PREVIEW_LINES,
  };
}

/**
 * summariseDiff, computed once, when one of its counts is first read (the panel's next post,
 * view/projection.ts; the transcript's save; the export; DiffTexts dropping the texts), rather
 * than for every update that carries a diff. An agent that streams an edit resends it many
 * times, and a session replayed by `session/load` carries thousands of diffs before anything is
 * shown. The counts are own, enumerable getters, so a spread, JSON and zod read them like any
 * other property; the texts are released once they are computed.
 */
export function deferredSummary(path: string, oldText: string | null, newText: string): DiffSummary {
  const view = { type: 'diff', path, isNewFile: oldText === null } as const;
  Object.defineProperty(view, PENDING, { value: { oldText, newText } satisfies Pending, writable: true });
  return Object.defineProperties(view, COUNTS) as unknown as DiffSummary;
}

/** The texts a deferred summary is computed from, then the summary: a hidden (non-enumerable) own property. */
const PENDING = Symbol('pending diff summary');
type Pending = { oldText: string | null; newText: string } | DiffSummary;
type Deferred = { path: string; [PENDING]: Pending };

function counted(view: Deferred): DiffSummary {
  const pending = view[PENDING];
  if ('type' in pending) return pending;
  return (view[PENDING] = summariseDiff(view.path, pending.oldText, pending.newText));
}

/**
 * The getters of every deferred summary: the same functions for all, so that a summary is one
 * small object of a shape shared by all (getters written in an object literal were four closures
 * and a context per diff: about 1 KB each, and twice the time to make).
 */
const COUNTS: PropertyDescriptorMap = Object.fromEntries(
  (['added', 'removed', 'preview', 'previewTruncated'] as const satisfies readonly (keyof DiffSummary)[]).map((key) => [
    key,
    { enumerable: true, get: function (this: Deferred) { return counted(this)[key]; } },
  ]),
);

/** Characters compared at once (one native comparison) before the last block is walked. */
const BLOCK = 1024;

/** Where the whole lines that `a` and `b` both begin with end. */
function sharedStart(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= max && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i === 0 ? 0 : a.lastIndexOf('\n', i - 1) + 1;
}

/** How long the whole lines are that `a` and `b` both end with, after their first `start` characters. */
function sharedEnd(a: string, b: string, start: number): number {
  const max = Math.min(a.length, b.length) - start;
  let n = 0;
  while (n + BLOCK <= max && a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)) n += BLOCK;
  while (n < max && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  // Whole lines: the shared end starts after a line break (or the shared start) in both texts,
  // else after the first line break inside it.
  const lineStart = (text: string, at: number) => at === start || text.charCodeAt(at - 1) === 10;
  if (lineStart(a, a.length - n) && lineStart(b, b.length - n)) return n;
  const next = a.indexOf('\n', a.length - n);
  return next === -1 ? 0 : a.length - next - 1;
}

/**
 * The lines of a text as diff tokens, equal exactly when jsdiff's `diffLines` tokens are (so the
 * summary is the same), at less than half its cost: `diffLines` splits with a regex, keeps each
 * line's newline, and joins and re-splits every hunk. Here a line is a plain `split` part, and
 * only a last line without a newline is marked (with a `\n`, which no other part contains), as
 * `a` at the end of a file is not the line `a\n`.
 */
function lineTokens(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] += '\n';
  return lines;
}

/**
 * Copies of the lines that share no memory with the texts they came from. V8 may make a part of
 * a long string a view into it, and a short concatenation a pair of pointers: a preview line kept
 * that way kept the whole file alive, and a session editing many big files held their texts
 * (measured: 1,000 edits of 100 KB files, 160 MB more than the budget of diff texts allows).
 * JSON's round trip is the standard way to get flat strings of one's own.
 */
function detached(lines: string[]): string[] {
  return JSON.parse(JSON.stringify(lines)) as string[];
}

function withoutMark(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}
