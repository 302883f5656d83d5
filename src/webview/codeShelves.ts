import { h } from './dom';

/**
 * A long code block is shown in pieces: `span.code-shelf` blocks inside its `code`, each of whole
 * lines, closed at the first line end from `shelfChars` characters on, the last one open. The
 * browser lays out a `pre` as one run of lines: a line appended to a 100 KB code block (a file an
 * agent streams into its answer) made every frame lay out all 2,500 of its lines again, 4–8 ms;
 * appended to the last piece, only that piece is laid out again, 0.8–1.4 ms (the same text in
 * 10 pieces, in Chromium here). What the user copies is the same: a selection's text, and the
 * Copy button's (textContent), as the pieces keep their lines' line ends.
 *
 * The pieces depend on the code's text only, so a code block rendered whole and one streamed in
 * (appendCode) are cut alike: the streaming property tests hold the DOM to that.
 */
export const CODE_SHELF = 'code-shelf';

/**
 * Where the pieces of `text` end: each closes after the first line end at least `shelfChars`
 * characters from its start, unless nothing follows that line end yet (the last piece is open).
 */
function cuts(text: string, shelfChars: number): number[] {
  const ends: number[] = [];
  for (let start = 0; ; ) {
    const lineEnd = text.indexOf('\n', start + shelfChars - 1);
    if (lineEnd < 0 || lineEnd === text.length - 1) return ends;
    start = lineEnd + 1;
    ends.push(start);
  }
}

function piece(text: string): HTMLElement {
  const el = h('span', CODE_SHELF);
  el.append(text);
  return el;
}

/** Cuts `text` at `ends` into pieces. */
function pieces(text: string, ends: number[]): HTMLElement[] {
  return [0, ...ends].map((start, i) => piece(text.slice(start, ends[i] ?? text.length)));
}

/** Cuts each long code block in freshly sanitized markdown into pieces. */
export function shelveCode(fragment: DocumentFragment, shelfChars: number): void {
  for (const code of fragment.querySelectorAll('pre > code')) {
    const text = code.textContent ?? '';
    if (text.length <= shelfChars) continue;
    const ends = cuts(text, shelfChars);
    if (ends.length > 0) code.replaceChildren(...pieces(text, ends));
  }
}

/**
 * Appends `added` to the code of a block shelveCode cut (or found short): to its last piece, or
 * to its text if it has none yet, which is then cut as shelveCode would cut the whole text. Only
 * the open piece is read, so a chunk costs the same however long the block has grown.
 */
export function appendCode(code: Element, added: string, shelfChars: number): void {
  const last = code.lastElementChild;
  const open = last?.classList.contains(CODE_SHELF) ? last : code;
  if (open.lastChild instanceof Text) open.lastChild.appendData(added);
  else open.append(added);
  const text = open.textContent ?? '';
  if (text.length <= shelfChars) return;
  const ends = cuts(text, shelfChars);
  if (ends.length === 0) return;
  if (open === code) code.replaceChildren(...pieces(text, ends));
  else open.replaceWith(...pieces(text, ends));
}
