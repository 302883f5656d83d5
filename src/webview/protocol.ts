// The webview's only window on our code: the shared host↔view protocol.
export { HostToViewSchema } from '../webview-protocol/messages';
export type { HostToView, StatusView, ViewToHost } from '../webview-protocol/messages';
export type { EntryView, StopReasonView, ToolEntryView } from '../webview-protocol/entries';
