import { button, h, iconButton } from './dom';

/** The panel's fixed skeleton; its ids are part of the DOM contract. */
export interface Layout {
  app: HTMLElement;
  /** select#agent: which agent the panel runs (hidden until the host lists agents). */
  agent: HTMLSelectElement;
  /** select#session and its buttons: the open sessions (hidden until the host lists them). */
  session: HTMLSelectElement;
  newSession: HTMLButtonElement;
  closeSession: HTMLButtonElement;
  history: HTMLButtonElement;
  status: HTMLElement;
  title: HTMLElement;
  /** p#fork: what this session is a fork of, and what its transcript does not show of the agent's copy. */
  fork: HTMLElement;
  usage: HTMLElement;
  start: HTMLButtonElement;
  follow: HTMLButtonElement;
  restart: HTMLButtonElement;
  detail: HTMLPreElement;
  /** section#auth: the sign-in choices, in the auth phase. */
  auth: HTMLElement;
  transcript: HTMLElement;
  review: HTMLElement;
  /** section#pinned-plan: the current plan, above the prompt box (hidden when there is none). */
  pinnedPlan: HTMLElement;
  queue: HTMLUListElement;
  /** ul#attachments: the prompt's context as chips, and p#attachment-notice: why one was refused. */
  attachments: HTMLUListElement;
  attachmentNotice: HTMLElement;
  /** button#mention (@: attach files and folders), button#attach-selection (the editor's selection). */
  mention: HTMLButtonElement;
  attachSelection: HTMLButtonElement;
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
    agent: withId(h('select'), 'agent', true),
    session: withId(h('select'), 'session', true),
    newSession: withId(iconButton('', 'New session', 'add'), 'new-session'),
    closeSession: withId(iconButton('', 'Close session', 'close'), 'close-session', true),
    history: withId(iconButton('', 'Session history', 'history'), 'history'),
    status,
    title: withId(h('span'), 'title', true),
    fork: withId(h('p'), 'fork', true),
    usage: withId(h('span'), 'usage', true),
    start: withId(button('', 'Start agent', 'play'), 'start', true),
    follow: withId(iconButton('', 'Follow the agent in the editor', 'eye'), 'follow'),
    restart: withId(button('secondary', 'Restart', 'debug-restart'), 'restart', true),
    detail: withId(h('pre'), 'detail', true),
    auth: withId(h('section'), 'auth', true),
    transcript: withId(h('main'), 'transcript'),
    review: h('section', 'review'),
    pinnedPlan: withId(h('section'), 'pinned-plan', true),
    queue: withId(h('ul'), 'queue', true),
    attachments: withId(h('ul'), 'attachments', true),
    attachmentNotice: withId(h('p'), 'attachment-notice', true),
    mention: withId(iconButton('', 'Attach files or folders (@)', 'mention'), 'mention'),
    attachSelection: withId(iconButton('', 'Attach the editor’s selection', 'selection'), 'attach-selection'),
    pickers: withId(h('div'), 'pickers', true),
    prompt: withId(h('textarea'), 'prompt'),
    commands: withId(h('ul'), 'commands', true),
    send: withId(iconButton('', 'Send', 'send'), 'send'),
    stop: withId(iconButton('', 'Stop', 'debug-stop'), 'stop', true),
  };

  ui.agent.setAttribute('aria-label', 'Agent');
  ui.session.setAttribute('aria-label', 'Session');
  ui.transcript.setAttribute('aria-live', 'polite');
  ui.queue.setAttribute('aria-label', 'Queued prompts');
  ui.attachments.setAttribute('aria-label', 'Attached to the prompt');
  ui.attachmentNotice.setAttribute('role', 'alert');
  ui.prompt.setAttribute('aria-label', 'Prompt');
  ui.prompt.rows = 1;
  ui.prompt.placeholder = 'Ask the agent (/ for commands, @ for files, Shift+Enter for a new line)';
  // Text box + listbox popup: the textbox keeps focus and points at the selected option.
  ui.prompt.setAttribute('aria-autocomplete', 'list');
  ui.prompt.setAttribute('aria-controls', 'commands');
  ui.commands.setAttribute('role', 'listbox');
  ui.commands.setAttribute('aria-label', 'Commands');
  ui.review.setAttribute('aria-label', 'Review of the agent’s changes');
  ui.send.title = 'Send (Enter)';
  ui.stop.title = 'Stop the turn';

  // The switcher and its buttons wrap as one: in a narrow sidebar they take a line of their own.
  const sessions = h('div', 'sessions');
  sessions.append(ui.session, ui.newSession, ui.closeSession, ui.history);
  const header = h('header', 'bar');
  header.append(ui.agent, sessions, ui.status, ui.title, ui.usage, ui.follow, ui.start, ui.restart);

  const input = h('div', 'input');
  const toolbar = h('div', 'toolbar');
  toolbar.append(ui.pickers, ui.mention, ui.attachSelection, ui.send, ui.stop);
  input.append(ui.prompt, ui.commands, toolbar);
  const composer = h('footer', 'composer');
  composer.append(ui.pinnedPlan, ui.queue, ui.attachments, ui.attachmentNotice, input);

  app.replaceChildren(header, ui.fork, ui.auth, ui.detail, ui.transcript, ui.review, composer);
  return ui;
}
