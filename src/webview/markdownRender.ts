import { appendCode, shelveCode } from './codeShelves';
import { h } from './dom';
import { md, sanitize } from './markdown';
import { type Block, type ParsedBlocks, closesShelf, lastStable, parseBlocks } from './markdownBlocks';

/**
 * Agent markdown → DOM, in one go (renderMarkdown) or as it streams in (patchMarkdown), the two
 * giving the same DOM.
 *
 * A long text is shown in shelves: `div.md-shelf` elements, each holding the blocks of at least
 * SHELF_CHARS characters of its stable part (markdownBlocks.ts), which nothing appended can
 * change. A shelf is `content-visibility: auto` (media/webview.css): off screen, the browser
 * neither lays it out nor paints it, and one in view is a subtree the frame after a chunk finds
 * unchanged. Without them, a chunk into a 100 KB answer made every frame lay out and walk every
 * block of it again: 10 ms a chunk here, against 3 ms with shelves.
 */
export const SHELF_CHARS = 8192;

/** The sanitized DOM of `text`, cut into shelves as patchMarkdown would. */
export function renderMarkdown(text: string, shelfChars = SHELF_CHARS): DocumentFragment {
  // No shelf closes before shelfChars characters: one parse and one sanitize, as most texts are.
  if (text.length < shelfChars) return domOf(md.render(text), shelfChars);
  const { pieces } = layout(parseBlocks(text), shelfChars);
  const fragment = document.createDocumentFragment();
  // The shelves come first; the blocks after them in one sanitize call.
  for (const piece of pieces) if (piece.shelf) fragment.append(shelfOf(domOf(piece.html, shelfChars)));
  fragment.append(domOf(pieces.filter((piece) => !piece.shelf).map((piece) => piece.html).join(''), shelfChars));
  return fragment;
}

/** markdown-it's HTML as the DOM shows it: sanitized, its long code blocks in pieces. */
function domOf(html: string, shelfChars: number): DocumentFragment {
  const fragment = sanitize(html);
  // A code block's text is no longer than its HTML: short HTML has no code block to cut.
  if (html.length > shelfChars) shelveCode(fragment, shelfChars);
  return fragment;
}

/** `div.markdown` holding the sanitized rendering of `text`. */
export function markdownBlock(text: string): HTMLElement {
  const el = h('div', 'markdown');
  el.append(renderMarkdown(text));
  return el;
}

/** One or more blocks as the DOM shows them: a shelf, or one block not (yet) shelved. */
interface Piece {
  html: string;
  shelf: boolean;
  /** Where it starts in the text, if at a stable boundary. */
  start: number | undefined;
}

/** A piece in the DOM: the nodes it was rendered as. */
interface Group extends Piece {
  nodes: ChildNode[];
}

/**
 * What patchMarkdown left in an element: `groups` are, in DOM order, the shelves, then the open
 * blocks (stable, not yet enough for a shelf), then the tail, one group per block.
 */
interface Shown {
  text: string;
  groups: Group[];
  shelves: number;
  /** Where the open shelf starts in `text`: the first open block's start. */
  openStart: number;
  /** The first tail group: the tail is what text appended later can change. */
  tailGroup: number;
  /** Where the tail starts in `text`: the last stable boundary (markdownBlocks.ts). */
  tailStart: number;
  /** ParsedBlocks.references: then every change parses the whole text again. */
  references: boolean;
}

const shown = new WeakMap<Element, Shown>();

/**
 * Brings `el` up to `text`, rendered as markdown: the same DOM as renderMarkdown(text). When text
 * was appended to what `el` shows (an answer streaming in), only the tail is parsed, and only
 * its blocks whose HTML changed are sanitized and inserted again: the rest keep their nodes, so
 * the browser does not lay them out again either. Any other change parses the whole text, and
 * still keeps the nodes of the pieces that render as before.
 */
export function patchMarkdown(el: Element, text: string, shelfChars = SHELF_CHARS): void {
  const state = shown.get(el);
  if (state && !state.references && text.startsWith(state.text)) appendToTail(el, state, text, shelfChars);
  else renderWhole(el, state, text, shelfChars);
}

function appendToTail(el: Element, state: Shown, text: string, shelfChars: number): void {
  if (appendToOpenFence(state, text, shelfChars) || appendWords(state, text)) return;
  const { blocks, references } = parseBlocks(text.slice(state.tailStart));
  if (references) {
    renderWhole(el, state, text, shelfChars);
    return;
  }
  const at = (block: Block): number | undefined => (block.stableStart === undefined ? undefined : state.tailStart + block.stableStart);
  replaceGroups(el, state.groups, state.tailGroup, blocks.map((block) => ({ html: block.html, shelf: false, start: at(block) })), shelfChars);
  const boundary = lastStable(blocks);
  state.tailStart += blocks[boundary]?.stableStart ?? 0;
  state.tailGroup += boundary;
  state.text = text;
  // Only blocks that just became stable can close a shelf: the open ones were checked before.
  if (boundary > 0) shelveOpenBlocks(el, state, shelfChars);
}

