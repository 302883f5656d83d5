import { CommandMenu } from './commandMenu';
import type { Layout } from './layout';
import type { Presentation } from './presentation';
import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from './protocol';
import type { AttachmentView, CommandView, StatusView } from './protocol';
import { post } from './vscode';

/** The host refuses longer prompts (ViewToHost schema): say so instead of losing the text. */
const PROMPT_MAX = 1_000_000;

/**
 * The prompt box with its send/stop buttons and slash-command completion. Sending while a turn
 * runs is allowed: the host queues the prompt.
 */
export class Composer {
  private readonly menu: CommandMenu;
  /** An attachment the agent cannot take: sending waits until it is removed (the chip says why). */
  private blocked = false;
  /** The user message being edited ("Edit"): Send restores its checkpoint and sends the text in its place. */
  private editing: number | undefined;

  constructor(
    private readonly ui: Layout,
    private readonly presentation: Presentation,
  ) {
    const box = ui.prompt;
    this.menu = new CommandMenu(ui.commands, box, () => this.saveDraft());
    box.value = presentation.draft;
    box.addEventListener('input', (event) => {
      this.onMention(event as InputEvent);
      this.saveDraft();
      this.menu.refresh();
    });
    box.addEventListener('paste', (event) => this.onPaste(event));
    const dropZone = box.parentElement ?? box;
    dropZone.addEventListener('dragover', (event) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    });
    dropZone.addEventListener('drop', (event) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      files.forEach(attachFile);
    });
    ui.mention.addEventListener('click', () => post({ type: 'mention' }));
    ui.attachSelection.addEventListener('click', () => post({ type: 'attachSelection' }));
    box.addEventListener('keydown', (event) => this.onKey(event));
    // Leaving the box closes the popup (clicks on items keep focus, see CommandMenu).
    box.addEventListener('blur', () => this.menu.close());
    ui.send.addEventListener('click', () => this.send());
    ui.stop.addEventListener('click', () => post({ type: 'cancel' }));
  }

  renderStatus(status: StatusView): void {
    const prompting = status.phase === 'prompting';
    const { send, stop, prompt } = this.ui;
    // Hiding the focused button would drop focus to the page: hand it to the prompt box.
    if ((prompting && document.activeElement === send) || (!prompting && document.activeElement === stop)) prompt.focus();
    send.hidden = prompting;
    stop.hidden = !prompting;
  }

  /** "Edit" on the user message at entry `index`: its text in the box; Send sends it in that message's place. */
  edit(index: number, text: string): void {
    const box = this.ui.prompt;
    this.editing = index;
    box.value = text;
    box.title = 'Editing an earlier message: Send restores the files to its checkpoint and sends this in its place (Escape: stop editing).';
    box.dataset.editing = String(index);
    box.focus();
    this.saveDraft();
  }

  private stopEditing(): void {
    this.editing = undefined;
    delete this.ui.prompt.dataset.editing;
    this.ui.prompt.removeAttribute('title');
  }

  setCommands(commands: readonly CommandView[]): void {
    this.menu.setCommands(commands);
  }

  setAttachments(attachments: readonly AttachmentView[]): void {
    this.blocked = attachments.some((a) => a.problem !== null);
  }

  /**
   * "@" typed at the start or after whitespace opens the host's file picker. The "@" is a trigger,
   * not text: it is removed (the chips show what was attached). A pasted "@", or one right after
   * another character (an e-mail address), stays text.
   */
  private onMention(event: InputEvent): void {
    if (event.inputType !== 'insertText' || event.data !== '@') return;
    const box = this.ui.prompt;
    const at = box.selectionStart - 1;
    if (at < 0 || box.value[at] !== '@' || (at > 0 && !/\s/.test(box.value[at - 1]))) return;
    box.value = box.value.slice(0, at) + box.value.slice(at + 1);
    box.setSelectionRange(at, at);
    post({ type: 'mention' });
  }

  /** A pasted image is attached; pasted text still goes into the box. */
  private onPaste(event: ClipboardEvent): void {
    const data = event.clipboardData;
    const files = [...(data?.files ?? [])];
    if (files.length === 0) return;
    if (!data?.getData('text/plain')) event.preventDefault();
    files.forEach(attachFile);
  }

  private onKey(event: KeyboardEvent): void {
    // keyCode 229: a key that an IME is still composing (Safari/WebKit report it this way).
    if (event.isComposing || event.keyCode === 229) return;
    if (this.menu.handleKey(event)) return;
    if (event.key === 'Escape' && this.editing !== undefined) return this.stopEditing();
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.send();
    }
  }

  private send(): void {
    const box = this.ui.prompt;
    const text = box.value.trim();
    if (!text || this.blocked) return;
    if (text.length > PROMPT_MAX) {
      box.setAttribute('aria-invalid', 'true');
      box.title = `Too long to send: at most ${PROMPT_MAX.toLocaleString('en-US')} characters.`;
      return;
    }
    post(this.editing === undefined ? { type: 'prompt', text } : { type: 'editPrompt', index: this.editing, text });
    this.stopEditing();
    box.value = '';
    box.focus(); // after a click on Send, typing the next prompt just works
    box.removeAttribute('aria-invalid');
    box.removeAttribute('title');
    this.menu.close();
    this.saveDraft();
  }

  private saveDraft(): void {
    this.presentation.draft = this.ui.prompt.value;
  }
}

const IMAGE_TYPES: readonly string[] = IMAGE_MIME_TYPES;

/** Reads a pasted or dropped image as base64 for the host; anything else is reported, not dropped silently. */
function attachFile(file: File): void {
  const name = (file.name || 'image').slice(0, 255);
  if (!IMAGE_TYPES.includes(file.type)) return post({ type: 'attachRefused', name, reason: 'unsupportedType' });
  if (file.size > IMAGE_MAX_BYTES) return post({ type: 'attachRefused', name, reason: 'tooLarge' });
  const reader = new FileReader();
  reader.onload = () => {
    const url = String(reader.result);
    const data = url.slice(url.indexOf(',') + 1);
    if (data === '') return post({ type: 'attachRefused', name, reason: 'unreadable' });
    post({ type: 'attachImage', mimeType: file.type as (typeof IMAGE_MIME_TYPES)[number], data, name });
  };
  reader.onerror = () => post({ type: 'attachRefused', name, reason: 'unreadable' });
  reader.readAsDataURL(file);
}
