import { appendSpaced, button, clamp, h, icon } from '../dom';
import type { UrlElicitationEntryView, ViewToHost } from '../protocol';
import { forAgentNote } from './elicitation';

// A URL-mode `elicitation/create`: the agent asks the user to open a web page (a sign-in, a
// payment). The card says who asks and why, shows the page's host prominently and the full
// address as plain text (never a link: nothing here navigates or loads it), warns about what
// may deceive, and offers Open / Decline / Cancel. Open asks the host, which opens the URL it
// holds (not one from the panel); the card then waits until the agent says it is done.

const TEXT_MAX = 4000;

const WARNINGS: Record<UrlElicitationEntryView['warnings'][number], string> = {
  punycode: 'The site’s name is internationalized (punycode, xn--): it may use look-alike letters to pass for another site.',
  notHttps: 'Not https: the connection is not encrypted, so what you enter can be read or changed on the way.',
  credentials: 'The address has a user name or password in it: make sure the site is the one shown above.',
};

function stateWords(entry: UrlElicitationEntryView): string {
  switch (entry.state) {
    case 'pending':
      return 'Waiting for you';
    case 'waiting':
      return `Waiting for ${clamp(entry.host, 200)}…`;
    case 'completed':
      return 'Completed';
    case 'declined':
      return 'Declined';
    case 'cancelled':
      return 'Cancelled';
    case 'ended':
      return 'Ended';
    case 'withdrawn':
      return 'Withdrawn by the agent';
  }
}

export function renderUrlElicitation(el: HTMLElement, entry: UrlElicitationEntryView): void {
  el.dataset.requestKey = entry.requestKey;
  el.dataset.state = entry.state;
  el.setAttribute('role', 'group');
  el.setAttribute('aria-label', `${entry.agentName} asks you to open a page on ${entry.host}`);

  const head = h('div', 'elicitation-head');
  const title = h('span', 'elicitation-title', `${clamp(entry.agentName, 200)} asks you to open a web page`);
  appendSpaced(head, icon('link-external'), title, h('span', `badge badge-url-${entry.state}`, stateWords(entry)));
  el.append(head, h('div', 'elicitation-message', clamp(entry.message, TEXT_MAX)));
  if (entry.forAgent) el.append(forAgentNote(entry.agentName));

  const site = h('div', 'url-site');
  appendSpaced(site, h('span', 'url-label', 'Site'), h('strong', 'url-host', clamp(entry.host, 500)));
  const address = h('div', 'url-address');
  // The whole address, as text: what opens is exactly this.
  appendSpaced(address, h('span', 'url-label', 'Address'), h('code', 'url-full', entry.url));
  el.append(site, address);

  if (entry.warnings.length > 0) {
    const list = h('ul', 'url-warnings');
    list.setAttribute('aria-label', 'Warnings');
    for (const warning of entry.warnings) {
      const item = h('li', `url-warning url-warning-${warning}`);
      item.append(icon('warning'), ` ${WARNINGS[warning]}`);
      list.append(item);
    }
    el.append(list);
  }

  if (entry.state === 'pending') {
    const actions = h('div', 'form-actions');
    actions.append(decision('url-open', 'accept', `Open ${clamp(entry.host, 200)}`, 'link-external'), decision('secondary url-decline', 'decline', 'Decline'), decision('secondary url-cancel', 'cancel', 'Cancel'));
    el.append(actions);
  } else if (entry.state === 'waiting') {
    // The browser tab may have been closed before the page was done: the user may open it again (their click, as before).
    const actions = h('div', 'form-actions');
    actions.append(decision('secondary url-open-again', 'accept', 'Open again', 'link-external'));
    el.append(actions);
  }
}

function decision(className: string, action: 'accept' | 'decline' | 'cancel', label: string, iconName?: string): HTMLButtonElement {
  const b = button(className, label, iconName);
  b.dataset.urlAction = action;
  return b;
}

/** Open, Decline, Cancel and Open again: the answer to post (the host knows the URL; the panel sends only which card). */
export function urlDecision(target: HTMLButtonElement): ViewToHost | undefined {
  const card = target.closest<HTMLElement>('.entry-urlElicitation');
  const requestKey = card?.dataset.requestKey;
  const action = target.dataset.urlAction;
  if (requestKey === undefined || (action !== 'accept' && action !== 'decline' && action !== 'cancel')) return undefined;
  return { type: 'elicitation', requestKey, action };
}
