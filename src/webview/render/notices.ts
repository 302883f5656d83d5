import { appendSpaced, clamp, disclosure, h, icon } from '../dom';
import { markdownBlock } from '../markdownRender';
import type { CompactionEntryView, NoticeEntryView } from '../protocol';

// What the agent says about the session rather than in the conversation: notices and context
// compactions. Their texts go in as text (titles, errors) or sanitized markdown (a summary).

const LABEL_MAX = 1000;

const NOTICE_ICONS: Record<NoticeEntryView['severity'], string> = { info: 'info', warning: 'warning', error: 'error' };

/** A notice: its severity's icon and colour, the title, and the description under it. */
export function renderNotice(el: HTMLElement, notice: NoticeEntryView): void {
  el.dataset.severity = notice.severity;
  // An error is announced like the error entries; the others are read in their turn.
  if (notice.severity === 'error') el.setAttribute('role', 'alert');
  const body = h('div', 'notice-body');
  body.append(h('div', 'notice-title', clamp(notice.title, LABEL_MAX)));
  if (notice.description) body.append(h('div', 'notice-description', notice.description));
  el.append(icon(NOTICE_ICONS[notice.severity], 'notice-icon'), body);
}

// Maps, not object literals: a status is agent data, and "constructor" must not find a prototype key.
const COMPACTION_WORDS = new Map([
  ['in_progress', 'Compacting context…'],
  ['completed', 'Context compacted'],
  ['failed', 'Context compaction failed'],
  ['cancelled', 'Context compaction cancelled'],
]);

/** A "Context compacted" marker: its status (a custom one verbatim), its error, and the summary collapsed. */
export function renderCompaction(el: HTMLElement, compaction: CompactionEntryView, summaryOpen: boolean): void {
  el.dataset.status = compaction.status;
  const label = COMPACTION_WORDS.get(compaction.status) ?? `Context compaction: ${clamp(compaction.status, LABEL_MAX)}`;
  const head = h('div', 'compaction-head');
  appendSpaced(head, icon(compaction.status === 'in_progress' ? 'loading' : 'fold', 'compaction-icon'), h('span', 'compaction-label', label));
  el.append(head);
  if (compaction.error) el.append(h('div', 'compaction-error', compaction.error));
  if (compaction.summary) {
    const summary = disclosure('Summary', summaryOpen, 'summary');
    summary.append(markdownBlock(compaction.summary));
    el.append(summary);
  }
}
