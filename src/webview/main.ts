import './jitless'; // first: it must run before any zod schema is built
import { AgentPicker } from './agentPicker';
import { Attachments } from './attachments';
import { AuthPanel } from './auth';
import { Composer } from './composer';
import { renderSessionHeader, renderStatus } from './header';
import { buildLayout } from './layout';
import { Pickers } from './pickers';
import { Presentation } from './presentation';
import { HostToViewSchema } from './protocol';
import { Queue } from './queue';
import { Review } from './review';
import { SessionSwitcher } from './sessionSwitcher';
import { Mirror } from './state';
import { Transcript } from './transcript';
import { post } from './vscode';

/**
 * Bootstrap and message loop. Host messages update the mirror as they arrive; the DOM catches
 * up about once per animation frame (see renderPromptly), touching only what changed.
 */
const ui = buildLayout(document.getElementById('app') ?? document.body);
const mirror = new Mirror();
const presentation = new Presentation();
// A user's "Show all": rendered in the next frame, not inside the click that asked for it.
const transcript = new Transcript(ui.transcript, presentation, (index) => {
  mirror.touch(index);
  renderNextFrame();
});
const composer = new Composer(ui, presentation);
const pickers = new Pickers(ui.pickers);
const queue = new Queue(ui.queue);
const attachments = new Attachments(ui.attachments, ui.attachmentNotice);
const agentPicker = new AgentPicker(ui.agent);
const sessionSwitcher = new SessionSwitcher(ui);
const review = new Review(ui.review);
const authPanel = new AuthPanel(ui.auth);
ui.start.addEventListener('click', () => post({ type: 'start' }));
ui.restart.addEventListener('click', () => post({ type: 'restart' }));
ui.follow.addEventListener('click', () => post({ type: 'setFollow', enabled: !mirror.session.follow }));

/** Half a frame at 60 Hz: a host message after this much quiet is rendered at once. */
const QUIET_MS = 8;
let frame = 0; // an animation frame is requested, to render what changed
let renderedAt = -Infinity; // when the DOM last caught up

/** Renders the changes in the next animation frame, before the next paint. */
function renderNextFrame(): void {
  frame ||= requestAnimationFrame(() => {
    frame = 0;
    flush();
  });
}

/**
 * Host messages: one that comes after a quiet spell is rendered at once, rather than in the
 * next animation frame, so the DOM has it sooner. Messages that come closer together (a burst,
 * or a backlog behind a long render) are rendered together in the next frame, so rendering
 * never falls behind the messages.
 */
function renderPromptly(): void {
  if (frame || performance.now() - renderedAt < QUIET_MS) renderNextFrame();
  else flush();
}

function flush(): void {
  const changes = mirror.take();
  if (changes.snapshot) {
    presentation.prune(mirror.entries);
    transcript.rebuild(mirror.entries);
  } else if (changes.entries.size > 0) transcript.update(changes.entries, mirror.entries);
  if (changes.status && mirror.status) {
    renderStatus(ui, mirror.status);
    authPanel.render(mirror.status);
    agentPicker.render(mirror.status);
    sessionSwitcher.render(mirror.status);
    composer.renderStatus(mirror.status);
  }
  if (changes.session) {
    const session = mirror.session;
    renderSessionHeader(ui, session);
    queue.render(session.queue);
    review.render(session.review);
    pickers.render(session);
    composer.setCommands(session.commands);
    attachments.render(session.attachments, session.attachmentNotice);
    composer.setAttachments(session.attachments);
  }
  renderedAt = performance.now();
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostToViewSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('ACP Host: ignored an invalid message from the host', parsed.error.issues[0]);
    return;
  }
  mirror.apply(parsed.data);
  renderPromptly();
});

post({ type: 'ready' });
