import type { Entry, SessionSnapshot, SessionStatus } from '../session/model';
import type { MarkedTab } from '../session/attention';
import type { EntryView } from '../webview-protocol/entries';
import type { StatusView } from '../webview-protocol/messages';
import type { SessionView } from '../webview-protocol/session';

// The session model as the panel sees it: the one place where the model's types meet the view
// model the panel validates. Entries and the session snapshot are plain data of the same shape
// today, so they pass as they are (the compiler checks here that they still fit: a model field
// the panel must not see would be dropped here); the status gets what only the host knows.

export function entryView(entry: Entry): EntryView {
  return entry;
}

export function entriesView(entries: readonly Entry[]): EntryView[] {
  return entries.map(entryView);
}

export function sessionView(snapshot: SessionSnapshot): SessionView {
  return snapshot;
}

/** What the host adds to a session's status: the agents to pick from and the open sessions, each with its mark. */
export interface PanelContext {
  agents: string[];
  sessions: MarkedTab[];
  sessionKey: string | undefined;
}

export function statusView(status: SessionStatus, panel: PanelContext): StatusView {
  return { ...status, agents: panel.agents, sessions: panel.sessions, sessionKey: panel.sessionKey };
}
