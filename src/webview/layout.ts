import { button, h, iconButton } from './dom';

/** The panel's fixed skeleton; its ids are part of the DOM contract. */
export interface Layout {
  app: HTMLElement;
  status: HTMLElement;
  title: HTMLElement;
  usage: HTMLElement;
  start: HTMLButtonElement;
  follow: HTMLButtonElement;
  restart: HTMLButtonElement;
  detail: HTMLPreElement;
  transcript: HTMLElement;
  review: HTMLElement;
  queue: HTMLUListElement;
  pickers: HTMLElement;
  prompt: HTMLTextAreaElement;
  commands: HTMLUListElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
}

export function buildLayout(app: HTMLElement): Layout {
  const withId = <T extends HTMLElement>(el: T, id: string, hidden = false): T => {
    el.id = id;
    el.hidden = hidden;
    return el;
  };

  const status = withId(h('span'), 'status');
  status.setAttribute('role', 'status');
  const ui: Layout = {
    app,
    status,
    title: withId(h('span'), 'title', true),
    usage: withId(h('span'), 'usage', true),
    start: withId(button('', 'Start agent', 'play'), 'start', true),
    follow: withId(iconButton('', 'Follow the agent in the editor', 'eye'), 'follow'),
    restart: withId(button('secondary', 'Restart', 'debug-restart'), 'restart', true),
    detail: withId(h('pre'), 'detail', true),
    transcript: withId(h('main'), 'transcript'),
    review: h('section', 'review'),
    queue: withId(h('ul'), 'queue', true),
    pickers: withId(h('div'), 'pickers', true),
    prompt: withId(h('textarea'), 'prompt'),
    commands: withId(h('ul'), 'commands', true),
    send: withId(iconButton('', 'Send', 'send'), 'send'),
    stop: withId(iconButton('', 'Stop', 'debug-stop'), 'stop', true),
  };

  ui.transcript.setAttribute('aria-live', 'polite');
  ui.queue.setAttribute('aria-label', 'Queued prompts');
  ui.prompt.setAttribute('aria-label', 'Prompt');
  ui.prompt.rows = 1;
  ui.prompt.placeholder = 'Ask the agent (/ for commands, Shift+Enter for a new line)';
  // Text box + listbox popup: the textbox keeps focus and points at the selected option.
  ui.prompt.setAttribute('aria-autocomplete', 'list');
  ui.prompt.setAttribute('aria-controls', 'commands');
  ui.commands.setAttribute('role', 'listbox');
  ui.commands.setAttribute('aria-label', 'Commands');
  ui.review.setAttribute('aria-label', 'Review of the agent’s changes');
  ui.send.title = 'Send (Enter)';
  ui.stop.title = 'Stop the turn';

  const header = h('header', 'bar');
  header.append(ui.status, ui.title, ui.usage, ui.follow, ui.start, ui.restart);

  const input = h('div', 'input');
  const toolbar = h('div', 'toolbar');
  toolbar.append(ui.pickers, ui.send, ui.stop);
  input.append(ui.prompt, ui.commands, toolbar);
  const composer = h('footer', 'composer');
  composer.append(ui.queue, input);

  app.replaceChildren(header, ui.detail, ui.transcript, ui.review, composer);
  return ui;
}
