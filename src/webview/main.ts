import { AgentPicker } from './agentPicker';
import { Attachments } from './attachments';
import { AuthPanel } from './auth';
import { Composer } from './composer';
import { renderSessionHeader, renderStatus } from './header';
import { buildLayout } from './layout';
import { Pickers } from './pickers';
import { PinnedPlan } from './pinnedPlan';
import { Presentation } from './presentation';
import { FocusPromptSchema, HostToViewSchema } from './protocol';
import { Queue } from './queue';
import { Review } from './review';
import { SessionSwitcher } from './sessionSwitcher';
import { Mirror } from './state';
import { Transcript } from './transcript';
import { post } from './vscode';

/**
 * Bootstrap and message loop. Each host message updates the mirror and then the DOM, touching
 * only what changed; the host waits for `rendered` before it posts again.
 */
const ui = buildLayout(document.getElementById('app') ?? document.body);
const mirror = new Mirror();
const presentation = new Presentation();
// A user's "Show all": rendered in the next frame, not inside the click that asked for it.
const transcript = new Transcript(
  ui.transcript,
  presentation,
  (index) => {
    mirror.touch(index);
    renderNextFrame();
  },
  () => mirror.session.oldestCheckpoint,
  (index, text) => composer.edit(index, text),
);
const composer = new Composer(ui, presentation);
const pickers = new Pickers(ui.pickers);
const queue = new Queue(ui.queue);
const attachments = new Attachments(ui.attachments, ui.attachmentNotice);
const agentPicker = new AgentPicker(ui.agent);
const sessionSwitcher = new SessionSwitcher(ui);
const review = new Review(ui.review);
const pinnedPlan = new PinnedPlan(ui.pinnedPlan, presentation);
const authPanel = new AuthPanel(ui.auth);
ui.start.addEventListener('click', () => post({ type: 'start' }));
ui.restart.addEventListener('click', () => post({ type: 'restart' }));
ui.follow.addEventListener('click', () => post({ type: 'setFollow', enabled: !mirror.session.follow }));

let frame = 0; // an animation frame is requested, to render what changed

/** Renders the changes in the next animation frame, before the next paint. */
function renderNextFrame(): void {
  frame ||= requestAnimationFrame(() => {
    frame = 0;
    flush();
  });
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
    transcript.offerFork(session.canFork);
    queue.render(session.queue);
    review.render(session.review, session.reviewNote);
    pinnedPlan.render(session.plan);
    pickers.render(session);
    composer.setCommands(session.commands);
    attachments.render(session.attachments, session.attachmentNotice);
    composer.setAttachments(session.attachments);
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  // acpHost.focusPrompt: the host focused the view; the prompt box takes the keyboard.
  if (FocusPromptSchema.safeParse(event.data).success) return ui.prompt.focus();
  const parsed = HostToViewSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('ACP Host: ignored an invalid message from the host', parsed.error.issues[0]);
    return;
  }
  const message = parsed.data;
  mirror.apply(message);
  // At once, not in the next frame: the host sends one post at a time (see ViewFeed), so there
  // is no burst to coalesce, and the text is in the DOM up to a frame sooner. The answer lets
  // the host send what changed meanwhile (even if rendering failed: the next post may mend it).
  try {
    flush();
  } finally {
    if ('seq' in message && message.seq !== undefined) post({ type: 'rendered', seq: message.seq });
  }
});

// The keybindings that act in the panel (Escape stops, Ctrl+L opens a session) hold while it has the keyboard.
window.addEventListener('focus', () => post({ type: 'panelFocus', focused: true }));
window.addEventListener('blur', () => post({ type: 'panelFocus', focused: false }));

post({ type: 'ready' });
