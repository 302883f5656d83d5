import { appendSpaced, clamp, h, icon } from '../dom';
import { planIcon } from '../icons';
import { isSafeHref } from '../markdown';
import { markdownBlock } from '../markdownRender';
import type { EntryView, PlanContentView, PlanEntryView } from '../protocol';

const URI_MAX = 2000;

/** The agent's plan: a "Plan n/m done" label over one line per step. */
export function renderPlan(el: HTMLElement, steps: readonly PlanEntryView[]): void {
  el.append(planLabel('Plan', planProgress(steps)), planSteps(steps));
}

/** How far a plan's steps are: "n/m done". */
export function planProgress(steps: readonly PlanEntryView[]): string {
  const done = steps.filter((step) => step.status === 'completed').length;
  return `${done}/${steps.length} done`;
}

/** One line per step, its status and priority as data attributes (the styling keys on them). */
export function planSteps(steps: readonly PlanEntryView[]): HTMLUListElement {
  const list = h('ul', 'plan');
  for (const step of steps) {
    const item = h('li');
    item.dataset.status = step.status;
    item.dataset.priority = step.priority;
    item.append(icon(planIcon(step.status), 'plan-icon'), h('span', 'plan-text', step.content));
    list.append(item);
  }
  return list;
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
  el.append(planLabel('Plan', content.type === 'items' ? planProgress(content.entries) : undefined), planBody(content));
}

/** What a plan holds, below its label: its steps, its markdown (sanitized), or its file. */
export function planBody(content: PlanContentView): HTMLElement {
  switch (content.type) {
    case 'items':
      return planSteps(content.entries);
    case 'markdown':
      return markdownBlock(content.text);
    case 'file': {
      const uri = clamp(content.uri, URI_MAX);
      // A click is posted to the host (by the transcript, or the pinned plan), which decides what opens.
      const file = isSafeHref(content.uri) ? Object.assign(h('a', 'plan-file', uri), { href: content.uri }) : h('span', 'plan-file', uri);
      file.title = content.uri;
      return file;
    }
  }
}

function planLabel(title: string, progress?: string): HTMLElement {
  const label = h('div', 'plan-label');
  appendSpaced(label, icon('checklist'), h('span', 'plan-title', title), ...(progress === undefined ? [] : [h('span', 'plan-progress', progress)]));
  return label;
}
