import { HostToViewSchema } from './protocol';
import type { EntryView, HostToView, StatusView, ViewToHost } from './protocol';
import { renderEntry, statusText } from './render';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi(); // may be called once per load
const post = (message: ViewToHost) => vscode.postMessage(message);

const app = document.getElementById('app')!;
app.innerHTML = `
  <header class="bar">
    <span id="status" role="status"></span>
    <button id="start" type="button">Start agent</button>
    <button id="restart" type="button">Restart</button>
  </header>
  <pre id="detail" hidden></pre>
  <main id="transcript" aria-live="polite"></main>
  <footer class="composer">
    <textarea id="prompt" rows="3" placeholder="Ask the agent (Enter sends, Shift+Enter for a new line)" aria-label="Prompt"></textarea>
    <div class="actions">
      <button id="send" type="button">Send</button>
      <button id="stop" type="button" hidden>Stop</button>
    </div>
  </footer>`;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const transcript = $('transcript');
const promptBox = $<HTMLTextAreaElement>('prompt');

function applyStatus(status: StatusView): void {
  $('status').textContent = statusText(status);
  app.dataset.phase = status.phase;
  $('start').hidden = status.phase !== 'idle';
  $('restart').hidden = status.phase !== 'crashed' && status.phase !== 'ready';
  $('stop').hidden = status.phase !== 'prompting';
  $('send').hidden = status.phase === 'prompting';
  $('detail').hidden = !status.detail;
  $('detail').textContent = status.detail ?? '';
}

function applyEntry(index: number, entry: EntryView): void {
  const el = renderEntry(entry, index);
  const existing = transcript.children[index];
  if (existing) existing.replaceWith(el);
  else transcript.append(el);
  el.scrollIntoView({ block: 'end' });
}

function apply(message: HostToView): void {
  switch (message.type) {
    case 'snapshot':
      transcript.replaceChildren(...message.entries.map(renderEntry));
      applyStatus(message.status);
      break;
    case 'entry':
      applyEntry(message.index, message.entry);
      break;
    case 'status':
      applyStatus(message.status);
      break;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostToViewSchema.safeParse(event.data);
  if (parsed.success) apply(parsed.data);
  else console.warn('ACP Host: ignored an invalid message from the host', parsed.error.issues[0]);
});

function send(): void {
  const text = promptBox.value.trim();
  if (!text) return;
  post({ type: 'prompt', text });
  promptBox.value = '';
}

promptBox.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
$('send').addEventListener('click', send);
$('stop').addEventListener('click', () => post({ type: 'cancel' }));
$('start').addEventListener('click', () => post({ type: 'start' }));
$('restart').addEventListener('click', () => post({ type: 'restart' }));
transcript.addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-option-id]');
  if (button?.dataset.toolCallId && button.dataset.optionId) {
    post({ type: 'permission', toolCallId: button.dataset.toolCallId, optionId: button.dataset.optionId });
  }
});

post({ type: 'ready' });
