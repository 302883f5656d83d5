import type { EntryView, StatusView, StopReasonView, ToolEntryView } from './protocol';

/**
 * DOM for one entry. Everything the agent sent is set as text, never as HTML: nothing it
 * sends can become markup or script here.
 */
export function renderEntry(entry: EntryView, index: number): HTMLElement {
  const el = document.createElement('div');
  el.className = `entry entry-${entry.kind}`;
  el.dataset.index = String(index);
  el.dataset.kind = entry.kind;
  switch (entry.kind) {
    case 'user':
    case 'agent':
      el.append(block('div', 'text', entry.text));
      break;
    case 'thought': {
      const details = document.createElement('details');
      details.append(block('summary', '', 'Thinking'), block('div', 'text', entry.text));
      el.append(details);
      break;
    }
    case 'tool':
      renderTool(el, entry);
      break;
    case 'plan': {
      const list = document.createElement('ul');
      for (const item of entry.entries) {
        const li = block('li', `plan-${item.status}`, item.content);
        li.dataset.status = item.status;
        list.append(li);
      }
      el.append(block('div', 'label', 'Plan'), list);
      break;
    }
    case 'turnEnd':
      el.dataset.stopReason = entry.stopReason;
      el.append(block('div', 'text', stopReasonText(entry.stopReason)));
      break;
    case 'error':
      el.append(block('div', 'text', entry.message));
      break;
  }
  return el;
}

function renderTool(el: HTMLElement, entry: ToolEntryView): void {
  el.dataset.toolCallId = entry.toolCallId;
  el.dataset.status = entry.status;
  const head = block('div', 'tool-head', '');
  head.append(block('span', 'tool-title', entry.title), block('span', `badge badge-${entry.status}`, entry.status.replace('_', ' ')));
  el.append(head);
  for (const content of entry.content) {
    if (content.type === 'text') el.append(block('pre', 'tool-text', content.text));
    else if (content.type === 'diff') el.append(block('div', 'tool-diff', `Edit ${content.path}`));
    else el.append(block('div', 'tool-terminal', `Terminal ${content.terminalId}`));
  }
  for (const location of entry.locations) {
    el.append(block('div', 'tool-location', location.line ? `${location.path}:${location.line}` : location.path));
  }
  if (entry.permission) {
    const choices = block('div', 'permission', '');
    for (const option of entry.permission) {
      const button = block('button', `option option-${option.kind}`, option.name) as HTMLButtonElement;
      button.dataset.optionId = option.optionId;
      button.dataset.optionKind = option.kind;
      button.dataset.toolCallId = entry.toolCallId;
      choices.append(button);
    }
    el.append(choices);
  }
}

export function stopReasonText(reason: StopReasonView): string {
  switch (reason) {
    case 'end_turn':
      return 'Turn ended.';
    case 'cancelled':
      return 'Turn cancelled.';
    case 'max_tokens':
      return 'Stopped: the agent reached its token limit.';
    case 'max_turn_requests':
      return 'Stopped: the agent reached its limit of requests for one turn.';
    case 'refusal':
      return 'The agent refused. This prompt will not be part of the next turn’s context.';
  }
}

export function statusText(status: StatusView): string {
  const phase = { idle: 'not started', starting: 'starting…', ready: 'ready', prompting: 'working…', crashed: 'stopped' }[status.phase];
  return `${status.agentName}: ${phase}`;
}

function block(tag: string, className: string, text: string): HTMLElement {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}
