import { appendSpaced, clamp, h, icon } from '../dom';
import { fieldProblem, uncheckablePattern } from '../protocol';
import type { ElicitationEntryView, ElicitationFieldView, ElicitationValue, ViewToHost } from '../protocol';

// An `elicitation/create` form: one labelled control per field, Submit / Decline / Cancel.
// Everything from the agent goes in as text. Values are checked here as the host will check them
// again (the same rules, from webview-protocol/elicitation). The transcript delegates the
// events (submit, clicks, input) to the functions at the end.

const TEXT_MAX = 4000;

/** What the user typed so far, per form and field: a re-render (an error from the host, a snapshot) keeps it. */
type Raw = string | boolean | string[];
const drafts = new Map<string, Map<number, Raw>>();
/** The fields of each form as last rendered, for reading and checking its values on submit. */
const forms = new Map<string, readonly ElicitationFieldView[]>();

const INPUT_TYPES: Record<NonNullable<ElicitationFieldView['format']>, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

const STATE_WORDS: Record<ElicitationEntryView['state'], string> = {
  pending: 'Waiting for you',
  accepted: 'Sent',
  declined: 'Declined',
  cancelled: 'Cancelled',
  withdrawn: 'Withdrawn by the agent',
};

export function renderElicitation(el: HTMLElement, entry: ElicitationEntryView): void {
  el.dataset.requestKey = entry.requestKey;
  el.dataset.state = entry.state;
  const title = clamp(entry.title ?? `${entry.agentName} asks`, 500);
  el.setAttribute('role', 'group');
  el.setAttribute('aria-label', `${entry.agentName} asks: ${title}`);

  const head = h('div', 'elicitation-head');
  appendSpaced(head, icon('question'), h('span', 'elicitation-title', title), h('span', `badge badge-elicitation-${entry.state}`, STATE_WORDS[entry.state]));
  el.append(head, h('div', 'elicitation-message', clamp(entry.message, TEXT_MAX)));
  if (entry.title) el.append(h('div', 'elicitation-agent', `Asked by ${entry.agentName}`));
  if (entry.forAgent) el.append(forAgentNote(entry.agentName));

  if (entry.state !== 'pending') {
    forms.delete(entry.requestKey);
    drafts.delete(entry.requestKey);
    if (entry.state === 'accepted' && entry.content) el.append(renderAnswer(entry.fields, entry.content));
    return;
  }
  forms.set(entry.requestKey, entry.fields);
  el.append(renderForm(entry));
}

/** A question of the agent's start or sign-in: one session shows it, and the answer is for all of that agent's. */
export function forAgentNote(agentName: string): HTMLElement {
  return h('div', 'elicitation-agent elicitation-for-agent', `For ${clamp(agentName, 200)} as a whole, not this session alone: all its sessions wait on the answer.`);
}

function renderForm(entry: ElicitationEntryView): HTMLFormElement {
  const form = h('form', 'elicitation-form');
  form.noValidate = true; // our own messages, the same as the host's
  form.dataset.requestKey = entry.requestKey;
  const draft = drafts.get(entry.requestKey);
  entry.fields.forEach((field, index) => form.append(renderField(entry.requestKey, field, index, draft?.get(index))));
  const error = h('div', 'form-error');
  error.setAttribute('role', 'alert');
  if (entry.error) error.append(icon('error'), ` ${clamp(entry.error, TEXT_MAX)}`);
  else error.hidden = true;
  const actions = h('div', 'form-actions');
  const submit = h('button', 'elicitation-submit', 'Submit');
  submit.type = 'submit';
  actions.append(submit, decision('decline', 'Decline'), decision('cancel', 'Cancel'));
  form.append(error, actions);
  return form;
}

function decision(action: 'decline' | 'cancel', label: string): HTMLButtonElement {
  const b = h('button', `secondary elicitation-${action}`, label);
  b.type = 'button';
  b.dataset.elicitationAction = action;
  return b;
}

/** Ids are made of the request key and the field's position: field names are agent data. */
function idOf(requestKey: string, index: number, part = ''): string {
  return `${requestKey.replace(/[^\w-]/g, '_')}-f${index}${part}`;
}

