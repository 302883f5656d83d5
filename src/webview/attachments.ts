import { clamp, h, icon, iconButton } from './dom';
import type { AttachmentLabel, AttachmentView } from './protocol';
import { post } from './vscode';

// Maps, not object literals: the kind comes from the host, and "constructor" must not find a prototype key.
const KIND_ICONS = new Map<string, string>([
  ['file', 'file'],
  ['folder', 'folder'],
  ['selection', 'selection'],
  ['image', 'file-media'],
  ['comment', 'comment'],
]);

export function attachmentIcon(kind: string): string {
  return KIND_ICONS.get(kind) ?? 'file';
}

const LABEL_MAX = 200;

/**
 * ul#attachments: the prompt's context as chips (icon, label, remove button), projected from
 * SessionView.attachments; p#attachment-notice: why the last one was refused. Rebuilt only when
 * they change, so a usage update does not steal focus from a remove button.
 */
export class Attachments {
  private shown = '';

  constructor(
    private readonly list: HTMLUListElement,
    private readonly notice: HTMLElement,
  ) {
    list.addEventListener('click', (event) => {
      const item = (event.target as Element).closest('button.attachment-remove')?.closest<HTMLElement>('li[data-attachment-id]');
      if (item?.dataset.attachmentId) post({ type: 'detach', id: item.dataset.attachmentId });
    });
  }

  render(attachments: readonly AttachmentView[], notice: string | null): void {
    const key = JSON.stringify([attachments, notice]);
    if (key === this.shown) return;
    this.shown = key;
    const focused = document.activeElement;
    const hadFocus = focused instanceof HTMLElement && this.list.contains(focused);
    this.list.hidden = attachments.length === 0;
    this.list.replaceChildren(...attachments.map(chip));
    // Removing a chip by keyboard keeps focus in the list (or hands it to the prompt box).
    if (hadFocus) (this.list.querySelector<HTMLElement>('button.attachment-remove') ?? document.getElementById('prompt'))?.focus();
    // A chip the agent cannot take says why here too, so the reason is read before sending.
    const shown = notice ?? attachments.find((a) => a.problem !== null)?.problem ?? null;
    this.notice.hidden = shown === null;
    this.notice.textContent = shown ?? '';
  }
}

function chip(attachment: AttachmentView): HTMLLIElement {
  const li = h('li', attachment.problem ? 'attachment attachment-problem' : 'attachment');
  li.dataset.attachmentId = attachment.id;
  li.dataset.kind = attachment.kind;
  const label = h('span', 'attachment-label', clamp(attachment.label, LABEL_MAX));
  li.title = [attachment.label, attachment.detail, attachment.problem].filter((s) => s).join('\n');
  li.append(icon(attachmentIcon(attachment.kind), 'attachment-icon'), label);
  if (attachment.problem) li.append(icon('warning', 'attachment-warning'));
  li.append(iconButton('attachment-remove', `Remove ${clamp(attachment.label, LABEL_MAX)}`, 'close'));
  return li;
}

/** The attachments of a sent prompt, under its text in the transcript. */
export function attachmentList(attachments: readonly AttachmentLabel[]): HTMLUListElement {
  const ul = h('ul', 'user-attachments');
  ul.setAttribute('aria-label', 'Attached');
  for (const a of attachments) {
    const li = h('li');
    li.dataset.kind = a.kind;
    li.append(icon(attachmentIcon(a.kind)), h('span', '', clamp(a.label, LABEL_MAX)));
    li.title = a.label;
    ul.append(li);
  }
  return ul;
}
