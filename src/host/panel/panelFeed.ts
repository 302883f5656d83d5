import vscode = require('vscode');
import type { AgentSession } from '../../session/agentSession';
import type { SessionTabs } from '../../session/sessionTabs';
import type { StatusView } from '../../webview-protocol/messages';
import type { FeedSource } from '../../view/viewFeed';
import { statusView } from '../../view/projection';
import type { AttentionWatcher } from './attention';

/**
 * A session as the panel sees it: its status carries the agents to pick from and the open
 * sessions (host knowledge, not the session's), and changes with either.
 */
export function panelFeed(controller: AgentSession, agents: string[], tabs: SessionTabs, attention: AttentionWatcher): FeedSource {
  const key = tabs.all.find((t) => t.controller === controller)?.key;
  const status = (): StatusView => statusView(controller.currentStatus, { agents, sessions: attention.sessions(), sessionKey: key });
  return {
    transcript: controller.transcript,
    session: controller.session,
    get currentStatus() {
      return status();
    },
    onStatus: (listener) =>
      vscode.Disposable.from(tabs.onChange(() => listener(status())), controller.onStatus(() => listener(status())), attention.onDidChange(() => listener(status()))),
  };
}
