import { appendSpaced, h } from './dom';
import type { CommandView } from './protocol';

const MAX_ITEMS = 50;

/**
 * Slash-command completion for the prompt box, as a listbox popup: open while the text is "/"
 * plus a word being typed and some command matches. The textarea keeps focus throughout
 * (aria-activedescendant names the selected option), so typing never stops.
 */
export class CommandMenu {
  private commands: readonly CommandView[] = [];
  private shown: CommandView[] = [];
  private selected = -1;
  /** The text the user pressed Escape on: stay closed until it changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly list: HTMLUListElement,
    private readonly box: HTMLTextAreaElement,
    /** The box's text was replaced by an accepted command. */
    private readonly onAccept: () => void,
  ) {
    // Keep focus in the textarea when an item is clicked.
    list.addEventListener('mousedown', (event) => event.preventDefault());
    list.addEventListener('click', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('li[data-command]');
      if (item?.dataset.command !== undefined) this.accept(item.dataset.command);
    });
  }

  setCommands(commands: readonly CommandView[]): void {
    this.commands = commands;
    // Only while the user is at it: a restored draft "/x" should not pop the list up on its own.
    if (this.isOpen || document.activeElement === this.box) this.refresh();
  }

  get isOpen(): boolean {
    return !this.list.hidden;
  }

  /** Recomputes the list from the box's text (call on every input). */
  refresh(): void {
    const text = this.box.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== text) this.dismissedFor = undefined;
    const query = /^\/\S*$/.test(text) && this.dismissedFor === undefined ? text.slice(1) : undefined;
    const previous = this.shown[this.selected]?.name;
    this.shown = query === undefined ? [] : match(this.commands, query).slice(0, MAX_ITEMS);
    if (this.shown.length === 0) return this.close();
    // The best match is selected, so Enter takes it (as in VS Code's suggest widget); the
    // selection stays on the same command while it still matches. Escape sends the text as typed.
    this.selected = Math.max(0, this.shown.findIndex((command) => command.name === previous));
    this.list.replaceChildren(...this.shown.map((command, i) => item(command, i)));
    this.list.hidden = false;
    this.showSelection();
  }

  /** Handles the keys the list owns while open; returns whether it consumed the event. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const count = this.shown.length;
        this.selected = (this.selected + step + count) % count;
        this.showSelection();
        break;
      }
      case 'Enter':
      case 'Tab': {
        const command = this.shown[this.selected];
        if (!command || event.shiftKey) return false;
        // The whole name typed out: Enter sends it rather than completing what is already there.
        if (event.key === 'Enter' && this.box.value === `/${command.name}`) {
          this.close();
          return false;
        }
        this.accept(command.name);
        break;
      }
      case 'Escape':
        this.dismissedFor = this.box.value;
        this.close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  close(): void {
    this.list.hidden = true;
    this.list.replaceChildren();
    this.shown = [];
    this.selected = -1;
    this.box.removeAttribute('aria-activedescendant');
  }

  private accept(name: string): void {
    this.box.value = `/${name} `;
    this.box.setSelectionRange(this.box.value.length, this.box.value.length);
    this.close();
    this.box.focus();
    this.onAccept();
  }

  private showSelection(): void {
    const items = this.list.children;
    for (let i = 0; i < items.length; i++) items[i]?.setAttribute('aria-selected', String(i === this.selected));
    const current = items[this.selected];
    if (current) {
      this.box.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else this.box.removeAttribute('aria-activedescendant');
  }
}

/** Names starting with the query first, then names containing it; case-insensitive. */
function match(commands: readonly CommandView[], query: string): CommandView[] {
  const q = query.toLowerCase();
  const starts: CommandView[] = [];
  const contains: CommandView[] = [];
  for (const command of commands) {
    const name = command.name.toLowerCase();
    if (name.startsWith(q)) starts.push(command);
    else if (name.includes(q)) contains.push(command);
  }
  return [...starts, ...contains];
}

function item(command: CommandView, i: number): HTMLLIElement {
  const li = h('li', 'command');
  li.id = `command-option-${i}`;
  li.setAttribute('role', 'option');
  li.setAttribute('aria-selected', 'false');
  li.dataset.command = command.name;
  const parts = [h('span', 'command-name', `/${command.name}`), h('span', 'command-description', command.description)];
  if (command.hint) parts.push(h('span', 'command-hint', command.hint));
  appendSpaced(li, ...parts);
  return li;
}
