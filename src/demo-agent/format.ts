// Small text helpers shared by the turn's steps.

import type { ToolCallContent } from './acp-types';

/** A text block wrapped as tool call content. */
export function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Quotes text as a markdown block quote, shortened so a huge paste stays readable. */
export function quote(value: string, maxChars = 400): string {
  const short = value.length > maxChars ? `${value.slice(0, maxChars)}…` : value;
  return short
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * A fenced code block, as real agents report command output ("```console\n$ ls\n…\n```"). The
 * fence is longer than any run of backticks in the body, so a file name cannot close it early.
 */
export function fenced(body: string, lang: string): string {
  const longestRun = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${lang}\n${body}${body.endsWith('\n') ? '' : '\n'}${fence}`;
}
