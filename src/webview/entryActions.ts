import { iconButton } from './dom';
import { COPY_TEXT_MAX } from './protocol';
import type { ViewToHost } from './protocol';

// The small actions on what the transcript shows: Copy on a message and on a code block, Open in
// editor on a tool's output. The host does the copying (the webview's clipboard is not reliable in
// VS Code's iframe) and the opening (it holds the whole output).

/** A message's Copy: the host copies the entry's markdown source. */
export function copyMessageButton(): HTMLButtonElement {
  return iconButton('copy-message', 'Copy message', 'copy');
}

/** A tool output's Open in editor: the host opens all it has of it, read-only. */
export function openOutputButton(): HTMLButtonElement {
  return iconButton('open-output', 'Open in editor', 'go-to-file');
}

/**
 * Gives each code block of freshly sanitized markdown a Copy button: the block goes in a
 * `div.code-block` beside it. Only the new fragment is walked, so a streamed answer pays for the
 * blocks it re-renders, never for the whole transcript.
 */
export function addCodeCopyButtons(fragment: DocumentFragment): void {
  for (const pre of fragment.querySelectorAll('pre')) {
    const block = document.createElement('div');
    block.className = 'code-block';
    pre.replaceWith(block);
    block.append(pre, iconButton('copy-code', 'Copy code', 'copy'));
  }
}

/** The intent of a click on one of these buttons inside entry `index`, if it was one. */
export function entryActionIntent(target: Element, index: number, contentIndex: number | undefined): ViewToHost | undefined {
  if (target.closest('button.copy-message')) return { type: 'copyMessage', index };
  const copyCode = target.closest('button.copy-code');
  if (copyCode) {
    // The code as rendered from the entry: markdown-it put it in the pre's code, unescaped by the DOM.
    const text = copyCode.parentElement?.querySelector(':scope > pre')?.textContent ?? '';
    return text.length <= COPY_TEXT_MAX ? { type: 'copyText', text } : undefined;
  }
  if (target.closest('button.open-output') && contentIndex !== undefined) return { type: 'openToolOutput', index, contentIndex };
  return undefined;
}
