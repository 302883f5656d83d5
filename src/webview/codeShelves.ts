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
 * `text` cut into pieces, or undefined if it has no cut: each piece closes after the first line
 * end at least `shelfChars` characters from its start, unless nothing follows that line end yet
 * (the last piece is open).
 */
function piecesOf(text: string, shelfChars: number): HTMLElement[] | undefined {
  const pieces: HTMLElement[] = [];
  let start = 0;
  for (;;) {
    const lineEnd = text.indexOf('\n', start + shelfChars - 1);
    if (lineEnd < 0 || lineEnd === text.length - 1) break;
    pieces.push(piece(text.slice(start, lineEnd + 1)));
    start = lineEnd + 1;
  }
  if (pieces.length === 0) return undefined;
  pieces.push(piece(text.slice(start)));
  return pieces;
}

function piece(text: string): HTMLElement {
  const el = h('span', CODE_SHELF);
  el.append(text);
  return el;
}

/** Cuts each long code block in freshly sanitized markdown into pieces. */
export function shelveCode(fragment: DocumentFragment, shelfChars: number): void {
  for (const code of fragment.querySelectorAll('pre > code')) {
    const pieces = piecesOf(code.textContent ?? '', shelfChars);
    if (pieces) code.replaceChildren(...pieces);
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
  const pieces = piecesOf(open.textContent ?? '', shelfChars);
  if (!pieces) return;
  if (open === code) code.replaceChildren(...pieces);
  else open.replaceWith(...pieces);
}
