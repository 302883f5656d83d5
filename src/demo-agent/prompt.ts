// Reads what the user sent in a session/prompt: the text, and the names of attached context.

import type { ContentBlock } from './acp-types';

export interface PromptSummary {
  /** All text blocks, joined with newlines. */
  text: string;
  /** Names of resource_link blocks (e.g. @-mentioned files the client did not embed). */
  links: string[];
  /** Embedded `resource` blocks: their uri and how much text they carry. */
  embedded: Array<{ uri: string; chars: number | undefined }>;
  /** Block types we did not advertise and therefore ignore (image, audio, unknown). */
  ignored: string[];
}

export function summarisePrompt(blocks: readonly ContentBlock[]): PromptSummary {
  const texts: string[] = [];
  const summary: PromptSummary = { text: '', links: [], embedded: [], ignored: [] };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'resource_link':
        summary.links.push(block.name || block.uri);
        break;
      case 'resource':
        summary.embedded.push({
          uri: block.resource.uri,
          chars: typeof block.resource.text === 'string' ? block.resource.text.length : undefined,
        });
        break;
      default:
        summary.ignored.push(String((block as { type?: unknown }).type));
    }
  }
  summary.text = texts.join('\n');
  return summary;
}

const TITLE_CHARS = 40;

/** A session title from its first prompt: the text on one line, cut at 40 characters. */
export function titleFrom(prompt: PromptSummary): string {
  const oneLine = prompt.text.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return prompt.links[0] ?? 'Demo session';
  const chars = Array.from(oneLine); // by code point, so no emoji is cut in half
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join('').trimEnd()}…` : oneLine;
}

/**
 * The prompt as the history keeps it: text blocks as they are, attachments as `@name`, one per
 * line. Tolerant of malformed blocks like promptTextLength, since it is kept before the turn runs.
 */
export function promptText(blocks: readonly unknown[]): string {
  const lines = blocks.flatMap((block) => {
    const b = block as { type?: unknown; text?: unknown; name?: unknown; resource?: { uri?: unknown } } | null;
    if (b?.type === 'text' && typeof b.text === 'string') return [b.text];
    if (b?.type === 'resource_link' && typeof b.name === 'string') return [`@${b.name}`];
    if (b?.type === 'resource' && typeof b.resource?.uri === 'string') return [`@${b.resource.uri}`];
    return [];
  });
  return lines.join('\n');
}

/**
 * Characters of text in the prompt, for the usage estimate. Unlike summarisePrompt it tolerates
 * malformed blocks, because it also runs after a turn that failed on them.
 */
export function promptTextLength(blocks: readonly unknown[]): number {
  let chars = 0;
  for (const block of blocks) {
    const text = (block as { type?: unknown; text?: unknown } | null)?.text;
    if ((block as { type?: unknown } | null)?.type === 'text' && typeof text === 'string') chars += text.length;
  }
  return chars;
}
