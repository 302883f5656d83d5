// Line numbers. ACP's are 1-based (fs/read_text_file's `line`, tool call locations, `#L12` links),
// VS Code's are 0-based: every conversion between the two is here. Pure.

/**
 * The 0-based line of an ACP line: 0, null or absent mean the first line. With `lineCount`, a
 * line past the end is the last one.
 */
export function toZeroBasedLine(line: number | null | undefined, lineCount?: number): number {
  const zeroBased = Math.max(0, (line ?? 1) - 1);
  return lineCount === undefined ? zeroBased : Math.min(zeroBased, Math.max(0, lineCount - 1));
}

/** The ACP line of a VS Code one. */
export function toOneBasedLine(line: number): number {
  return line + 1;
}

/** The last line (0-based) a range holds: one ending at the start of a line does not hold that line (a selection of whole lines). */
export function lastHeldLine(start: { line: number }, end: { line: number; character: number }): number {
  return end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
}

/**
 * `fs/read_text_file` line windows: lines `line`…`line+limit-1` (ACP lines; 0 or null: from the
 * start), with their line endings; no `limit`: to the end. It scans for newlines instead of
 * splitting, so a window of a large file copies only the window.
 */
export function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  let start = 0;
  for (let skip = toZeroBasedLine(line); skip > 0 && start !== -1; skip--) start = nextLine(text, start);
  if (start === -1) return '';
  if (limit === undefined || limit === null) return text.slice(start);
  let end = start;
  for (let n = 0; n < limit && end !== -1; n++) end = nextLine(text, end);
  return end === -1 ? text.slice(start) : text.slice(start, end);
}

function nextLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? -1 : nl + 1;
}
