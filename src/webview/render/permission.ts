import { appendSpaced, button, h, icon } from '../dom';
import { optionIcon } from '../icons';
import type { PermissionAnswerView, PermissionOptionView } from '../protocol';

/**
 * The agent waits for a choice: one button per option, and Dismiss (no choice: the agent hears
 * `cancelled`). Arrow keys move between the options (the transcript handles those and the
 * clicks, by delegation).
 */
export function renderPermission(options: readonly PermissionOptionView[], toolCallId: string, title: string): HTMLElement {
  const group = h('div', 'permission');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', `Permission: ${title}`);
  for (const option of options) {
    const choice = h('button', `option option-${option.kind}`);
    choice.type = 'button';
    choice.dataset.optionId = option.optionId;
    choice.dataset.optionKind = option.kind;
    choice.dataset.toolCallId = toolCallId;
    choice.append(icon(optionIcon(option.kind)), option.name);
    group.append(choice);
  }
  const dismiss = button('secondary permission-dismiss', 'Dismiss', 'close');
  dismiss.dataset.toolCallId = toolCallId;
  dismiss.title = 'Answer nothing: the agent is told the question was cancelled';
  group.append(dismiss);
  return group;
}

/** How the question was answered: the option chosen (by its kind, allowed or denied), or none. */
export function renderPermissionAnswer(answer: PermissionAnswerView): HTMLElement {
  const line = h('div', 'permission-answer');
  line.dataset.outcome = answer.outcome === 'selected' ? answer.kind : answer.outcome;
  const [iconName, words] =
    answer.outcome === 'cancelled'
      ? ['circle-slash', 'Not answered (cancelled)']
      : answer.outcome === 'withdrawn'
        ? ['circle-slash', 'Withdrawn by the agent']
        : [optionIcon(answer.kind), `${answer.kind.startsWith('allow') ? 'Allowed' : 'Denied'}: ${answer.name}`];
  appendSpaced(line, icon(iconName), h('span', 'permission-answer-text', words));
  return line;
}

/** ArrowLeft/ArrowRight (and Home/End) move focus among the group's buttons, wrapping around. */
export function movePermissionFocus(event: KeyboardEvent): void {
  const current = (event.target as Element).closest<HTMLButtonElement>('.permission button.option');
  const group = current?.parentElement;
  if (!current || !group) return;
  const buttons = [...group.querySelectorAll<HTMLButtonElement>('button.option')];
  const at = buttons.indexOf(current);
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  buttons[(next + buttons.length) % buttons.length]?.focus();
}
