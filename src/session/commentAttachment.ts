import type { ContentBlock } from '../protocol';

/**
 * A review comment the user left on lines of a diff (VS Code's Comments API, host/comments/),
 * pending until the next prompt takes it as context. Pure: which file and lines it names was
 * checked by the host (a workspace file, never a path outside it).
 */
export interface ReviewComment {
  id: string;
  kind: 'comment';
  /** The workspace file's URI (without a fragment). */
  uri: string;
  name: string;
  /** Workspace-relative path, for labels and what the agent reads. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** What the user wrote. */
  comment: string;
  /** The commented lines as they were, or '' when too large to embed (the agent is pointed at the file). */
  text: string;
  /**
   * Whose lines: the file as it is now (a review diff's right side), or the two sides of a tool
   * call's proposed edit (its new text, or the text it replaces).
   */
  side: CommentSide;
  /** The comment thread's key in the host: it outlives the attachment's id (which changes when the composer moves to another session). */
  threadId: string;
}

export type CommentSide = 'current' | 'proposed' | 'replaced';

/** Longest comment shown on a chip; the whole text is in its tooltip and goes to the agent. */
const CHIP_COMMENT_MAX = 48;

const SIDE_WORDS: Record<CommentSide, string> = {
  current: '',
  proposed: ' (in your proposed edit)',
  replaced: ' (in the text your proposed edit replaces)',
};

/** `a.ts:3` or `a.ts:3-5`: where it is, as chips and the agent read it. */
export function lineRange({ startLine, endLine }: { startLine: number; endLine: number }): string {
  return startLine === endLine ? String(startLine) : `${startLine}-${endLine}`;
}

/** The chip's words: where, and the start of what was said (its first line, clipped). */
export function commentView(c: ReviewComment): { label: string; detail: string } {
  const firstLine = c.comment.split('\n', 1)[0];
  const short = firstLine.length > CHIP_COMMENT_MAX || firstLine !== c.comment ? `${firstLine.slice(0, CHIP_COMMENT_MAX)}…` : firstLine;
  return { label: `${c.name}:${lineRange(c)} “${short}”`, detail: `${c.path}: ${c.comment}` };
}

/**
 * The comment as prompt content: a text block every agent reads ("Review comment on
 * src/a.ts:3-5: …"), then the lines: an embedded `resource` {uri#L3-L5, text} with
 * embeddedContext, else a `resource_link` to the file (text and links are always allowed, ACP §5).
 */
export function commentBlocks(c: ReviewComment, embeddedContext: boolean): ContentBlock[] {
  const said: ContentBlock = { type: 'text', text: `Review comment on ${c.path}:${lineRange(c)}${SIDE_WORDS[c.side]}: ${c.comment}` };
  if (embeddedContext && c.text !== '') return [said, { type: 'resource', resource: { uri: `${c.uri}#L${c.startLine}-L${c.endLine}`, text: c.text } }];
  return [said, { type: 'resource_link', uri: c.uri, name: c.path }];
}
