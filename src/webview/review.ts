import { appendSpaced, button, h, icon, iconButton } from './dom';
import { pathTail } from './format';
import type { ReviewFileView } from './protocol';
import { post } from './vscode';

const CHANGE_ICONS: Record<ReviewFileView['change'], string> = {
  modified: 'diff-modified',
  created: 'diff-added',
  deleted: 'diff-removed',
};

const CHANGE_WORDS: Record<ReviewFileView['change'], string> = {
  modified: 'modified',
  created: 'created',
  deleted: 'deleted',
};

/**
 * section.review above the composer: the files the agent changed, each with Open diff, Keep and
 * Undo, and Keep all / Undo all, and a note on what it cannot list. Hidden when there is nothing to review. Rebuilt only when the
 * list changes, so an unrelated session update does not steal focus from its buttons.
 */
export class Review {
  private shown = '';
  private readonly count = h('span', 'review-count');
  private readonly list = h('ul');
  /** Changed files the list cannot show (their earlier text was not kept). */
  private readonly note = h('p', 'review-note');

  constructor(private readonly root: HTMLElement) {
    this.list.id = 'review';
    this.list.setAttribute('aria-label', 'Changed files');
    const head = h('div', 'review-head');
    head.append(this.count, button('review-keep-all secondary', 'Keep all', 'check-all'), button('review-undo-all secondary', 'Undo all', 'discard'));
    this.note.setAttribute('role', 'note');
    root.append(head, this.list, this.note);
    root.hidden = true;
    root.addEventListener('click', (event) => this.onClick(event));
  }

  render(files: readonly ReviewFileView[], note: string | null = null): void {
    const key = JSON.stringify([files, note]);
    if (key === this.shown) return;
    this.shown = key;
    this.root.hidden = files.length === 0 && note === null;
    this.note.hidden = note === null;
    this.note.textContent = note ?? '';
    this.count.textContent = `${files.length} ${files.length === 1 ? 'file' : 'files'} changed`;
    // Rebuilding drops the focused button: give focus to the same button of the same file, if it is still there.
    const focused = document.activeElement;
    const focusedPath = this.list.contains(focused) ? focused?.closest<HTMLElement>('li[data-path]')?.dataset.path : undefined;
    const focusedClass = focused instanceof HTMLButtonElement ? focused.classList[0] : undefined;
    this.list.replaceChildren(...files.map(item));
    if (focusedPath !== undefined && focusedClass) {
      const again = [...this.list.children].find((li) => (li as HTMLElement).dataset.path === focusedPath)?.querySelector<HTMLButtonElement>(`button.${focusedClass}`);
      (again ?? this.list.querySelector<HTMLButtonElement>('button') ?? undefined)?.focus();
    }
  }

  private onClick(event: Event): void {
    const target = (event.target as Element).closest('button');
    if (!target) return;
    if (target.classList.contains('review-keep-all')) return post({ type: 'reviewKeep' });
    if (target.classList.contains('review-undo-all')) return post({ type: 'reviewUndo' });
    const path = target.closest<HTMLElement>('li[data-path]')?.dataset.path;
    if (path === undefined) return;
    if (target.classList.contains('review-open')) post({ type: 'reviewOpen', path });
    else if (target.classList.contains('review-keep')) post({ type: 'reviewKeep', path });
    else if (target.classList.contains('review-undo')) post({ type: 'reviewUndo', path });
  }
}

function item(file: ReviewFileView): HTMLLIElement {
  const li = h('li', `review-file review-${file.change}`);
  li.dataset.path = file.path;
  li.dataset.change = file.change;
  // The file's name, then its folder (the last two segments), which ellipsizes first in a narrow side bar; the tooltip has it all.
  const segments = file.path.split(/[\\/]/).filter(Boolean);
  const name = h('span', 'review-path');
  appendSpaced(name, h('span', 'review-name', segments.at(-1) ?? file.path), h('span', 'review-folder', pathTail(segments.slice(0, -1).join('/'))));
  name.title = `${file.path} (${CHANGE_WORDS[file.change]})`;
  const counts = h('span', 'review-counts');
  appendSpaced(counts, h('span', 'diff-added', `+${file.added}`), h('span', 'diff-removed', `\u2212${file.removed}`));
  const actions = h('span', 'review-actions');
  actions.append(iconButton('review-open', 'Open diff', 'diff'), iconButton('review-keep', 'Keep', 'check'), iconButton('review-undo', 'Undo', 'discard'));
  // The icon is the only sign of the kind of change: it carries the word for screen readers.
  const kind = icon(CHANGE_ICONS[file.change], 'review-icon');
  kind.removeAttribute('aria-hidden');
  kind.setAttribute('role', 'img');
  kind.setAttribute('aria-label', CHANGE_WORDS[file.change]);
  appendSpaced(li, kind, name, counts, actions);
  return li;
}
