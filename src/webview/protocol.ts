// The webview's only window on our code: the shared host↔view protocol (a unit test checks that
// nothing else of ours is imported from here).
export { COPY_TEXT_MAX, FocusPromptSchema, HostToViewSchema, IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '../webview-protocol/messages';
export type { HostToView, SessionTabView, StatusView, ViewToHost } from '../webview-protocol/messages';
export type {
  CompactionEntryView,
  DiffView,
  ElicitationEntryView,
  EntryView,
  PermissionAnswerView,
  NoticeEntryView,
  PermissionOptionView,
  PlanContentView,
  PlanEntryView,
  ToolContentView,
  ToolEntryView,
  UrlElicitationEntryView,
  TurnUsageView,
} from '../webview-protocol/entries';
export { EMPTY_SESSION } from '../webview-protocol/session';
export { fieldProblem, uncheckablePattern } from '../webview-protocol/elicitation';
export type { ElicitationFieldView, ElicitationValue } from '../webview-protocol/elicitation';
export type { AttachmentLabel, AttachmentView } from '../webview-protocol/session';
export type { CommandView, ConfigOptionView, ModesView, QueuedPromptView, ReviewFileView, SessionView, UsageView } from '../webview-protocol/session';
