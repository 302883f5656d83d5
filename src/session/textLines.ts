/**
 * `fs/read_text_file` line windows. ACP lines are 1-based (0 or null: from the start) and
 * `limit` counts lines; this is the one place that converts. It scans for newlines instead of
 * splitting, so a window of a large file copies only the window.
 * Returns lines `line`…`line+limit-1`, with their line endings.
 */
export function sliceLines(text: string, line: number, limit: number | undefined): string {
  let start = 0;
  for (let n = 1; n < line && start !== -1; n++) start = nextLine(text, start);
  if (start === -1) return '';
  if (limit === undefined) return text.slice(start);
  let end = start;
  for (let n = 0; n < limit && end !== -1; n++) end = nextLine(text, end);
  return end === -1 ? text.slice(start) : text.slice(start, end);
}

function nextLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? -1 : nl + 1;
}
