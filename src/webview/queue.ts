import { h, icon, iconButton } from './dom';
import type { QueuedPromptView } from './protocol';
import { post } from './vscode';

/**
 * ul#queue: prompts typed while a turn runs, each removable until the host sends it. Rebuilt only
 * when the queue changes, so a usage update does not steal focus from a "Remove" button.
 */
export class Queue {
  private shown = '';

  constructor(private readonly list: HTMLUListElement) {
    list.addEventListener('click', (event) => {
      const item = (event.target as Element).closest('button.unqueue')?.closest<HTMLElement>('li[data-queue-id]');
      if (item) post({ type: 'unqueue', id: Number(item.dataset.queueId) });
    });
  }

  render(queue: readonly QueuedPromptView[]): void {
    const key = JSON.stringify(queue);
    if (key === this.shown) return;
    this.shown = key;
    this.list.hidden = queue.length === 0;
    this.list.replaceChildren(...queue.map(item));
  }
}

function item({ id, text, attachments }: QueuedPromptView): HTMLLIElement {
  const li = h('li');
  li.dataset.queueId = String(id);
  const label = h('span', 'queue-text', text);
  label.title = text;
  li.append(label);
  if (attachments?.length) {
    // Its own context goes with it: the count, and the names on hover.
    const count = h('span', 'queue-attachments');
    count.append(icon('attach'), String(attachments.length));
    count.title = `Attached: ${attachments.map((a) => a.label).join(', ')}`;
    li.append(count);
  }
  li.append(iconButton('unqueue', 'Remove from queue', 'close'));
  return li;
}
