import { Backlog, PENDING } from './backlog';
import { h } from './dom';
import { keepLinksForHost, linkHref } from './markdown';
import type { EntryView } from './protocol';
import { elicitationDecision, elicitationInput, submitElicitation } from './render/elicitation';
import { movePermissionFocus } from './render/permission';
import { urlDecision } from './render/urlElicitation';
import { patchEntry, renderEntry } from './render/entries';
import type { RenderContext } from './render/context';
import type { Presentation } from './presentation';
import { post } from './vscode';
import { entryActionIntent } from './entryActions';

/** Within this many pixels of the bottom the view follows new output. */
const STICK_PX = 40;
/**
 * Entries per `div.entry-group`, and groups per `div.entry-section`. The browser checks every
 * content-visibility: auto element's visibility each frame and lays out every child of a
 * container: with two levels, a 10,000-entry transcript has 10 sections of 20 groups, and a frame
 * deals with the sections plus the groups of the one in view, not with 200 groups (at 200 groups
 * that check alone made a frame 1.5 ms slower); and one group in view holds only 50 entries.
 */
const GROUP_SIZE = 50;
const SECTION_GROUPS = 20;
const SECTION_SIZE = GROUP_SIZE * SECTION_GROUPS;
/** Entries a snapshot renders at once, the last ones: more than the tallest panel shows. */
const TAIL = 100;

/**
 * main#transcript: sections of groups of entries (`div.entry-section > div.entry-group >
 * div.entry`), in index order, every section and group full but the last. Re-renders only the
 * entries it is told changed, keeps focus inside a re-rendered entry, and follows the output
 * while the user is at the bottom.
 */
export class Transcript {
  private stick = true;
  private lastScrollTop = 0;
  private followFrame = 0;
  /** After "Show all"/"Show less", focus the matching button once the entry is re-rendered. */
  private focusAfterRender: { index: number; selector: string } | undefined;
  /** What entries are rendered with: the user's presentation, and what the session offers. */
  private readonly context: RenderContext;
  /** The mirror's entries, as last rendered from: what the backlog renders its placeholders from. */
  private entries: readonly (EntryView | undefined)[] = [];
  private readonly backlog = new Backlog((index) => this.renderPending(index));

