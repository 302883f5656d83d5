import { h } from './dom';
import { PHASE_WORDS } from './header';
import type { SessionTabView, StatusView } from './protocol';
import { post } from './vscode';

/** The phases that call for the user even when their session is in the background. */
const NEEDS_ATTENTION = new Set<SessionTabView['phase']>(['prompting', 'auth', 'crashed']);

export interface SessionControls {
  /** select#session: the open sessions; choosing one posts switchSession. */
  session: HTMLSelectElement;
  newSession: HTMLButtonElement;
  closeSession: HTMLButtonElement;
  history: HTMLButtonElement;
}

/**
 * The session switcher in the header. As with the agent picker, options are rebuilt only when the
 * set of open sessions changes (a rebuild would close an open dropdown): a new label or phase is
 * patched into the existing option. The value is re-synced from every status, so a switch the
 * host did not make snaps back.
 *
 * With a single session the select stays visible: it names the session and keeps the header from
 * jumping when a second one opens. It and the close button are hidden when the host lists no
 * sessions (an older host, or none open): there is nothing to switch to or close.
 */
export class SessionSwitcher {
  private shape = '';
  private shownKey: string | undefined;

  constructor(private readonly ui: SessionControls) {
    ui.session.addEventListener('change', () => {
      if (ui.session.value) post({ type: 'switchSession', key: ui.session.value });
    });
    ui.newSession.addEventListener('click', () => post({ type: 'newSession' }));
    // The key the host says is shown, not the select's value: a switch may still be pending.
    ui.closeSession.addEventListener('click', () => post(this.shownKey === undefined ? { type: 'closeSession' } : { type: 'closeSession', key: this.shownKey }));
    ui.history.addEventListener('click', () => post({ type: 'sessionHistory' }));
  }

  render(status: StatusView): void {
    const sessions = status.sessions ?? [];
    this.shownKey = status.sessionKey;
    const { session: select } = this.ui;
    const shape = JSON.stringify(sessions.map((s) => s.key));
    if (shape !== this.shape) {
      this.shape = shape;
      select.replaceChildren(
        ...sessions.map((s) => {
          const option = h('option');
          option.value = s.key;
          return option;
        }),
      );
    }
    // The agent's name tells sessions apart only when more than one agent has some open.
    const severalAgents = new Set(sessions.map((s) => s.agentName)).size > 1;
    sessions.forEach((s, i) => {
      const text = optionText(s, severalAgents, s.key === status.sessionKey);
      const option = select.options[i];
      if (option.textContent !== text) option.textContent = text;
      setAttention(option, s.attention);
    });

    const hidden = sessions.length === 0;
    select.hidden = hidden;
    this.ui.closeSession.hidden = hidden;
    select.value = status.sessionKey ?? '';
    // The select ellipsizes in a narrow sidebar: the tooltip has the whole text.
    select.title = select.selectedOptions[0]?.textContent ?? '';
    // A closed select shows only the shown session: it carries the strongest mark of the others, in its border and its tooltip.
    const others = sessions.filter((s) => s.key !== status.sessionKey).map((s) => s.attention);
    const mark = others.includes('waiting') ? 'waiting' : others.includes('done') ? 'done' : null;
    setAttention(select, mark);
    if (mark) select.title += mark === 'waiting' ? ' · another session is waiting for you' : ' · another session ended its turn';
  }
}

/** What a session's mark says in its option (an option shows text only). */
const ATTENTION_WORDS: Record<NonNullable<SessionTabView['attention']>, string> = {
  waiting: '● waiting for you',
  done: '● turn ended',
};

function optionText(s: SessionTabView, severalAgents: boolean, shown: boolean): string {
  const label = s.label || 'Untitled session';
  const name = severalAgents ? `${label} — ${s.agentName}` : label;
  // Marked while the user looked elsewhere: that comes first, for the shown session too (the panel was hidden).
  if (s.attention) return `${name} (${ATTENTION_WORDS[s.attention]})`;
  // The shown session's phase is in the header's status already.
  return !shown && NEEDS_ATTENTION.has(s.phase) ? `${name} (${PHASE_WORDS[s.phase]})` : name;
}

function setAttention(el: HTMLElement, attention: SessionTabView['attention']): void {
  if (attention) el.dataset.attention = attention;
  else delete el.dataset.attention;
}
