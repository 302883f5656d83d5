import { appendSpaced, button, clamp, h, icon, prefix } from '../dom';
import { formatSize, pathTail, utf8Length } from '../format';
import { markdownBlock, renderMarkdown } from '../markdownRender';
import { openOutputButton } from '../entryActions';
import type { DiffView, ToolContentView } from '../protocol';

// Long outputs are collapsed so a 1 MB line cannot freeze the panel: a plain-text preview until
// the user asks for all of it, and past MARKDOWN_MAX even the full text stays plain.
const COLLAPSE_CHARS = 4000;
const COLLAPSE_LINES = 40;
const PREVIEW_CHARS = 2000;
const MARKDOWN_MAX = 100_000;
const DIFF_LINE_MAX = 1000;

export function renderToolContent(content: ToolContentView, contentIndex: number, expanded: boolean): HTMLElement {
  let el: HTMLElement;
  switch (content.type) {
    case 'text':
      el = renderText(content.text, expanded);
      break;
    case 'diff':
      el = renderDiff(content);
      break;
    case 'terminal':
      el = renderTerminal(content);
      break;
  }
  el.dataset.contentIndex = String(contentIndex);
  return el;
}

type TerminalView = Extract<ToolContentView, { type: 'terminal' }>;

/**
 * A client terminal: header with its state, then the end of its output (the host sends a bounded
 * tail; the VS Code terminal "Agent: …" has all of it). Text only.
 */
function renderTerminal(terminal: TerminalView): HTMLElement {
  const el = h('div', 'tool-terminal');
  el.dataset.terminalId = terminal.terminalId;
  const exit = terminal.exitStatus ?? null;
  el.dataset.state = exit === null ? 'running' : exit.signal ? 'killed' : exit.exitCode === 0 ? 'success' : 'failed';
  const head = h('div', 'terminal-head');
  const label = h('span', 'terminal-label', 'Terminal');
  label.title = terminal.terminalId;
  appendSpaced(head, icon('terminal'), label, h('span', 'terminal-status', terminalStatus(exit)), openOutputButton());
  el.append(head);
  if (terminal.truncated) el.append(h('div', 'terminal-truncated', '\u2026 earlier output truncated'));
  const output = terminal.output ?? '';
  if (output !== '') {
    // The pre lays its one child out bottom-up (column-reverse), so it opens scrolled to the end.
    const pre = h('pre', 'terminal-output');
    pre.tabIndex = 0;
    pre.append(h('span', 'terminal-text', output));
    el.append(pre);
  }
  return el;
}

function terminalStatus(exit: TerminalView['exitStatus']): string {
  if (exit === null) return 'running\u2026';
  if (exit.signal) return `killed (${exit.signal})`;
  return `exit ${exit.exitCode ?? '?'}`;
}

function renderText(text: string, expanded: boolean): HTMLElement {
  const el = h('div', 'tool-text');
  el.append(openOutputButton());
  if (!isLong(text)) {
    el.classList.add('markdown');
    el.append(renderMarkdown(text));
  } else if (!expanded) {
    el.classList.add('collapsed');
    el.append(h('pre', 'preview', prefix(text, PREVIEW_CHARS)), button('expand', `Show all (${formatSize(utf8Length(text))})`, 'unfold'));
  } else {
    el.classList.add('expanded');
    if (text.length > MARKDOWN_MAX) el.append(h('pre', 'full', text));
    else el.append(markdownBlock(text));
    el.append(button('collapse', 'Show less', 'fold'));
  }
  return el;
}

/** More than COLLAPSE_CHARS characters or COLLAPSE_LINES lines; stops counting early on huge texts. */
function isLong(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (++lines > COLLAPSE_LINES) return true;
  }
  return false;
}

function renderDiff(diff: DiffView): HTMLElement {
  const el = h('div', 'tool-diff');
  const summary = h('div', 'diff-summary');
  const path = h('span', 'diff-path', pathTail(diff.path));
  path.title = diff.path;
  const parts: Node[] = [icon('diff'), path];
  if (diff.isNewFile) parts.push(h('span', 'diff-new', 'new file'));
  parts.push(h('span', 'diff-added', `+${diff.added}`), h('span', 'diff-removed', `\u2212${diff.removed}`));
  if (diff.textsDropped) {
    // The host no longer has the texts to open: say so where the button was.
    const note = h('span', 'diff-dropped', 'full texts not kept');
    note.title = 'The panel keeps the full texts of a session’s newest diffs only (and none after a window reload): this one no longer opens in the diff editor.';
    parts.push(note);
  } else parts.push(button('open-diff', 'Open diff', 'diff-multiple'));
  appendSpaced(summary, ...parts);

  const preview = h('pre', 'diff-preview');
  for (const line of diff.preview) {
    preview.append(h('span', `diff-line ${line.startsWith('+') ? 'diff-line-add' : 'diff-line-del'}`, clamp(line, DIFF_LINE_MAX)));
  }
  if (diff.previewTruncated) preview.append(h('span', 'diff-more', '…'));
  el.append(summary, preview);
  return el;
}
