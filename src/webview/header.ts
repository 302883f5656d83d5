import { clamp } from './dom';
import { formatCost, formatCount, formatTokens, quotaText } from './format';
import type { SessionView, StatusView } from './protocol';
import type { Layout } from './layout';

export const PHASE_WORDS: Record<StatusView['phase'], string> = {
  idle: 'not started',
  starting: 'starting…',
  ready: 'ready',
  prompting: 'working…',
  crashed: 'stopped',
  auth: 'sign-in required',
};

/** header.bar and pre#detail: who runs, in which phase, the session title and its token usage. */
export function renderStatus(ui: Layout, status: StatusView): void {
  ui.app.dataset.phase = status.phase;
  ui.status.textContent = `${status.agentName}: ${PHASE_WORDS[status.phase]}`;
  ui.start.hidden = status.phase !== 'idle';
  ui.restart.hidden = status.phase !== 'crashed' && status.phase !== 'ready' && status.phase !== 'auth';
  // The one thing to do after a crash stands out; otherwise Restart is a quiet, secondary action.
  ui.restart.classList.toggle('secondary', status.phase !== 'crashed');
  ui.detail.hidden = !status.detail;
  ui.detail.textContent = status.detail ?? '';
}

export function renderSessionHeader(ui: Layout, session: SessionView): void {
  // A toggle button: its label stays, aria-pressed and the icon say whether it is on.
  ui.follow.setAttribute('aria-pressed', String(session.follow));
  ui.follow.querySelector('.codicon')?.classList.replace(session.follow ? 'codicon-eye-closed' : 'codicon-eye', session.follow ? 'codicon-eye' : 'codicon-eye-closed');
  ui.title.hidden = session.title === null;
  ui.title.textContent = session.title ?? '';
  ui.title.title = session.title ?? '';
  ui.fork.hidden = session.forkOf === null;
  ui.fork.textContent = session.forkOf ? `Fork of “${clamp(session.forkOf.title, 200)}”.${session.forkOf.note ? ` ${session.forkOf.note}` : ''}` : '';

  const usage = session.usage;
  ui.usage.hidden = usage === null;
  if (!usage) return;
  const cost = usage.cost ? formatCost(usage.cost.amount, usage.cost.currency) : '';
  // The agent's quota (from its `_meta`), as plain text after the tokens and the cost.
  const quota = usage.quota ? ` · ${quotaText(usage.quota)}` : '';
  ui.usage.textContent = `${formatTokens(usage.used)} / ${formatTokens(usage.size)} tokens${cost ? ` · ${cost}` : ''}${quota}`;
  const exactCost = usage.cost ? ` · ${usage.cost.amount} ${usage.cost.currency}` : '';
  ui.usage.title = `${formatCount(usage.used)} of ${formatCount(usage.size)} tokens in the context${exactCost}${quota}`;
}
