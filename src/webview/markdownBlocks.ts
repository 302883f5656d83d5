import type { Env } from 'markdown-it';
import { md } from './markdown';

/** One top-level block of a markdown text (a paragraph, a list, a fence, a table, …). */
export interface Block {
  /** Its HTML as markdown-it renders it, not yet sanitized. */
  html: string;
  /**
   * Where the block starts in the parsed text, if it starts at a stable boundary: nothing
   * appended to the text can change how the text before it renders (see isStableStart).
   */
  stableStart: number | undefined;
}

export interface ParsedBlocks {
  blocks: Block[];
  /**
   * The text defines a link reference (`[x]: url`): a definition changes links anywhere in the
   * text, before it too, so a text with one has no stable boundary and is re-parsed whole.
   */
  references: boolean;
}

/** Parses `src` and cuts it into top-level blocks. */
export function parseBlocks(src: string): ParsedBlocks {
  const env: Env = {};
  const tokens = md.parse(src, env);
  const lines = lineStarts(src);
  const blocks: Block[] = [];
  for (let start = 0, i = 0; i < tokens.length; i++) {
    // A top-level block ends with a closing token (or is a single token) at level 0.
    if (tokens[i].level !== 0 || tokens[i].nesting > 0) continue;
    const line = tokens[start].map?.[0];
    blocks.push({
      html: md.renderer.render(tokens.slice(start, i + 1), md.options, env),
      stableStart: line !== undefined && isStableStart(src, lines, line) ? lines[line] : undefined,
    });
    start = i + 1;
  }
  return { blocks, references: env.references !== undefined };
}

/**
 * Whether a top-level block starting at `line` starts at a stable boundary: appending text can
 * change neither the blocks before it nor that a top-level block starts there. markdown-it reads
 * blocks line by line, and what ends a block is decided by the lines after it, so:
 * - The line before is blank. Without one, the line after can still decide where the block
 *   above ends: under `foo`, a row `| a |` followed by `|-|` starts a table and ends the
 *   paragraph, but followed by `|-|x` it is more of the paragraph. (Some blocks, a heading or a
 *   closed fence, could be cut after without a blank line; the blank line is the simple rule
 *   that needs no list of them, and answers have blank lines between their blocks.) After a
 *   blank line, what continues the block above (a list item's indented text, the next item of
 *   the same list, more indented code) is decided by that line's own first characters.
 * - The line is complete (a line break follows it), so those first characters are final: `2`
 *   after `1. a` and a blank line is a paragraph, but `2.` continues the list.
 * Open fences, lists, block quotes and tables that are still going on are single blocks that run
 * to the end of the text, so no block starts inside them. Link reference definitions are the one
 * thing that reaches back across blocks: ParsedBlocks.references.
 */
function isStableStart(src: string, lines: number[], line: number): boolean {
  if (line === 0) return true; // the start of the parsed text is a boundary already
  if (line + 1 >= lines.length) return false;
  return /^[ \t]*(?:\r\n?|\n)$/.test(src.slice(lines[line - 1], lines[line]));
}

/** Where each line starts, with the line breaks markdown-it knows (`\n`, `\r\n`, `\r`). */
function lineStarts(src: string): number[] {
  const starts = [0];
  for (const match of src.matchAll(/\r\n?|\n/g)) starts.push(match.index + match[0].length);
  return starts;
}

/** The last block that starts at a stable boundary (the first always does): the tail starts there. */
export function lastStable(blocks: Block[]): number {
  for (let i = blocks.length - 1; i > 0; i--) if (blocks[i].stableStart !== undefined) return i;
  return 0;
}

/** Blocks with a top margin (headings, rules): a shelf never starts with one (see closesShelf). */
const TOP_MARGIN = /^<(?:h[1-6]|hr)\b/;

/**
 * Whether a block closes the shelf that starts at `openStart` (markdownRender.ts): it starts at a
 * stable boundary at least `shelfChars` characters after the shelf's start, so the shelf holds
 * only blocks that will never change. The rule reads the blocks alone, so a text streamed in any
 * chunks and the same text rendered in one go are cut into the same shelves. A block with a top
 * margin never starts the next shelf: a shelf contains its own blocks' margins, so that margin
 * would add to the one above it instead of collapsing with it, and the text would move.
 */
export function closesShelf(html: string, start: number | undefined, openStart: number, shelfChars: number): start is number {
  return start !== undefined && start - openStart >= shelfChars && !TOP_MARGIN.test(html);
}
