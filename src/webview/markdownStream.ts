import { sanitize } from './markdown';
import { type Block, parseBlocks } from './markdownBlocks';

/** The sanitized nodes of one or more consecutive top-level blocks, and the HTML they came from. */
interface Group {
  html: string;
  nodes: ChildNode[];
}

/** What patchMarkdown left in an element. */
interface Shown {
  text: string;
  /**
   * Where the tail starts in `text`: the last stable boundary (markdownBlocks.ts), so the blocks
   * from there on are all that text appended later can change.
   */
  tailStart: number;
  /** The tail's first group; the tail has one group per block. */
  tailGroup: number;
  groups: Group[];
  /** ParsedBlocks.references: then every change parses the whole text again. */
  references: boolean;
}

const shown = new WeakMap<Element, Shown>();

/**
 * Brings `el` up to `text`, rendered as markdown: the same DOM as renderMarkdown(text). When text
 * was appended to what `el` shows (an answer streaming in), only the tail is parsed, and only
 * its blocks whose HTML changed are sanitized and inserted again: the rest keep their nodes, so
 * the browser does not lay them out again either. Any other change parses the whole text, and
 * still keeps the nodes of the blocks that render as before.
 */
export function patchMarkdown(el: Element, text: string): void {
  const state = shown.get(el);
  if (state && !state.references && text.startsWith(state.text)) appendToTail(el, state, text);
  else renderWhole(el, state, text);
}

function appendToTail(el: Element, state: Shown, text: string): void {
  const { blocks, references } = parseBlocks(text.slice(state.tailStart));
  if (references) {
    renderWhole(el, state, text);
    return;
  }
  replaceGroups(el, state.groups, state.tailGroup, blocks, 0);
  const boundary = lastStable(blocks);
  state.tailStart += blocks[boundary]?.stableStart ?? 0;
  state.tailGroup += boundary;
  state.text = text;
}

function renderWhole(el: Element, state: Shown | undefined, text: string): void {
  const { blocks, references } = parseBlocks(text);
  const boundary = references ? 0 : lastStable(blocks);
  // Rendered whole by renderMarkdown (a new entry, or a snapshot's after a reload): which nodes
  // are which block is unknown, so the first patch renders it again, and appends after it are
  // incremental. New entries are not rendered by patchMarkdown: its state holds every block's
  // HTML, and most entries never stream (the bench's 10,000-entry snapshot then took 7.4 MiB of
  // heap instead of 4.5).
  if (!state) el.replaceChildren();
  const groups = state?.groups ?? [];
  const tailGroup = replaceGroups(el, groups, 0, blocks, boundary);
  shown.set(el, { text, tailStart: blocks[boundary]?.stableStart ?? 0, tailGroup, groups, references });
}

/** The last block that starts at a stable boundary (the first always does). */
function lastStable(blocks: Block[]): number {
  for (let i = blocks.length - 1; i > 0; i--) if (blocks[i].stableStart !== undefined) return i;
  return 0;
}

/**
 * Makes `groups` from index `from` on show `blocks`: keeps the groups whose HTML is unchanged,
 * removes the others, and adds the missing blocks. The first `merge` blocks, which will not
 * change again, may share one group (one sanitize call for them all when a long answer restored
 * from a snapshot is first patched); from block `merge` on, each block has a group of its own.
 * Returns the index of the group that shows block `merge`.
 */
function replaceGroups(el: Element, groups: Group[], from: number, blocks: Block[], merge: number): number {
  let block = 0;
  let group = from;
  let tailGroup = from;
  for (; group < groups.length; group++) {
    const end = runOf(groups[group].html, blocks, block, merge);
    if (end === undefined) break;
    if (block < merge) tailGroup++;
    block = end;
  }
  for (const old of groups.splice(group)) old.nodes.forEach((node) => node.remove());
  const added = document.createDocumentFragment();
  const add = (html: string): void => {
    const fragment = sanitize(html);
    groups.push({ html, nodes: [...fragment.childNodes] });
    added.append(fragment);
  };
  if (block < merge) {
    add(blocks.slice(block, merge).map((b) => b.html).join(''));
    tailGroup++;
  }
  for (const b of blocks.slice(Math.max(block, merge))) add(b.html);
  el.append(added);
  return tailGroup;
}

/**
 * Where the run of blocks that `html` shows, starting at `start`, ends; undefined if it shows
 * something else. Before `merge` a group may show several blocks, from it on one.
 */
function runOf(html: string, blocks: Block[], start: number, merge: number): number | undefined {
  if (start >= merge) return blocks[start]?.html === html ? start + 1 : undefined;
  let end = start;
  let length = 0;
  while (end < merge && length < html.length && html.startsWith(blocks[end].html, length)) length += blocks[end++].html.length;
  return end > start && length === html.length ? end : undefined;
}
