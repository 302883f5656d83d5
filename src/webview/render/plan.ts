import { appendSpaced, clamp, h, icon } from '../dom';
import { planIcon } from '../icons';
import { isSafeHref, markdownBlock } from '../markdown';
import type { EntryView, PlanEntryView } from '../protocol';

const URI_MAX = 2000;

/** The agent's plan: a "Plan n/m done" label over one line per step. */
export function renderPlan(el: HTMLElement, steps: readonly PlanEntryView[]): void {
  const done = steps.filter((step) => step.status === 'completed').length;
  const list = h('ul', 'plan');
  for (const step of steps) {
    const item = h('li');
    item.dataset.status = step.status;
    item.dataset.priority = step.priority;
    item.append(icon(planIcon(step.status), 'plan-icon'), h('span', 'plan-text', step.content));
    list.append(item);
  }
  el.append(planLabel('Plan', `${done}/${steps.length} done`), list);
}

/**
 * An id-addressed plan: its items as a `plan` shows them, its markdown (sanitized), or a link to
 * its file (a URI the panel may open; any other stays text); once removed, a note in its place.
 */
export function renderPlanById(el: HTMLElement, plan: Extract<EntryView, { kind: 'planById' }>): void {
  el.dataset.planId = plan.planId;
  const { content } = plan;
  if (!content) {
    el.dataset.removed = 'true';
    el.append(planLabel('Plan removed'));
    return;
  }
  switch (content.type) {
    case 'items':
      renderPlan(el, content.entries);
      return;
    case 'markdown':
      el.append(planLabel('Plan'), markdownBlock(content.text));
      return;
    case 'file': {
      const uri = clamp(content.uri, URI_MAX);
      // The transcript posts a link's click to the host, which decides what opens.
      const file = isSafeHref(content.uri) ? Object.assign(h('a', 'plan-file', uri), { href: content.uri }) : h('span', 'plan-file', uri);
      file.title = content.uri;
      el.append(planLabel('Plan'), file);
    }
  }
}

function planLabel(title: string, progress?: string): HTMLElement {
  const label = h('div', 'plan-label');
  appendSpaced(label, icon('checklist'), h('span', 'plan-title', title), ...(progress === undefined ? [] : [h('span', 'plan-progress', progress)]));
  return label;
}
