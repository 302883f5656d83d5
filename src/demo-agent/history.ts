// A session's conversation as it is kept on disk and replayed by session/load: the user's
// prompts as text, the agent's reply text, and every tool call in its final state. Thoughts,
// plans and usage are feedback on a running turn rather than what was said, so they are not
// kept. Texts and the number of entries are capped so that the state file stays small.

import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind, SessionUpdate } from './acp-types';

export type HistoryEntry =
  | { role: 'user' | 'agent'; text: string }
  | { role: 'tool'; call: ToolCall };

const MAX_TEXT = 4_000;
const MAX_ENTRIES = 200;
const CUT = '\n\n… (cut short when the session was saved)';
const KINDS: readonly ToolKind[] = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];
const STATUSES: readonly ToolCallStatus[] = ['pending', 'in_progress', 'completed', 'failed'];

export class History {
  private constructor(private readonly entries: HistoryEntry[]) {}

  static empty(): History {
    return new History([]);
  }

  /** From the state file; entries of the wrong shape are dropped, so a replay is always valid. */
  static fromJSON(value: unknown): History {
    const entries: HistoryEntry[] = [];
    for (const raw of Array.isArray(value) ? (value as unknown[]) : []) {
      const e = raw as Partial<Record<string, unknown>> | null;
      if ((e?.role === 'user' || e?.role === 'agent') && typeof e.text === 'string') entries.push({ role: e.role, text: capped(e.text) });
      else if (e?.role === 'tool') {
        const call = toolCall(e.call);
        if (call) entries.push({ role: 'tool', call });
      }
    }
    return new History(entries.slice(-MAX_ENTRIES));
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  addUser(text: string): void {
    this.push({ role: 'user', text: capped(text) });
  }

  /** Keeps what a turn streams that belongs to the conversation; the rest is ignored. */
  record(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        if (update.content.type !== 'text') return;
        const last = this.entries.at(-1);
        // Consecutive chunks make one message, as a client shows them.
        if (last?.role === 'agent') last.text = capped(last.text + update.content.text);
        else this.push({ role: 'agent', text: capped(update.content.text) });
        return;
      }
      case 'tool_call': {
        const call = toolCall(update);
        if (call) this.push({ role: 'tool', call });
        return;
      }
      case 'tool_call_update': {
        const entry = this.entries.findLast((e) => e.role === 'tool' && e.call.toolCallId === update.toolCallId);
        if (entry?.role !== 'tool') return;
        // A patch: only the fields it carries change (content and locations are replaced whole).
        entry.call = toolCall({ ...entry.call, ...definedFields(update) }) ?? entry.call;
        return;
      }
      default:
    }
  }

  /**
   * At the end of a turn, a call still pending or running was cut off by a cancel or an error.
   * ACP has no "cancelled" status, and a replay must not show it running forever: it failed.
   */
  endTurn(): void {
    for (const e of this.entries) {
      if (e.role === 'tool' && e.call.status !== 'completed' && e.call.status !== 'failed') e.call.status = 'failed';
    }
  }

  /** The conversation as the session/update payloads of session/load, oldest first. */
  replay(): SessionUpdate[] {
    return this.entries.map((e): SessionUpdate => {
      if (e.role === 'tool') return { sessionUpdate: 'tool_call', ...e.call };
      const sessionUpdate = e.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk';
      return { sessionUpdate, content: { type: 'text', text: e.text } };
    });
  }

  toJSON(): HistoryEntry[] {
    return this.entries;
  }

  private push(entry: HistoryEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }
}

/** The fields of a tool call worth keeping (raw input and output are not), checked and capped. */
function toolCall(value: unknown): ToolCall | undefined {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v?.toolCallId !== 'string' || typeof v.title !== 'string') return undefined;
  const call: ToolCall = { toolCallId: v.toolCallId, title: capped(v.title) };
  if (KINDS.includes(v.kind as ToolKind)) call.kind = v.kind as ToolKind;
  if (STATUSES.includes(v.status as ToolCallStatus)) call.status = v.status as ToolCallStatus;
  if (Array.isArray(v.content)) call.content = v.content.flatMap(toolContent);
  if (Array.isArray(v.locations)) call.locations = v.locations.flatMap(location);
  return call;
}

/** Text content and small diffs are kept; a big diff becomes a line saying what it edited. */
function toolContent(value: unknown): ToolCallContent[] {
  const v = value as Partial<Record<string, unknown>> | null;
  if (v?.type === 'content') {
    const block = v.content as { type?: unknown; text?: unknown } | null;
    return block?.type === 'text' && typeof block.text === 'string' ? [{ type: 'content', content: { type: 'text', text: capped(block.text) } }] : [];
  }
  if (v?.type === 'diff' && typeof v.path === 'string' && typeof v.newText === 'string') {
    const oldText = typeof v.oldText === 'string' ? v.oldText : null;
    if ((oldText?.length ?? 0) + v.newText.length <= MAX_TEXT) return [{ type: 'diff', path: v.path, oldText, newText: v.newText }];
    return [{ type: 'content', content: { type: 'text', text: `Edited ${v.path} (the diff was too long to keep).` } }];
  }
  return [];
}

function location(value: unknown): ToolCallLocation[] {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v?.path !== 'string') return [];
  return [Number.isInteger(v.line) && (v.line as number) >= 0 ? { path: v.path, line: v.line as number } : { path: v.path }];
}

function definedFields(update: object): object {
  return Object.fromEntries(Object.entries(update).filter(([key, value]) => value !== undefined && key !== 'sessionUpdate'));
}

/** Cut at MAX_TEXT (never inside a surrogate pair), with a note saying so. Idempotent. */
function capped(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT - 1]) ? MAX_TEXT - 1 : MAX_TEXT;
  return text.slice(0, end) + CUT;
}
