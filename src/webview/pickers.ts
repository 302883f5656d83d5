import { h } from './dom';
import type { ConfigOptionView, ModesView, SessionView } from './protocol';
import { post } from './vscode';

/**
 * #pickers: the session mode and the agent's config options, in the agent's order. The controls
 * are rebuilt only when their choices change (rebuilding would close an open dropdown on every
 * usage update); their values are re-synced from every session message, so a change the agent
 * refused snaps back.
 */
export class Pickers {
  private shape = '';

  constructor(private readonly root: HTMLElement) {
    root.addEventListener('change', (event) => this.onChange(event));
  }

  render(session: SessionView): void {
    const shape = JSON.stringify([
      session.modes?.available ?? null,
      session.configOptions.map((option) => ({ ...option, currentValue: undefined })),
    ]);
    if (shape !== this.shape) {
      this.shape = shape;
      const controls: HTMLElement[] = [];
      if (session.modes) controls.push(modeSelect(session.modes));
      for (const option of session.configOptions) controls.push(option.type === 'select' ? configSelect(option) : configCheckbox(option));
      this.root.replaceChildren(...controls);
      this.root.hidden = controls.length === 0;
    }
    this.syncValues(session);
  }

  private syncValues(session: SessionView): void {
    const mode = this.root.querySelector<HTMLSelectElement>('select#mode');
    if (mode && session.modes) mode.value = session.modes.currentModeId;
    for (const option of session.configOptions) {
      const control = [...this.root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-config-id]')].find((el) => el.dataset.configId === option.id);
      if (control instanceof HTMLSelectElement && option.type === 'select') control.value = option.currentValue;
      else if (control instanceof HTMLInputElement && option.type === 'boolean') control.checked = option.currentValue;
    }
  }

  private onChange(event: Event): void {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.id === 'mode') post({ type: 'setMode', modeId: target.value });
    else if (target instanceof HTMLSelectElement && target.dataset.configId !== undefined) {
      post({ type: 'setConfigOption', configId: target.dataset.configId, value: target.value });
    } else if (target instanceof HTMLInputElement && target.dataset.configId !== undefined) {
      post({ type: 'setConfigOption', configId: target.dataset.configId, value: target.checked });
    }
  }
}

function modeSelect(modes: ModesView): HTMLSelectElement {
  const select = h('select');
  select.id = 'mode';
  select.setAttribute('aria-label', 'Mode');
  select.title = 'Mode';
  for (const mode of modes.available) select.append(option(mode.id, mode.name, mode.description));
  return select;
}

function configSelect(config: Extract<ConfigOptionView, { type: 'select' }>): HTMLSelectElement {
  const select = h('select', 'config');
  select.dataset.configId = config.id;
  select.setAttribute('aria-label', config.name);
  select.title = config.description ?? config.name;
  for (const group of config.groups) {
    const choices = group.choices.map((choice) => option(choice.value, choice.name, choice.description));
    if (group.name === null) select.append(...choices);
    else {
      const optgroup = h('optgroup');
      optgroup.label = group.name;
      optgroup.append(...choices);
      select.append(optgroup);
    }
  }
  return select;
}

function configCheckbox(config: Extract<ConfigOptionView, { type: 'boolean' }>): HTMLLabelElement {
  const label = h('label', 'config');
  if (config.description) label.title = config.description;
  const box = h('input');
  box.type = 'checkbox';
  box.dataset.configId = config.id;
  label.append(box, config.name);
  return label;
}

function option(value: string, name: string, description: string | null): HTMLOptionElement {
  const el = h('option', '', name);
  el.value = value;
  if (description) el.title = description;
  return el;
}
