import { appendSpaced, h, icon } from './dom';
import { keepLinksForHost, linkHref } from './markdown';
import type { Presentation } from './presentation';
import type { PlanContentView } from './protocol';
import { planBody, planProgress } from './render/plan';
import { post } from './vscode';

/**
 * section#pinned-plan above the prompt box: the session's current plan (the view model's `plan`;
 * the transcript keeps every plan entry as well), a disclosure "Plan · n/m done" the user may fold
 * (remembered across reloads). Hidden when there is no plan. Rebuilt only when the plan changes.
 * Its text is the agent's: steps go in as textContent, markdown sanitized as in the transcript.
 */
export class PinnedPlan {
  private shown = '';
  private readonly details = h('details');
  private readonly progress = h('span', 'plan-progress');
  private readonly body = h('div', 'pinned-plan-body');

  constructor(
    private readonly root: HTMLElement,
    presentation: Presentation,
  ) {
    const summary = h('summary', 'plan-label');
    appendSpaced(summary, icon('checklist'), h('span', 'plan-title', 'Plan'), this.progress);
    this.details.append(summary, this.body);
    this.details.open = !presentation.planFolded;
    this.details.addEventListener('toggle', () => (presentation.planFolded = !this.details.open));
    root.append(this.details);
    root.hidden = true;
    root.setAttribute('aria-label', 'Current plan');
    keepLinksForHost(root);
    root.addEventListener('click', (event) => {
      const link = (event.target as Element).closest('a');
      const href = link && linkHref(link);
      if (href) post({ type: 'openLink', href });
    });
  }

  render(plan: PlanContentView | null): void {
    // Session updates come for many reasons: the DOM changes only with the plan.
    const key = JSON.stringify(plan);
    if (key === this.shown) return;
    this.shown = key;
    this.root.hidden = plan === null;
    this.progress.textContent = plan?.type === 'items' ? `· ${planProgress(plan.entries)}` : '';
    this.body.replaceChildren(...(plan ? [planBody(plan)] : []));
  }
}
