import { h } from './dom';
import type { StatusView } from './protocol';
import { post } from './vscode';

/**
 * select#agent in the header: the agent the panel runs, and the others the host offers. Options
 * are rebuilt only when the list changes (a rebuild would close an open dropdown); the value is
 * re-synced from every status, so a switch the host did not make snaps back.
 */
export class AgentPicker {
  private shape = '';

  constructor(private readonly select: HTMLSelectElement) {
    select.addEventListener('change', () => {
      if (select.value) post({ type: 'chooseAgent', name: select.value });
    });
  }

  render(status: StatusView): void {
    const names = status.agents ?? [];
    // The running agent stays visible even when it is no longer configured.
    const all = names.includes(status.agentName) ? names : [status.agentName, ...names];
    const shape = JSON.stringify(all);
    if (shape !== this.shape) {
      this.shape = shape;
      this.select.replaceChildren(
        ...all.map((name) => {
          const option = h('option', '', name);
          option.value = name;
          return option;
        }),
      );
    }
    // Without a list from the host there is nothing to choose from.
    this.select.hidden = status.agents === undefined;
    this.select.value = status.agentName;
    this.select.title = `Agent: ${status.agentName}`;
  }
}
