import vscode = require('vscode');
import type { Attachment, NewAttachment } from '../../session/attachments';
import type { ReviewComment } from '../../session/commentAttachment';
import type { Released } from '../../session/promptAttachments';
import type { ReviewFileView } from '../../webview-protocol/session';
import { DIFF_SCHEME } from '../editor/diffDocuments';
import { REVIEW_SCHEME } from '../editor/review/editReviewer';
import { COMMENT_COMMANDS, COMMENT_CONTROLLER_ID } from './commentCommands';
import { commentAttachment, commentTarget } from './commentTargets';

/** Sent threads stay in sight (collapsed, resolved) until dismissed; past this many the oldest go. */
const MAX_SENT = 100;

/** A session as the comments use it: where a chip goes, and where it is found again. */
export interface CommentSession {
  attach(attachment: NewAttachment): string | undefined;
  detach(id: string): void;
  readonly pendingAttachments: readonly Attachment[];
  readonly onAttachmentsReleased: (listener: (released: Released) => void) => { dispose(): void };
}

/** What the comments need of the host (AgentHost). */
export interface CommentHost {
  /** The shown session: a new comment goes with its next prompt. */
  readonly controller: CommentSession;
  readonly tabs: { readonly all: readonly { readonly controller: CommentSession }[] };
  /** The files the review lists now: their real file (a review diff's right side) can be commented. */
  readonly reviewer: { readonly files: readonly ReviewFileView[] };
}

/**
 * Review comments back to the agent, with VS Code's Comments API: on the right side of a review
 * diff (the workspace file) and on both sides of a tool call's diff, the user comments on lines;
 * each comment becomes a chip of the shown session's composer and goes with its next prompt
 * (session/commentAttachment.ts says as what). Removing the chip deletes the thread, and the
 * thread's remove button the chip; a sent thread is marked so and collapsed.
 *
 * The controller is made when the first diff of ours opens: nothing at activation but two
 * commands and a listener.
 */
export class ReviewComments implements vscode.Disposable {
  private made: vscode.CommentController | undefined;
  /** Threads by id, pending (their chip waits in a composer) and sent; a Map keeps the order to drop the oldest sent. */
  private readonly threads = new Map<string, { thread: vscode.CommentThread; sent: boolean }>();
  private readonly ids = new WeakMap<vscode.CommentThread, string>();
  private readonly watched = new Map<CommentSession, { dispose(): void }>();
  private readonly disposables: vscode.Disposable[] = [];
  private nextId = 1;

  constructor(private readonly host: CommentHost) {
    this.disposables.push(
      vscode.commands.registerCommand(COMMENT_COMMANDS.add, (reply: vscode.CommentReply) => this.add(reply)),
      vscode.commands.registerCommand(COMMENT_COMMANDS.remove, (thread: vscode.CommentThread) => this.remove(thread)),
      vscode.workspace.onDidOpenTextDocument((document) => {
        if (document.uri.scheme === DIFF_SCHEME || document.uri.scheme === REVIEW_SCHEME) this.ensureController();
      }),
    );
  }

  /** Follows a session's composer: a comment chip sent or removed there marks or deletes its thread. */
  watch(session: CommentSession): void {
    if (!this.watched.has(session)) this.watched.set(session, session.onAttachmentsReleased((released) => this.onReleased(released)));
  }

  unwatch(session: CommentSession): void {
    this.watched.get(session)?.dispose();
    this.watched.delete(session);
  }

  /**
   * The reply box's "Add Comment for the Agent": the thread's first comment becomes a chip of the
   * shown session. Returns the attachment made (the integration tests read it), or undefined
   * with the reason shown.
   */
  async add(reply: vscode.CommentReply): Promise<Omit<ReviewComment, 'id'> | undefined> {
    const { thread } = reply;
    const text = typeof reply.text === 'string' ? reply.text.trim() : '';
    if (text === '' || !thread?.range) return undefined;
    if (this.ids.has(thread)) return this.refuse('This thread already holds a comment for the agent: remove it to write another.');
    const target = await commentTarget(thread.uri);
    if (typeof target === 'string') return this.refuse(target);
    const threadId = `c${this.nextId++}`;
    const attachment = commentAttachment(await vscode.workspace.openTextDocument(thread.uri), thread.range, target, text, threadId);
    const refused = this.host.controller.attach(attachment);
    if (refused) return this.refuse(refused);
    this.ids.set(thread, threadId);
    this.threads.set(threadId, { thread, sent: false });
    thread.comments = [{ body: text, mode: vscode.CommentMode.Preview, author: { name: 'You' }, label: 'Goes with your next prompt' }];
    thread.canReply = false;
    thread.contextValue = 'pending';
    thread.label = 'Comment for the agent';
    thread.state = vscode.CommentThreadState.Unresolved;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    return attachment;
  }

