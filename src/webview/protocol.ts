// The webview's only window on our code: the shared host↔view protocol (a unit test checks that
// nothing else of ours is imported from here).
export { HostToViewSchema } from '../webview-protocol/messages';
export type { HostToView, StatusView, ViewToHost } from '../webview-protocol/messages';
export type {
  DiffView,
  EntryView,
  PermissionOptionView,
  PlanEntryView,
  StopReasonView,
  ToolContentView,
  ToolEntryView,
} from '../webview-protocol/entries';
export { EMPTY_SESSION } from '../webview-protocol/session';
export type { CommandView, ConfigOptionView, ModesView, QueuedPromptView, ReviewFileView, SessionView, UsageView } from '../webview-protocol/session';
