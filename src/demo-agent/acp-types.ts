// The slice of ACP v1 (schema/v1/schema.json) that the demo agent reads or sends. Written by hand
// because the agent ships with node builtins only; names follow the schema's $defs.

export type SessionId = string;
export type StopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';

export interface ClientCapabilities {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean } | null;
  terminal?: boolean | null;
  /** `configOptions.boolean` present and not null: the client can show boolean config options. */
  session?: { configOptions?: { boolean?: object | null } | null } | null;
}

export interface Implementation {
  name: string;
  title?: string | null;
  version: string;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string; uri?: string | null }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string | null; mimeType?: string | null }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null } };

export type ToolKind =
  | 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export type ToolCallContent =
  | { type: 'content'; content: ContentBlock }
  | { type: 'diff'; path: string; oldText?: string | null; newText: string };

export interface ToolCallLocation {
  path: string;
  line?: number | null;
}

/** $ToolCallUpdate: only toolCallId is required; `content`/`locations` replace the stored arrays. */
export interface ToolCallUpdate {
  toolCallId: string;
  title?: string;
  kind?: ToolKind;
  status?: ToolCallStatus;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
}

/** $ToolCall: the first announcement of a call; title is required here. */
export interface ToolCall extends ToolCallUpdate {
  title: string;
}

export interface PlanEntry {
  content: string;
  priority: 'high' | 'medium' | 'low';
  status: 'pending' | 'in_progress' | 'completed';
}

export interface AvailableCommand {
  name: string;
  description: string;
  input?: { hint: string } | null;
}

export interface SessionMode {
  id: string;
  name: string;
  description?: string | null;
}

export interface SessionConfigSelectOption {
  value: string;
  name: string;
  description?: string | null;
}

export interface SessionConfigSelectGroup {
  group: string;
  name: string;
  options: SessionConfigSelectOption[];
}

interface SessionConfigOptionBase {
  id: string;
  name: string;
  description?: string | null;
  /** 'mode' | 'model' | 'model_config' | 'thought_level' | any other string (UX only). */
  category?: string | null;
}

/** $SessionConfigOption, discriminated by `type`. Options are either all flat or all grouped. */
export type SessionConfigOption =
  | (SessionConfigOptionBase & {
      type: 'select';
      currentValue: string;
      options: SessionConfigSelectOption[] | SessionConfigSelectGroup[];
    })
  | (SessionConfigOptionBase & { type: 'boolean'; currentValue: boolean });

export interface Cost {
  amount: number;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
}

export type SessionUpdate =
  | { sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk'; content: ContentBlock }
  | ({ sessionUpdate: 'tool_call' } & ToolCall)
  | ({ sessionUpdate: 'tool_call_update' } & ToolCallUpdate)
  | { sessionUpdate: 'plan'; entries: PlanEntry[] }
  | { sessionUpdate: 'available_commands_update'; availableCommands: AvailableCommand[] }
  | { sessionUpdate: 'current_mode_update'; currentModeId: string }
  | { sessionUpdate: 'config_option_update'; configOptions: SessionConfigOption[] }
  | { sessionUpdate: 'session_info_update'; title?: string | null; updatedAt?: string | null }
  | { sessionUpdate: 'usage_update'; used: number; size: number; cost?: Cost | null };

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

export interface RequestPermissionResponse {
  outcome: { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string };
}

export interface ReadTextFileResponse {
  content: string;
}