  /** The thread's remove button: its chip goes, wherever the composer moved it (which deletes the thread); a sent or empty thread is just deleted. */
  remove(thread: vscode.CommentThread): void {
    const id = this.ids.get(thread);
    const holder = id === undefined ? undefined : this.host.tabs.all.map((t) => t.controller).find((s) => chipOf(s, id));
    if (holder && id !== undefined) holder.detach(chipOf(holder, id)!.id);
    else this.drop(thread);
  }

  /** Made when the first diff of ours opens (the integration tests make threads on it, as the gutter's + does). */
  get controller(): vscode.CommentController | undefined {
    return this.made;
  }

  /** How many threads are pending and sent (the integration tests check what a release did). */
  get counts(): { pending: number; sent: number } {
    const all = [...this.threads.values()];
    return { pending: all.filter((t) => !t.sent).length, sent: all.filter((t) => t.sent).length };
  }

  dispose(): void {
    for (const subscription of this.watched.values()) subscription.dispose();
    this.watched.clear();
    for (const d of this.disposables) d.dispose();
    this.threads.clear();
    this.made?.dispose();
  }

  private ensureController(): void {
    if (this.made) return;
    const controller = vscode.comments.createCommentController(COMMENT_CONTROLLER_ID, 'Comments for the agent');
    controller.options = { prompt: 'Comment for the agent…', placeHolder: 'What should the agent change here? It goes with your next prompt.' };
    controller.commentingRangeProvider = { provideCommentingRanges: (document) => this.ranges(document) };
    this.made = controller;
  }

  /** The whole document, when it is one of ours or a file the review lists, inside the workspace. */
  private async ranges(document: vscode.TextDocument): Promise<vscode.Range[]> {
    const { uri } = document;
    if (uri.scheme === 'file' && !this.host.reviewer.files.some((f) => f.path === uri.fsPath)) return [];
    if (typeof (await commentTarget(uri)) === 'string') return [];
    return [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)];
  }

  private onReleased({ attachments, sent }: Released): void {
    for (const attachment of attachments) {
      if (attachment.kind !== 'comment') continue;
      const entry = this.threads.get(attachment.threadId);
      if (!entry) continue;
      if (!sent) {
        this.drop(entry.thread);
        continue;
      }
      entry.sent = true;
      const { thread } = entry;
      thread.comments = thread.comments.map((c) => ({ ...c, label: 'Sent to the agent' }));
      thread.contextValue = 'sent';
      thread.label = 'Comment sent to the agent';
      thread.state = vscode.CommentThreadState.Resolved;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
      // Re-inserted last: the oldest sent threads are the first dropped.
      this.threads.delete(attachment.threadId);
      this.threads.set(attachment.threadId, entry);
    }
    const sentThreads = [...this.threads.values()].filter((t) => t.sent);
    for (const old of sentThreads.slice(0, Math.max(0, sentThreads.length - MAX_SENT))) this.drop(old.thread);
  }

  private drop(thread: vscode.CommentThread): void {
    const id = this.ids.get(thread);
    if (id !== undefined) this.threads.delete(id);
    this.ids.delete(thread);
    thread.dispose();
  }

  private refuse(reason: string): undefined {
    void vscode.window.showWarningMessage(reason);
    return undefined;
  }
}

function chipOf(session: CommentSession, threadId: string): Attachment | undefined {
  return session.pendingAttachments.find((a) => a.kind === 'comment' && a.threadId === threadId);
}
