import { CommandMenu } from './commandMenu';
import type { Layout } from './layout';
import type { Presentation } from './presentation';
import type { CommandView, StatusView } from './protocol';
import { post } from './vscode';

/** The host refuses longer prompts (ViewToHost schema): say so instead of losing the text. */
const PROMPT_MAX = 1_000_000;

/**
 * The prompt box with its send/stop buttons and slash-command completion. Sending while a turn
 * runs is allowed: the host queues the prompt.
 */
export class Composer {
  private readonly menu: CommandMenu;

  constructor(
    private readonly ui: Layout,
    private readonly presentation: Presentation,
  ) {
    const box = ui.prompt;
    this.menu = new CommandMenu(ui.commands, box, () => this.saveDraft());
    box.value = presentation.draft;
    box.addEventListener('input', () => {
      this.saveDraft();
      this.menu.refresh();
    });
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

  setCommands(commands: readonly CommandView[]): void {
    this.menu.setCommands(commands);
  }

  private onKey(event: KeyboardEvent): void {
    // keyCode 229: a key that an IME is still composing (Safari/WebKit report it this way).
    if (event.isComposing || event.keyCode === 229) return;
    if (this.menu.handleKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.send();
    }
  }

  private send(): void {
    const box = this.ui.prompt;
    const text = box.value.trim();
    if (!text) return;
    if (text.length > PROMPT_MAX) {
      box.setAttribute('aria-invalid', 'true');
      box.title = `Too long to send: at most ${PROMPT_MAX.toLocaleString('en-US')} characters.`;
      return;
    }
    post({ type: 'prompt', text });
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