  constructor(
    private readonly root: HTMLElement,
    private readonly presentation: Presentation,
    /** Asks for entry `index` to be re-rendered in the next frame. */
    private readonly invalidate: (index: number) => void,
    /** The oldest checkpoint still kept (the session view's `oldestCheckpoint`). */
    oldestCheckpoint: () => number | null,
    /** "Edit" on a user message: its text goes to the prompt box, to be sent in its place. */
    private readonly edit: (index: number, text: string) => void,
  ) {
    this.context = { isOpen: (index, part) => presentation.isOpen(index, part), isExpanded: (index, contentIndex) => presentation.isExpanded(index, contentIndex), oldestCheckpoint };
    root.addEventListener('scroll', () => this.onScroll(), { passive: true });
    keepLinksForHost(root);
    root.addEventListener('click', (event) => this.onClick(event));
    root.addEventListener('keydown', movePermissionFocus);
    // Elicitation forms: submit (Enter or the button) is checked here first, typing is remembered.
    root.addEventListener('submit', (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.matches('form.elicitation-form')) return;
      event.preventDefault();
      const answer = submitElicitation(form);
      if (answer) post(answer);
    });
    for (const type of ['input', 'change']) root.addEventListener(type, (event) => elicitationInput(event.target as Element));
    // `toggle` does not bubble: capture it to remember which disclosures the user opened.
    root.addEventListener('toggle', (event) => this.onToggle(event), true);
    // The panel or the composer changed size: stay at the bottom if we were there (in this
    // frame: resize observers run after its layout, before its paint).
    new ResizeObserver(() => this.stickToBottom()).observe(root);
  }

  /**
   * Whether the user's messages show "Fork from here" (the session's agent forks sessions). Every
   * user message has the button; a class on the transcript shows or hides them all (hidden, they
   * are out of the tab order and the accessibility tree), whatever the number of messages.
   */
  offerFork(canFork: boolean): void {
    this.root.classList.toggle('forks', canFork);
  }

  /**
   * A snapshot: everything is new. One fragment, one insertion, no per-entry layout. Only the
   * last TAIL entries are rendered now, for the first paint (the view opens at the bottom); each
   * older one is a placeholder that the backlog renders after, in idle time.
   */
  rebuild(entries: readonly (EntryView | undefined)[]): void {
    this.entries = entries;
    const first = Math.max(0, entries.length - TAIL);
    const fragment = document.createDocumentFragment();
    let section: HTMLElement | undefined;
    let group: HTMLElement | undefined;
    for (let index = 0; index < entries.length; index++) {
      if (index % SECTION_SIZE === 0) fragment.append((section = h('div', 'entry-section')));
      if (index % GROUP_SIZE === 0) section?.append((group = h('div', 'entry-group')));
      group?.append(index < first ? h('div', PENDING) : renderEntry(entries[index], index, this.context));
    }
    this.root.replaceChildren(fragment);
    this.stick = true;
    this.followOutput();
    this.backlog.start(first);
  }

  /** Renders the entry at `index` if it is still a placeholder (an update may have rendered it). */
  private renderPending(index: number): void {
    const el = this.entryAt(index);
    if (!el?.classList.contains(PENDING)) return;
    el.replaceWith(renderEntry(this.entries[index], index, this.context));
    // Content grew above the view: if it was at the bottom, it stays there.
    this.followOutput();
  }

  /**
   * Re-renders the given entries only (streamed text in place); entries past the end are
   * appended in index order.
   */
  update(indices: Iterable<number>, entries: readonly (EntryView | undefined)[]): void {
    this.entries = entries;
    this.backlog.noteUpdate();
    const sorted = [...indices].sort((a, b) => a - b);
    for (const index of sorted) {
      // Fill any gap first so that entry i stays at its place.
      for (let missing = this.length(); missing < index; missing++) this.append(renderEntry(entries[missing], missing, this.context));
      const old = this.entryAt(index);
      if (!old) {
        this.append(renderEntry(entries[index], index, this.context));
        continue;
      }
      this.keepingFocus(old, () => {
        if (patchEntry(old, entries[index])) return;
        this.captureOpen(old, index);
        this.replace(old, renderEntry(entries[index], index, this.context));
      });
    }
    this.restorePendingFocus();
    this.followOutput();
  }

  private entryAt(index: number): Element | undefined {
    const section = this.root.children[Math.floor(index / SECTION_SIZE)];
    return section?.children[Math.floor((index % SECTION_SIZE) / GROUP_SIZE)]?.children[index % GROUP_SIZE];
  }

  /** How many entries the DOM holds: every section and group is full but the last. */
  private length(): number {
    const section = this.root.lastElementChild;
    if (!section) return 0;
    const inLastGroup = section.lastElementChild?.children.length ?? 0;
    return (this.root.children.length - 1) * SECTION_SIZE + (section.children.length - 1) * GROUP_SIZE + inLastGroup;
  }

  private append(el: HTMLElement): void {
    const length = this.length();
    if (length % SECTION_SIZE === 0) this.root.append(h('div', 'entry-section'));
    const section = this.root.lastElementChild;
    if (length % GROUP_SIZE === 0) section?.append(h('div', 'entry-group'));
    section?.lastElementChild?.append(el);
  }

  /**
   * Moves the fresh rendering into the existing entry element rather than swapping elements:
   * the entry's node stays, so its group's child list and anything holding the node are untouched.
   */
  private replace(old: Element, el: HTMLElement): void {
    for (const name of old.getAttributeNames()) if (!el.hasAttribute(name)) old.removeAttribute(name);
    for (const name of el.getAttributeNames()) old.setAttribute(name, el.getAttribute(name) ?? '');
    old.replaceChildren(...el.childNodes);
  }

  /**
   * Runs `render` on `entry`; if that took away the focused element inside it, keyboard
   * users keep their place: the same position in the new content (a permission button, a link).
   */
  private keepingFocus(entry: Element, render: () => void): void {
    const active = document.activeElement;
    const path = active && entry.contains(active) && active !== entry ? childPath(entry, active) : undefined;
    render();
    if (!path || !active || active.isConnected) return;
    const target = path.reduce<Element | undefined>((node, i) => node?.children[i], entry);
    if (target instanceof HTMLElement && target.tagName === active.tagName && target.className === active.className) target.focus({ preventScroll: true });
  }

  private restorePendingFocus(): void {
    const pending = this.focusAfterRender;
    this.focusAfterRender = undefined;
    if (pending) this.entryAt(pending.index)?.querySelector<HTMLElement>(pending.selector)?.focus({ preventScroll: true });
  }

  private onScroll(): void {
    const { scrollTop } = this.root;
    // Only a move up (the user's doing) releases the view; reaching the bottom again re-attaches it.
    if (this.distanceFromBottom() <= STICK_PX) this.stick = true;
    else if (scrollTop < this.lastScrollTop) this.stick = false;
    this.lastScrollTop = scrollTop;
  }

  /**
   * Scrolls to the bottom in the next animation frame, once however many updates came before it:
   * reading scrollHeight forces a layout, which in the frame is the one the paint needs anyway.
   */
  private followOutput(): void {
    this.followFrame ||= requestAnimationFrame(() => {
      this.followFrame = 0;
      this.stickToBottom();
    });
  }

  private stickToBottom(): void {
    if (!this.stick) return;
    this.root.scrollTop = this.root.scrollHeight;
    // Groups that just came into view get their real size (content-visibility) in the next
    // frame, which can leave the view short of the bottom: settle once more then.
    requestAnimationFrame(() => {
      if (this.stick && this.distanceFromBottom() > 0) this.root.scrollTop = this.root.scrollHeight;
    });
  }

  private distanceFromBottom(): number {
    return this.root.scrollHeight - this.root.scrollTop - this.root.clientHeight;
  }

  /**
   * The DOM is the truth for a disclosure's open state: a click may be newer than its `toggle`
   * event, which is queued, and would fire on an element this re-render is about to detach.
   * Every disclosure is a child of its entry (never inside its content, however large).
   */
  private captureOpen(old: Element, index: number): void {
    for (const details of old.querySelectorAll<HTMLDetailsElement>(':scope > details')) this.presentation.setOpen(index, details.open, details.dataset.part);
  }

  private onToggle(event: Event): void {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    const index = entryIndex(details);
    if (index !== undefined) this.presentation.setOpen(index, details.open, details.dataset.part);
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const index = entryIndex(target);
    if (index === undefined) return;

    const decision = target.closest<HTMLButtonElement>('form.elicitation-form button[data-elicitation-action]');
    if (decision) {
      const answer = elicitationDecision(decision);
      if (answer) post(answer);
      return;
    }

    const urlAction = target.closest<HTMLButtonElement>('.entry-urlElicitation button[data-url-action]');
    if (urlAction) {
      const answer = urlDecision(urlAction);
      if (answer) post(answer);
      return;
    }

    const action = entryActionIntent(target, index, contentIndexOf(target));
    if (action) {
      post(action);
      return;
    }

    if (target.closest('.entry-user button.fork-from-here')) {
      post({ type: 'fork', index });
      return;
    }
    if (target.closest('.entry-user button.restore-checkpoint')) return post({ type: 'restoreCheckpoint', index });
    const user = this.entries[index];
    if (target.closest('.entry-user button.edit-prompt') && user?.kind === 'user') return this.edit(index, user.text);

    const option = target.closest<HTMLButtonElement>('.permission button.option');
    if (option) {
      const { toolCallId, optionId } = option.dataset;
      if (toolCallId !== undefined && optionId !== undefined) post({ type: 'permission', toolCallId, optionId });
      return;
    }
    const dismiss = target.closest<HTMLButtonElement>('.permission button.permission-dismiss');
    if (dismiss) {
      const { toolCallId } = dismiss.dataset;
      if (toolCallId !== undefined) post({ type: 'dismissPermission', toolCallId });
      return;
    }

    const location = target.closest<HTMLAnchorElement>('a.tool-location');
    if (location) {
      const line = location.dataset.line === undefined ? null : Number(location.dataset.line);
      post({ type: 'openLocation', path: location.dataset.path ?? '', line });
      return;
    }

    const link = target.closest<HTMLAnchorElement>('.markdown a, .tool-text a, a.plan-file');
    if (link) {
      const href = linkHref(link);
      if (href) post({ type: 'openLink', href });
      return;
    }

    const contentIndex = contentIndexOf(target);
    if (contentIndex === undefined) return;
    if (target.closest('button.open-diff')) post({ type: 'openDiff', index, contentIndex });
    else if (target.closest('button.expand')) this.toggleOutput(index, contentIndex, true);
    else if (target.closest('button.collapse')) this.toggleOutput(index, contentIndex, false);
  }

  private toggleOutput(index: number, contentIndex: number, expanded: boolean): void {
    this.presentation.setExpanded(index, contentIndex, expanded);
    this.focusAfterRender = { index, selector: `[data-content-index="${contentIndex}"] button.${expanded ? 'collapse' : 'expand'}` };
    this.invalidate(index);
  }
}

function entryIndex(el: Element): number | undefined {
  const entry = el.closest<HTMLElement>('.entry[data-index]');
  return entry ? Number(entry.dataset.index) : undefined;
}

function contentIndexOf(el: Element): number | undefined {
  const content = el.closest<HTMLElement>('[data-content-index]');
  return content ? Number(content.dataset.contentIndex) : undefined;
}

/** Child positions from `ancestor` down to `node`. */
function childPath(ancestor: Element, node: Element): number[] {
  const path: number[] = [];
  for (let el: Element | null = node; el && el !== ancestor; el = el.parentElement) {
    path.unshift(el.parentElement ? [...el.parentElement.children].indexOf(el) : 0);
  }
  return path;
}