function renderField(requestKey: string, field: ElicitationFieldView, index: number, draft: Raw | undefined): HTMLElement {
  const wrap = h('div', `field field-${field.type}`);
  wrap.dataset.fieldIndex = String(index);
  wrap.dataset.fieldName = field.name;
  const id = idOf(requestKey, index);
  const describedBy: string[] = [];
  // A pattern that cannot be checked safely is not checked (here nor by the host): the field says so.
  const unchecked = field.pattern === undefined ? undefined : uncheckablePattern(field.pattern);
  const description = field.description || unchecked ? h('div', 'field-description', field.description ? clamp(field.description, TEXT_MAX) : '') : undefined;
  if (unchecked) description?.append(h('span', 'pattern-note', `${field.description ? ' ' : ''}(Its pattern is not checked: ${unchecked}.)`));
  if (description) {
    description.id = idOf(requestKey, index, '-desc');
    describedBy.push(description.id);
  }
  const error = h('div', 'field-error');
  error.id = idOf(requestKey, index, '-err');
  error.hidden = true;
  describedBy.push(error.id);
  const labelText = clamp(field.title, 500);
  const required = () => {
    const mark = h('span', 'required-mark', ' *');
    mark.setAttribute('aria-hidden', 'true');
    return mark;
  };

  if (field.type === 'multiselect') {
    const set = h('fieldset', 'field-choices');
    const legend = h('legend', '', labelText);
    if (field.required) legend.append(required());
    set.append(legend);
    const chosen = new Set(Array.isArray(draft) ? draft : Array.isArray(field.default) ? field.default : []);
    (field.choices ?? []).forEach((choice, i) => {
      const box = h('input');
      box.type = 'checkbox';
      box.id = `${id}-c${i}`;
      box.value = choice.value;
      box.checked = chosen.has(choice.value);
      const label = h('label', 'choice', clamp(choice.title, 500));
      label.htmlFor = box.id;
      const row = h('div', 'choice-row');
      row.append(box, label);
      set.append(row);
    });
    set.setAttribute('aria-describedby', describedBy.join(' '));
    if (field.required) set.setAttribute('aria-required', 'true');
    wrap.append(set);
    if (description) wrap.append(description);
    wrap.append(error);
    return wrap;
  }

  let control: HTMLInputElement | HTMLSelectElement;
  if (field.type === 'boolean') {
    const box = h('input');
    box.type = 'checkbox';
    box.checked = typeof draft === 'boolean' ? draft : field.default === true;
    control = box;
  } else if (field.type === 'choice') {
    const select = h('select');
    const none = h('option', '', field.required ? 'Choose…' : '(none)');
    none.value = '';
    select.append(none);
    for (const choice of field.choices ?? []) {
      const option = h('option', '', clamp(choice.title, 500));
      option.value = choice.value;
      select.append(option);
    }
    select.value = typeof draft === 'string' ? draft : typeof field.default === 'string' ? field.default : '';
    control = select;
  } else {
    const input = h('input');
    if (field.type === 'number' || field.type === 'integer') {
      input.type = 'number';
      input.step = field.type === 'integer' ? '1' : 'any';
      if (field.minimum !== undefined) input.min = String(field.minimum);
      if (field.maximum !== undefined) input.max = String(field.maximum);
      input.value = typeof draft === 'string' ? draft : typeof field.default === 'number' ? String(field.default) : '';
    } else {
      input.type = field.format ? INPUT_TYPES[field.format] : 'text';
      const initial = typeof draft === 'string' ? draft : typeof field.default === 'string' ? field.default : '';
      input.value = field.format === 'date-time' && typeof draft !== 'string' ? toLocalInput(initial) : initial;
      if (field.pattern) input.dataset.pattern = field.pattern;
    }
    control = input;
  }
  control.id = id;
  control.className = 'field-control';
  control.setAttribute('aria-describedby', describedBy.join(' '));
  if (field.required) control.setAttribute('aria-required', 'true');
  const label = h('label', 'field-label', labelText);
  label.htmlFor = id;
  if (field.required) label.append(required());
  if (field.type === 'boolean') {
    const row = h('div', 'choice-row');
    row.append(control, label);
    wrap.append(row);
  } else {
    wrap.append(label, control);
  }
  if (description) wrap.append(description);
  wrap.append(error);
  return wrap;
}

/** What was sent, read-only. */
function renderAnswer(fields: readonly ElicitationFieldView[], content: Record<string, ElicitationValue>): HTMLElement {
  const list = h('dl', 'elicitation-answer');
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined) continue;
    const titles = new Map((field.choices ?? []).map((c) => [c.value, c.title]));
    const shown = Array.isArray(value) ? value.map((v) => titles.get(v) ?? v).join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : (titles.get(String(value)) ?? String(value));
    list.append(h('dt', '', clamp(field.title, 500)), h('dd', '', clamp(shown, TEXT_MAX)));
  }
  return list;
}

// ------------------------------------------------------------------ reading and checking values

