import vscode = require('vscode');
import type { AgentRuntime } from '../../runtime/agentRuntime';
import type { SessionRef } from '../../session/sessionTabs';
import type { SessionRecord, SessionStore } from './sessionStore';

/** A past session offered by the history: from the agent's session/list, or from our store. */
export interface HistoryEntry extends SessionRef {
  title: string;
  updatedAt?: string;
}

/** Where the history comes from: the agent's own list when it offers one, else what this extension opened. */
export interface HistorySource {
  /** The agent whose sessions are listed by the agent itself (`session/list`), if it offers it. */
  runtime?: AgentRuntime;
  store: SessionStore;
  /** Deletes a session: session/delete when offered, and it is forgotten here. */
  remove(entry: HistoryEntry): Promise<void>;
}

interface Item extends vscode.QuickPickItem {
  entry?: HistoryEntry;
  more?: true;
}

const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this session' };

function item(entry: HistoryEntry, canDelete: boolean): Item {
  const when = entry.updatedAt ? new Date(entry.updatedAt) : undefined;
  return {
    label: entry.title || 'Untitled session',
    description: [entry.agentName, when && !Number.isNaN(when.getTime()) ? when.toLocaleString() : undefined].filter(Boolean).join(' · '),
    entry,
    buttons: canDelete ? [DELETE] : [],
  };
}

/**
 * ACP: Session History…: the shown agent's `session/list` (for this workspace, a page at a
 * time, "Load more…" while there is a next cursor) when it offers it, else the sessions this
 * extension opened here (every agent's). Resolves with the one picked.
 */
export function pickFromHistory(source: HistorySource): Promise<HistoryEntry | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Session History';
  pick.placeholder = 'Open a past session';
  pick.matchOnDescription = true;
  const fromAgent = source.runtime;
  const canDelete = fromAgent ? fromAgent.features.has('delete') : true;
  let cursor: string | undefined;
  let items: Item[] = [];
  // Closing the picker abandons a page still loading: `session/list` is cancelled ($/cancel_request).
  const closed = new AbortController();
  const showItems = () => {
    pick.items = items;
    if (items.length === 0) pick.placeholder = 'No past sessions in this workspace yet';
  };

  const loadPage = async () => {
    pick.busy = true;
    try {
      const page = await fromAgent!.list(cursor, closed.signal);
      const agentName = fromAgent!.agent.name;
      cursor = page.nextCursor ?? undefined;
      items = [...items.filter((i) => !i.more), ...page.sessions.map((s) => item({ agentName, sessionId: s.sessionId, title: s.title ?? '', updatedAt: s.updatedAt ?? undefined }, canDelete))];
      if (cursor) items.push({ label: '$(ellipsis) Load more…', more: true, alwaysShow: true });
    } catch (error) {
      if (closed.signal.aborted) return; // nobody is looking any more
      items = [{ label: `$(error) ${fromAgent!.agent.name} could not list its sessions`, detail: (error as Error).message }];
    }
    pick.busy = false;
    showItems();
  };

  return new Promise<HistoryEntry | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const [chosen] = pick.selectedItems;
      if (chosen?.more) return void loadPage();
      if (!chosen?.entry) return;
      resolve(chosen.entry);
      pick.hide();
    });
    pick.onDidTriggerItemButton(async ({ item: target }) => {
      if (!target.entry) return;
      try {
        await source.remove(target.entry);
        items = items.filter((i) => i !== target);
        pick.items = items;
      } catch (error) {
        void vscode.window.showWarningMessage(`Could not delete the session: ${(error as Error).message}`);
      }
    });
    // Listened to before the first page loads: the user may close the picker while it does.
    pick.onDidHide(() => {
      closed.abort();
      resolve(undefined);
      pick.dispose();
    });
    if (fromAgent) {
      pick.show();
      void loadPage();
    } else {
      items = source.store.records().map((r: SessionRecord) => item(r, canDelete));
      showItems();
      pick.show();
    }
  });
}
