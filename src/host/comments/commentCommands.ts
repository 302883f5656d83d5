/**
 * The commands of review comments, run from VS Code's comment widgets (package.json's
 * `comments/*` menus) with the thread as argument, so they are not palette commands (the action
 * table's take none). Kept free of `vscode` so the manifest test can hold package.json to them.
 */
export const COMMENT_COMMANDS = {
  /** The reply box's button: a `CommentReply` becomes the comment and a chip of the shown session. */
  add: 'acpHost.addReviewComment',
  /** The thread's title button: its chip goes (or a sent thread is dismissed). */
  remove: 'acpHost.removeReviewComment',
} as const;

/** The comment controller's id, which package.json's `when` clauses name (`commentController == acpHost.review`). */
export const COMMENT_CONTROLLER_ID = 'acpHost.review';
