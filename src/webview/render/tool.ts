import { appendSpaced, clamp, h, icon } from '../dom';
import { pathTail } from '../format';
import { toolIcon } from '../icons';
import type { ToolEntryView } from '../protocol';
import type { RenderContext } from './context';
import { renderPermission } from './permission';
import { renderToolContent } from './toolContent';

const TITLE_MAX = 1000;

const STATUS_WORDS: Record<ToolEntryView['status'], string> = {
  pending: 'Pending',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
  unfinished: 'Not finished',
};

/** A tool call card: head (icon, title, status badge), its content, locations, and the permission chooser. */
export function renderTool(el: HTMLElement, entry: ToolEntryView, index: number, context: RenderContext): void {
  el.dataset.toolCallId = entry.toolCallId;
  el.dataset.status = entry.status;
  el.dataset.toolKind = entry.toolKind;
  const title = clamp(entry.title, TITLE_MAX);

  const head = h('div', 'tool-head');
  const titleEl = h('span', 'tool-title', title);
  titleEl.title = title;
  appendSpaced(head, icon(toolIcon(entry.toolKind), 'tool-icon'), titleEl, h('span', `badge badge-${entry.status}`, STATUS_WORDS[entry.status]));
  el.append(head);

  entry.content.forEach((content, contentIndex) => {
    el.append(renderToolContent(content, contentIndex, context.isExpanded(index, contentIndex)));
  });
  if (entry.locations.length > 0) el.append(renderLocations(entry.locations));
  // ACP Host's own say comes before the choice it explains (h sets text, never HTML).
  if (entry.policyNote) el.append(h('div', 'policy-note', entry.policyNote));
  if (entry.permission) el.append(renderPermission(entry.permission, entry.toolCallId, title));
  // The agent took its question back: nothing is left to choose, and the card says why.
  else if (entry.permissionWithdrawn) el.append(withdrawnNote());
}

function withdrawnNote(): HTMLElement {
  const note = h('div', 'permission-withdrawn');
  appendSpaced(note, icon('circle-slash'), h('span', '', 'Withdrawn by the agent'));
  return note;
}

function renderLocations(locations: ToolEntryView['locations']): HTMLElement {
  const list = h('div', 'tool-locations');
  for (const { path, line } of locations) {
    const tail = pathTail(path);
    const link = h('a', 'tool-location', line === null ? tail : `${tail}:${line}`);
    link.href = '#'; // a real link for keyboard and screen readers; the transcript handles the click
    link.dataset.path = path;
    if (line !== null) link.dataset.line = String(line);
    link.title = line === null ? path : `${path}:${line}`;
    list.append(link);
  }
  return list;
}
