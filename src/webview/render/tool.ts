import { appendSpaced, clamp, disclosure, h, icon } from '../dom';
import { pathTail } from '../format';
import { toolIcon } from '../icons';
import type { ToolEntryView } from '../protocol';
import type { RenderContext } from './context';
import { renderPermission, renderPermissionAnswer } from './permission';
import { renderToolContent } from './toolContent';

const TITLE_MAX = 1000;
const NAME_MAX = 200;

const STATUS_WORDS: Record<ToolEntryView['status'], string> = {
  pending: 'Pending',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
  unfinished: 'Not finished',
};

/**
 * A tool call card: head (icon, title, the tool's name, status badge), its content, locations,
 * its raw input and output (collapsed), and the permission chooser.
 */
export function renderTool(el: HTMLElement, entry: ToolEntryView, index: number, context: RenderContext): void {
  el.dataset.toolCallId = entry.toolCallId;
  el.dataset.status = entry.status;
  el.dataset.toolKind = entry.toolKind;
  // A subagent's call is indented under the call that started it; the id is an attribute, never markup.
  if (entry.parentToolCallId !== undefined) {
    el.classList.add('tool-nested');
    el.dataset.parentToolCallId = entry.parentToolCallId;
  }
  const title = clamp(entry.title, TITLE_MAX);

  const head = h('div', 'tool-head');
  const titleEl = h('span', 'tool-title', title);
  titleEl.title = title;
  // A question the user answered is what the card says, not "Pending" or "Not finished": a
  // permission relayed as a question may never be followed by a status from the agent.
  const answered = entry.permissionAnswer?.outcome === 'selected' && (entry.status === 'pending' || entry.status === 'unfinished');
  const badge = answered ? [] : [h('span', `badge badge-${entry.status}`, STATUS_WORDS[entry.status])];
  const name = entry.name ? [h('span', 'tool-name', clamp(entry.name, NAME_MAX))] : [];
  appendSpaced(head, icon(toolIcon(entry.toolKind), 'tool-icon'), titleEl, ...name, ...badge);
  el.append(head);

  entry.content.forEach((content, contentIndex) => {
    el.append(renderToolContent(content, contentIndex, context.isExpanded(index, contentIndex)));
  });
  if (entry.locations.length > 0) el.append(renderLocations(entry.locations));
  if (entry.rawInput !== undefined) el.append(rawJson('Input', entry.rawInput, context.isOpen(index, 'input'), 'input'));
  if (entry.rawOutput !== undefined) el.append(rawJson('Output', entry.rawOutput, context.isOpen(index, 'output'), 'output'));
  // ACP Host's own say comes before the choice it explains (h sets text, never HTML).
  if (entry.policyNote) el.append(h('div', 'policy-note', entry.policyNote));
  if (entry.permission) el.append(renderPermission(entry.permission, entry.toolCallId, title));
  else if (entry.permissionAnswer) el.append(renderPermissionAnswer(entry.permissionAnswer));
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

/** The agent's raw JSON (masked and clipped by the host), collapsed: text in a pre, never markup. */
function rawJson(label: string, json: string, open: boolean, part: string): HTMLDetailsElement {
  const details = disclosure(label, open, part);
  details.classList.add('tool-raw');
  details.append(h('pre', 'raw-json', json));
  return details;
}
