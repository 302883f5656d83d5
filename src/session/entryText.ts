import type { Entry } from './model';

// What the panel's Copy and Open in editor take from the transcript: the model's text, never the
// panel's (which may show a long output clipped).

/** The markdown source of a message (the user's, the agent's, a thought); throws for any other entry. */
export function messageText(entry: Entry | undefined): string {
  if (entry?.kind === 'user' || entry?.kind === 'agent' || entry?.kind === 'thought') return entry.text;
  throw new Error('That entry is not a message: there is nothing to copy.');
}

/** Characters of a tool's title kept in the name of the document its output opens in. */
const NAME_MAX = 60;

/**
 * Output `contentIndex` of the tool call `entry`, whole: its text, or all its terminal has kept;
 * `name` is a file name for it (the title's letters, digits and a few marks: never a path). Throws when there is none.
 */
export function toolOutput(entry: Entry | undefined, contentIndex: number): { name: string; text: string } {
  const content = entry?.kind === 'tool' ? entry.content[contentIndex] : undefined;
  if (!content || content.type === 'diff') throw new Error('That tool call has no such output (it may have changed since).');
  const title = entry?.kind === 'tool' ? entry.title : '';
  const base = title.replace(/[^\p{L}\p{N} ._-]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, NAME_MAX).replace(/^[.\s]+|[.\s]+$/g, '') || 'Tool output';
  if (content.type === 'text') return { name: `${base}.txt`, text: content.text };
  return { name: `${base} (terminal).txt`, text: content.truncated ? `[earlier output truncated]\n${content.output}` : content.output };
}
