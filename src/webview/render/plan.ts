import { appendSpaced, h, icon } from '../dom';
import { planIcon } from '../icons';
import type { PlanEntryView } from '../protocol';

/** The agent's plan: a "Plan n/m done" label over one line per step. */
export function renderPlan(el: HTMLElement, steps: readonly PlanEntryView[]): void {
  const done = steps.filter((step) => step.status === 'completed').length;
  const label = h('div', 'plan-label');
  appendSpaced(label, icon('checklist'), h('span', 'plan-title', 'Plan'), h('span', 'plan-progress', `${done}/${steps.length} done`));
  const list = h('ul', 'plan');
  for (const step of steps) {
    const item = h('li');
    item.dataset.status = step.status;
    item.dataset.priority = step.priority;
    item.append(icon(planIcon(step.status), 'plan-icon'), h('span', 'plan-text', step.content));
    list.append(item);
  }
  el.append(label, list);
}
