import { attachmentList } from '../attachments';
import { checkpointDropped } from '../checkpointMessages';
import { button, clamp, disclosure, h, icon } from '../dom';
import { turnUsageText } from '../format';
import { markdownBlock, patchMarkdown } from '../markdownRender';
import { copyMessageButton } from '../entryActions';
import type { EntryView } from '../protocol';
import { stopReasonText } from '../../webview-protocol/stopReasons';
import type { RenderContext } from './context';
import { renderElicitation } from './elicitation';
import { renderCompaction, renderNotice } from './notices';
import { renderPlan, renderPlanById } from './plan';
import { renderTool } from './tool';
import { renderUrlElicitation } from './urlElicitation';

/** DOM for entry `index`: `div.entry.entry-<kind>[data-index][data-kind]`. */
export function renderEntry(entry: EntryView | undefined, index: number, context: RenderContext): HTMLElement {
  if (!entry) {
    // The host skipped an index: keep every entry at its place without showing anything.
    const hole = h('div', 'entry-placeholder');
    hole.hidden = true;
    hole.dataset.index = String(index);
    return hole;
  }
  const el = h('div', `entry entry-${entry.kind}`);
  el.dataset.index = String(index);
  el.dataset.kind = entry.kind;
  switch (entry.kind) {
    case 'user':
      el.append(h('div', 'text', entry.text), copyMessageButton()); // what the user typed, never markdown
      if (entry.attachments?.length) el.append(attachmentList(entry.attachments));
      // Shown only while the agent forks (Transcript.offerFork): the flag changing, as a session
      // opens, is one class on the transcript, not a render of every message.
      el.append(button('fork-from-here', 'Fork from here', 'repo-forked'));
      if (entry.checkpoint !== undefined) el.append(...checkpointButtons(entry.checkpoint, context.oldestCheckpoint()));
      break;
    case 'agent':
      // The button is the block's sibling: streaming patches the block only.
      el.append(markdownBlock(entry.text), copyMessageButton());
      break;
    case 'thought':
      el.append(renderThought(entry.text, context.isOpen(index)));
      break;
    case 'tool':
      renderTool(el, entry, index, context);
      break;
    case 'plan':
      renderPlan(el, entry.entries);
      break;
    case 'planById':
      renderPlanById(el, entry);
      break;
    case 'turnEnd':
      renderTurnEnd(el, entry);
      break;
    case 'notice':
      renderNotice(el, entry);
      break;
    case 'compaction':
      renderCompaction(el, entry, context.isOpen(index, 'summary'));
      break;
    case 'error':
      el.setAttribute('role', 'alert');
      el.append(icon('error'), h('div', 'text', entry.message));
      break;
    case 'note':
      el.append(icon('info'), h('div', 'text', entry.message));
      break;
    case 'elicitation':
      renderElicitation(el, entry);
      break;
    case 'urlElicitation':
      renderUrlElicitation(el, entry);
      break;
  }
  return el;
}

/**
 * Brings the element of a text entry that streams (agent, thought) up to `entry` in place, and
 * says whether it could: not if the element shows something else, which is then rendered anew.
 */
export function patchEntry(el: Element, entry: EntryView | undefined): boolean {
  if ((entry?.kind !== 'agent' && entry?.kind !== 'thought') || !(el instanceof HTMLElement) || el.dataset.kind !== entry.kind) return false;
  const markdown = el.querySelector(':scope > .markdown, :scope > details > .markdown');
  if (markdown) patchMarkdown(markdown, entry.text);
  return markdown !== null;
}

function renderThought(text: string, open: boolean): HTMLDetailsElement {
  const details = disclosure('Thinking', open);
  details.append(markdownBlock(text));
  return details;
}

/** The end of a turn: a rule with how it ended; a failed turn says why (the agent's message, as text) and is announced. */
function renderTurnEnd(el: HTMLElement, entry: Extract<EntryView, { kind: 'turnEnd' }>): void {
  el.dataset.stopReason = entry.stopReason;
  if (!entry.error) {
    el.append(h('span', 'turn-reason', stopReasonText(entry.stopReason)));
    // What the agent said the turn cost: plain text after the reason.
    if (entry.usage) el.append(' ', h('span', 'turn-usage', turnUsageText(entry.usage)));
    return;
  }
  el.setAttribute('role', 'alert');
  const code = entry.error.code === null ? '' : ` (error ${entry.error.code})`;
  el.append(icon('error'), h('span', 'text', `The turn failed: ${clamp(entry.error.message, 2000)}${code}`));
}

/** "Restore checkpoint" and "Edit" on a message with a checkpoint; both disabled, and saying so, once it was dropped. */
function checkpointButtons(checkpoint: number, oldest: number | null): HTMLButtonElement[] {
  const buttons = [button('restore-checkpoint', 'Restore checkpoint', 'discard'), button('edit-prompt', 'Edit', 'edit')];
  if (checkpointDropped(checkpoint, oldest)) {
    for (const b of buttons) {
      b.disabled = true;
      b.title = 'This checkpoint is no longer available (the oldest are dropped past acpHost.checkpoints.maxMegabytes).';
    }
  }
  return buttons;
}
