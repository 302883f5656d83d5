import { Emitter } from 'vscode-jsonrpc';
import { attachmentLabel, attachmentView, refusal, sameTarget } from './attachments';
import type { Attachment, NewAttachment, PromptCaps } from './attachments';
import type { AttachmentChip } from './model';

/** Attachments that left the composer: sent with a prompt, or removed by the user. */
export interface Released {
  attachments: readonly Attachment[];
  sent: boolean;
}

/**
 * The context attached to the prompt being composed (no `vscode` here). A kind the agent cannot
 * take (an image without promptCapabilities.image) is refused when it is added, and one added
 * before the agent answered initialize is flagged once its capabilities are known: the panel
 * says so before sending, nothing is dropped silently.
 */
export class PromptAttachments {
  private list: Attachment[] = [];
  private nextId = 1;
  private notice: string | null = null;
  private shownProblems = '[]';
  private readonly released = new Emitter<Released>();
  /** What left the composer, and how (the host marks a review comment's thread sent, or deletes it). Moving to another session is not leaving. */
  readonly onDidRelease = this.released.event;

  constructor(
    private readonly agentName: string,
    /** What the agent takes in prompts; undefined before it has answered initialize. */
    private readonly caps: () => PromptCaps | undefined,
    private readonly publish: (views: AttachmentChip[], notice: string | null) => void,
  ) {}

  get pending(): readonly Attachment[] {
    return this.list;
  }

  /** Adds one (the same target twice is added once). Returns the refusal, if any. */
  add(attachment: NewAttachment): string | undefined {
    const caps = this.caps();
    const refused = caps && refusal(attachment.kind, caps, this.agentName);
    if (refused) {
      this.show(`${attachmentLabel({ ...attachment, id: '' } as Attachment).label} was not attached: ${refused}`);
      return refused;
    }
    if (!this.list.some((a) => sameTarget(a, attachment))) this.list.push({ ...attachment, id: `a${this.nextId++}` } as Attachment);
    this.show();
    return undefined;
  }

  remove(id: string): void {
    const removed = this.list.filter((a) => a.id === id);
    this.list = this.list.filter((a) => a.id !== id);
    this.show();
    if (removed.length > 0) this.released.fire({ attachments: removed, sent: false });
  }

  /** Shows why something the user pasted or dropped was not attached. */
  note(notice: string): void {
    this.show(notice);
  }

  /**
   * Everything attached, for the prompt being sent (and the composer starts empty again); or
   * undefined, with the reason shown, when the agent cannot take one of them.
   */
  take(): Attachment[] | undefined {
    const blocked = this.list.filter((a) => this.problem(a) !== null);
    if (blocked.length > 0) {
      this.show(`Not sent: remove ${blocked.map((a) => attachmentLabel(a).label).join(', ')} first. ${this.problem(blocked[0])}`);
      return undefined;
    }
    const taken = this.list.splice(0);
    if (taken.length > 0 || this.notice !== null) this.show();
    if (taken.length > 0) this.released.fire({ attachments: taken, sent: true });
    return taken;
  }

  /** The composer's attachments follow the user to another agent (and are checked against it). */
  adopt(from: PromptAttachments): void {
    if (from === this || from.list.length === 0) return;
    for (const a of from.list.splice(0)) this.list.push({ ...a, id: `a${this.nextId++}` });
    from.show();
    this.show();
  }

  /** The agent's capabilities may have become known: flag what it cannot take. */
  recheck(): void {
    const problems = JSON.stringify(this.list.map((a) => this.problem(a)));
    if (problems !== this.shownProblems) this.show(this.notice);
  }

  private problem(attachment: Attachment): string | null {
    const caps = this.caps();
    return (caps && refusal(attachment.kind, caps, this.agentName)) ?? null;
  }

  private show(notice: string | null = null): void {
    const views = this.list.map((a) => attachmentView(a, this.problem(a)));
    this.notice = notice;
    this.shownProblems = JSON.stringify(views.map((v) => v.problem));
    this.publish(views, notice);
  }
}