/** The end of a fence's HTML as markdown-it renders it (the code, then this). */
const FENCE_END = '</code></pre>\n';

/** The last line of `text`: after its last line break (markdown-it's are LF, CR and CRLF). */
function lastLine(text: string): string {
  return text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
}

/**
 * Text appended to a code fence that is still open: the tail's only block, a top-level fence
 * (its marker at the line's start), whose content markdown-it takes verbatim up to the end of the
 * text. Unless the appended text closes it, the content only grows by that text, so it goes into
 * the code's last piece as it is (codeShelves.ts), without parsing and sanitizing the whole fence
 * again: a chunk into a 100 KB fence cost 23 ms, then 9–12 ms with the text appended as it is
 * (most of it the browser's layout of the whole block), and 3.4 ms with the block in pieces, as
 * much as a chunk into a short answer (bench/longTranscript.mjs). Anything else (a chunk that
 * could close it, or that markdown-it would normalize: a CR, a NUL) takes the general path. The
 * DOM and the group's HTML are those a full parse gives (the streaming property tests hold it to
 * that). Only the fence's last lines are read, so a chunk costs the same however long the fence
 * has grown.
 */
function appendToOpenFence(state: Shown, text: string, shelfChars: number): boolean {
  const group = state.groups[state.tailGroup];
  if (!group || state.tailGroup !== state.groups.length - 1 || !group.html.startsWith('<pre><code') || !group.html.endsWith(FENCE_END)) return false;
  const tail = state.text.slice(state.tailStart);
  const opening = /^(`{3,}|~{3,})[^\n\r]*\n/.exec(tail);
  const added = text.slice(state.text.length);
  const extended = lastLine(tail);
  // markdown-it normalizes CR and NUL (a CR before an appended LF is one line break), and leaves
  // out a last line of only blanks, which the next chunk may fill: those take the general path.
  if (!opening || /[\r\0]/.test(added) || state.text.endsWith('\r') || /^[ \t]+$/.test(extended) || /(?:^|\n)[ \t]+$/.test(added)) return false;
  const marker = opening[1];
  const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'm');
  // Closed already: the tail is one block, so nothing but blank lines follows a closing line,
  // which is then its last line that is not blank (trimEnd takes at least markdown-it's blanks).
  if (closing.test(lastLine(tail.slice(opening[0].length).trimEnd()))) return false;
  // Closed by the chunk: on the line it extends or on one of its own.
  if (closing.test(extended + added)) return false;
  const code = group.nodes.find((node): node is Element => node instanceof Element)?.querySelector('pre > code');
  if (!code) return false;
  appendCode(code, added, shelfChars);
  group.html = group.html.slice(0, -FENCE_END.length) + md.utils.escapeHtml(added) + FENCE_END;
  state.text = text;
  return true;
}

/** The end of a paragraph's HTML as markdown-it renders it. */
const PARAGRAPH_END = '</p>\n';

/**
 * Words appended to a paragraph, the most common chunk of all (`" the"`, `" next step"`): when
 * the tail is one paragraph, the chunk is ASCII letters, digits and spaces, and the paragraph's
 * last line ends in such a word (spaces after it allowed), the words go into the paragraph's last
 * text as they are, without parsing and sanitizing it again. Such a chunk cannot change how what
 * is before it renders: it holds no delimiter (emphasis, code, links, entities, escapes), it
 * makes no link with the word before (that word has no `.`, `:`, `@` or `/` for linkify to
 * find), it adds no line (where a block could start or end), it extends a last line that is not
 * blank, and the text before it ends in a plain word, so that no delimiter's meaning waits on the
 * character after it (`_em_` + `phasis`) and no `[x]: ` waits for its destination. Anything else
 * takes the general path. The DOM and the group's HTML are those a full parse gives (the
 * streaming property tests hold it to that), markdown-it leaving out the paragraph's trailing
 * spaces until a word follows them.
 */
function appendWords(state: Shown, text: string): boolean {
  const group = state.groups[state.tailGroup];
  if (!group || state.tailGroup !== state.groups.length - 1 || !group.html.startsWith('<p>') || !group.html.endsWith(PARAGRAPH_END)) return false;
  const added = text.slice(state.text.length);
  if (!/^[A-Za-z0-9 ]+$/.test(added)) return false;
  const tail = state.text.slice(state.tailStart);
  const lastWord = /(?:^|[ \t])[A-Za-z0-9]+( *)$/.exec(lastLine(tail));
  if (!lastWord) return false;
  const paragraph = group.nodes.find((node): node is Element => node instanceof Element);
  if (paragraph?.tagName !== 'P') return false;
  // The spaces after the last word show once a word follows them; trailing ones do not.
  const words = (lastWord[1] + added).replace(/ +$/, '');
  if (words !== '') {
    if (paragraph.lastChild instanceof Text) paragraph.lastChild.appendData(words);
    else paragraph.append(words);
    group.html = group.html.slice(0, -PARAGRAPH_END.length) + words + PARAGRAPH_END;
  }
  state.text = text;
  return true;
}

function renderWhole(el: Element, state: Shown | undefined, text: string, shelfChars: number): void {
  const parsed = parseBlocks(text);
  const { pieces, shelves, openStart, tailGroup, tailStart } = layout(parsed, shelfChars);
  // Rendered whole by renderMarkdown (a new entry, or a snapshot's after a reload): which nodes
  // are which block is unknown, so the first patch renders it again, and appends after it are
  // incremental. New entries are not rendered by patchMarkdown: its state holds every block's
  // HTML, and most entries never stream (the bench's 10,000-entry snapshot then took 7.4 MiB of
  // heap instead of 4.5).
  if (!state) el.replaceChildren();
  const groups = state?.groups ?? [];
  replaceGroups(el, groups, 0, pieces, shelfChars);
  shown.set(el, { text, groups, shelves, openStart, tailGroup, tailStart, references: parsed.references });
}

/** How a whole text is shown, as Shown says, with pieces for its groups. */
type Layout = Pick<Shown, 'shelves' | 'openStart' | 'tailGroup' | 'tailStart'> & { pieces: Piece[] };

/** How a whole text is shown: its shelves, then its open blocks, then its tail. */
function layout({ blocks, references }: ParsedBlocks, shelfChars: number): Layout {
  const boundary = references ? 0 : lastStable(blocks);
  const pieces: Piece[] = [];
  let openStart = 0;
  let open = 0; // the first block of the open shelf
  for (let i = 1; i < boundary; i++) {
    const { html, stableStart } = blocks[i];
    if (!closesShelf(html, stableStart, openStart, shelfChars)) continue;
    pieces.push({ html: blocks.slice(open, i).map((block) => block.html).join(''), shelf: true, start: openStart });
    [open, openStart] = [i, stableStart];
  }
  const shelves = pieces.length;
  for (const { html, stableStart } of blocks.slice(open)) pieces.push({ html, shelf: false, start: stableStart });
  return { pieces, shelves, openStart, tailGroup: shelves + Math.max(0, boundary - open), tailStart: blocks[boundary]?.stableStart ?? 0 };
}

/** Puts the open blocks into shelves while one of them closes the open shelf (closesShelf). */
function shelveOpenBlocks(el: Element, state: Shown, shelfChars: number): void {
  const { groups } = state;
  for (let i = state.shelves + 1; i < state.tailGroup; i++) {
    const { html, start } = groups[i];
    if (!closesShelf(html, start, state.openStart, shelfChars)) continue;
    const run = groups.slice(state.shelves, i);
    const shelf = shelfOf(...run.flatMap((group) => group.nodes));
    el.insertBefore(shelf, groups.slice(i).find((group) => group.nodes.length > 0)?.nodes[0] ?? null);
    groups.splice(state.shelves, run.length, { html: run.map((group) => group.html).join(''), shelf: true, start: state.openStart, nodes: [shelf] });
    state.shelves++;
    state.tailGroup -= run.length - 1;
    state.openStart = start;
    i = state.shelves;
  }
}

function shelfOf(...nodes: Node[]): HTMLElement {
  const shelf = h('div', 'md-shelf');
  shelf.append(...nodes);
  return shelf;
}

/**
 * Makes `groups` from index `from` on show `pieces`: keeps the groups that show the same piece,
 * up to the first that does not, removes the rest, and adds the pieces after them.
 */
function replaceGroups(el: Element, groups: Group[], from: number, pieces: Piece[], shelfChars: number): void {
  let kept = 0;
  for (; kept < pieces.length && from + kept < groups.length; kept++) {
    const group = groups[from + kept];
    if (group.html !== pieces[kept].html || group.shelf !== pieces[kept].shelf) break;
    group.start = pieces[kept].start; // a block's start can become stable as its line completes
  }
  for (const old of groups.splice(from + kept)) old.nodes.forEach((node) => node.remove());
  const added = document.createDocumentFragment();
  for (const piece of pieces.slice(kept)) {
    const fragment = domOf(piece.html, shelfChars);
    const nodes = piece.shelf ? [shelfOf(fragment)] : [...fragment.childNodes];
    groups.push({ ...piece, nodes });
    added.append(...nodes);
  }
  el.append(added);
}