/** 2024-05-06T07:08:09Z → the `datetime-local` value in this time zone (2024-05-06T09:08). */
function toLocalInput(iso: string): string {
  const time = Date.parse(iso);
  if (iso === '' || Number.isNaN(time)) return '';
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type Read = { value: ElicitationValue | undefined } | { problem: string };

/** A field's value as the agent gets it: numbers as numbers, booleans, arrays; empty → not given. */
function readField(wrap: HTMLElement, field: ElicitationFieldView): Read {
  if (field.type === 'multiselect') {
    const values = [...wrap.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].filter((b) => b.checked).map((b) => b.value);
    return { value: values.length > 0 ? values : undefined };
  }
  const control = wrap.querySelector<HTMLInputElement | HTMLSelectElement>('.field-control');
  if (!control) return { value: undefined };
  if (field.type === 'boolean') return { value: (control as HTMLInputElement).checked };
  if (field.type === 'number' || field.type === 'integer') {
    const input = control as HTMLInputElement;
    if (input.value.trim() === '') return input.validity.badInput ? { problem: 'Enter a number' } : { value: undefined };
    return { value: Number(input.value) };
  }
  const text = control.value;
  if (text === '') return { value: undefined };
  if (field.format === 'date-time') {
    const time = Date.parse(text);
    return { value: Number.isNaN(time) ? text : new Date(time).toISOString() };
  }
  return { value: text };
}

function rawOf(wrap: HTMLElement, field: ElicitationFieldView): Raw {
  if (field.type === 'multiselect') return [...wrap.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].filter((b) => b.checked).map((b) => b.value);
  const control = wrap.querySelector<HTMLInputElement | HTMLSelectElement>('.field-control');
  if (field.type === 'boolean') return (control as HTMLInputElement | null)?.checked ?? false;
  return control?.value ?? '';
}

function showProblem(wrap: HTMLElement, problem: string | undefined): void {
  const error = wrap.querySelector<HTMLElement>('.field-error');
  const control = wrap.querySelector<HTMLElement>('.field-control, fieldset');
  if (error) {
    error.textContent = problem ?? '';
    error.hidden = problem === undefined;
  }
  if (problem === undefined) control?.removeAttribute('aria-invalid');
  else control?.setAttribute('aria-invalid', 'true');
}

function fieldsOf(form: HTMLFormElement): { wrap: HTMLElement; field: ElicitationFieldView }[] {
  const fields = forms.get(form.dataset.requestKey ?? '') ?? [];
  return [...form.querySelectorAll<HTMLElement>('.field[data-field-index]')].flatMap((wrap) => {
    const field = fields[Number(wrap.dataset.fieldIndex)];
    return field ? [{ wrap, field }] : [];
  });
}

function check(wrap: HTMLElement, field: ElicitationFieldView): { value: ElicitationValue | undefined; problem: string | undefined } {
  const read = readField(wrap, field);
  if ('problem' in read) return { value: undefined, problem: read.problem };
  return { value: read.value, problem: fieldProblem(field, read.value) };
}

/**
 * Submit: every field is checked; with a problem, the messages show and focus goes to the first
 * field at fault. Otherwise the answer to post.
 */
export function submitElicitation(form: HTMLFormElement): ViewToHost | undefined {
  const requestKey = form.dataset.requestKey;
  if (requestKey === undefined) return undefined;
  const entries: [string, ElicitationValue][] = [];
  let firstBad: HTMLElement | undefined;
  for (const { wrap, field } of fieldsOf(form)) {
    const { value, problem } = check(wrap, field);
    showProblem(wrap, problem);
    if (problem !== undefined) firstBad ??= wrap;
    else if (value !== undefined) entries.push([field.name, value]);
  }
  // fromEntries: a field named `__proto__` (agent data) is a key like any other.
  const content = Object.fromEntries(entries);
  if (firstBad) {
    firstBad.querySelector<HTMLElement>('.field-control, input')?.focus();
    return undefined;
  }
  return { type: 'elicitation', requestKey, action: 'accept', content };
}

/** Decline / Cancel buttons. */
export function elicitationDecision(button: HTMLButtonElement): ViewToHost | undefined {
  const form = button.closest<HTMLFormElement>('form.elicitation-form');
  const action = button.dataset.elicitationAction;
  const requestKey = form?.dataset.requestKey;
  if (requestKey === undefined || (action !== 'decline' && action !== 'cancel')) return undefined;
  return { type: 'elicitation', requestKey, action };
}

/** Input in a form: remember it (re-renders keep it), and re-check a field already marked wrong. */
export function elicitationInput(target: Element): void {
  const form = target.closest<HTMLFormElement>('form.elicitation-form');
  const wrap = target.closest<HTMLElement>('.field[data-field-index]');
  const requestKey = form?.dataset.requestKey;
  if (!form || !wrap || requestKey === undefined) return;
  const index = Number(wrap.dataset.fieldIndex);
  const field = forms.get(requestKey)?.[index];
  if (!field) return;
  let draft = drafts.get(requestKey);
  if (!draft) drafts.set(requestKey, (draft = new Map()));
  draft.set(index, rawOf(wrap, field));
  if (wrap.querySelector('[aria-invalid="true"]')) showProblem(wrap, check(wrap, field).problem);
}
