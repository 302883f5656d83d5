import type { SessionUpdate, StopReason, ToolCall, ToolCallContent, ToolCallUpdate } from '../protocol';
import type { EntryView, PermissionOptionView, ToolContentView, ToolEntryView } from '../webview-protocol/entries';
import { contentText } from './contentText';

/**
 * The transcript of one session, folded from `session/update`s (Zed's acp_thread is the model):
 * append to the last entry when the kind matches, upsert tool calls by id, merge only the fields
 * present, replace plans wholesale. Its entries are the panel's view model already (pure data,
 * no ACP types), so the host posts them as they are.
 */
export type TranscriptEvent = { type: 'added' | 'updated'; index: number };

export class Transcript {
  private readonly list: EntryView[] = [];
  private readonly toolIndex = new Map<string, number>();
  private readonly listeners = new Set<(event: TranscriptEvent) => void>();

  get entries(): readonly EntryView[] {
    return this.list;
  }

  onChange(listener: (event: TranscriptEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Returns false for updates the transcript does not show (the caller logs unknown kinds). */
  apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        this.appendText('user', contentText(update.content));
        return true;
      case 'agent_message_chunk':
        this.appendText('agent', contentText(update.content));
        return true;
      case 'agent_thought_chunk':
        this.appendText('thought', contentText(update.content));
        return true;
      case 'tool_call':
        this.upsertTool(update);
        return true;
      case 'tool_call_update':
        this.upsertTool(update);
        return true;
      case 'plan':
        this.setPlan(update.entries);
        return true;
      default:
        // Commands, modes, config options, session info and usage are session state, not entries.
        return false;
    }
  }

  addUserPrompt(text: string): void {
    this.push({ kind: 'user', text });
  }

  addError(message: string): void {
    this.push({ kind: 'error', message });
  }

  /** Ends a turn: tool calls still running are marked unfinished (the agent may never say). */
  endTurn(stopReason: StopReason): void {
    this.list.forEach((entry, index) => {
      if (entry.kind === 'tool' && (entry.status === 'pending' || entry.status === 'in_progress')) {
        this.list[index] = { ...entry, status: 'unfinished', permission: undefined };
        this.emit({ type: 'updated', index });
      }
    });
    this.push({ kind: 'turnEnd', stopReason });
  }

  /** A permission request is state of its tool call (which it creates if never announced). */
  askPermission(toolCall: ToolCallUpdate, options: PermissionOptionView[]): void {
    this.upsertTool(toolCall);
    this.patchTool(toolCall.toolCallId, { permission: options });
  }

  clearPermission(toolCallId: string): void {
    this.patchTool(toolCallId, { permission: undefined });
  }

  private appendText(kind: 'user' | 'agent' | 'thought', text: string): void {
    const index = this.list.length - 1;
    const last = this.list[index];
    if (last && last.kind === kind) {
      this.list[index] = { kind, text: last.text + text };
      this.emit({ type: 'updated', index });
    } else {
      this.push({ kind, text });
    }
  }

  private upsertTool(update: ToolCall | ToolCallUpdate): void {
    const index = this.toolIndex.get(update.toolCallId);
    const patch: Partial<ToolEntryView> = {};
    if (update.title != null) patch.title = update.title;
    if (update.kind != null) patch.toolKind = update.kind;
    if (update.status != null) patch.status = update.status;
    // A new content or locations array replaces the old one (ACP §8).
    if (update.content != null) patch.content = update.content.map(toolContentView);
    if (update.locations != null) patch.locations = update.locations.map((l) => ({ path: l.path, line: l.line ?? null }));
    if (index === undefined) {
      this.toolIndex.set(update.toolCallId, this.list.length);
      // An update for a call never announced still shows: protocol drift stays visible.
      this.push({ kind: 'tool', toolCallId: update.toolCallId, title: 'Tool call', toolKind: 'other', status: 'pending', content: [], locations: [], ...patch });
    } else {
      this.patchTool(update.toolCallId, patch);
    }
  }

  private patchTool(toolCallId: string, patch: Partial<ToolEntryView>): void {
    const index = this.toolIndex.get(toolCallId);
    const entry = index === undefined ? undefined : this.list[index];
    if (index === undefined || entry?.kind !== 'tool') return;
    this.list[index] = { ...entry, ...patch };
    this.emit({ type: 'updated', index });
  }

  private setPlan(entries: Extract<EntryView, { kind: 'plan' }>['entries']): void {
    const index = this.list.findLastIndex((e) => e.kind === 'plan');
    const plan: EntryView = { kind: 'plan', entries: entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) };
    if (index === -1) {
      this.push(plan);
    } else {
      this.list[index] = plan;
      this.emit({ type: 'updated', index });
    }
  }

  private push(entry: EntryView): void {
    this.list.push(entry);
    this.emit({ type: 'added', index: this.list.length - 1 });
  }

  private emit(event: TranscriptEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function toolContentView(content: ToolCallContent): ToolContentView {
  switch (content.type) {
    case 'content':
      return { type: 'text', text: contentText(content.content) };
    case 'diff':
      return { type: 'diff', path: content.path, oldText: content.oldText ?? null, newText: content.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: content.terminalId };
  }
}
