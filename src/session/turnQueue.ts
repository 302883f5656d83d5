import type { Attachment } from './attachments';

/** A prompt waiting for its turn; `settle` resolves the caller's promise when it ran or was dropped. */
export interface QueuedPrompt {
  readonly id: number;
  readonly text: string;
  /** Its own context, taken from the composer when it was queued. */
  readonly attachments: Attachment[];
  /** Already in the transcript: it was sent once and put back to wait for a sign-in. */
  shown?: boolean;
  readonly settle: { resolve: () => void; reject: (error: unknown) => void };
}

/** What running one queued prompt came to: it ran (or failed), or it waits again at the head (a sign-in first). */
export type TurnOutcome = 'done' | 'requeue';

/**
 * Prompts typed while a turn runs wait here, visibly, and run one by one: an agent takes one turn
 * at a time (ACP §14.8). The queue knows nothing of agents: `run` runs a turn, `blocked` says the
 * session cannot run one now (crashed, waiting for a sign-in), and what waits is kept for later.
 */
export class TurnQueue {
  private readonly waiting: QueuedPrompt[] = [];
  private nextId = 1;
  private draining = false;

  constructor(
    private readonly run: (prompt: QueuedPrompt) => Promise<TurnOutcome>,
    private readonly blocked: () => boolean,
    private readonly publish: (waiting: readonly QueuedPrompt[]) => void,
  ) {}

  /** Queues a prompt and runs the queue; resolves when its turn has ended, or it was dropped. */
  push(text: string, attachments: Attachment[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, text, attachments, settle: { resolve, reject } });
      this.publish(this.waiting);
      void this.drain();
    });
  }

  /** Drops a prompt that has not been sent yet. */
  remove(id: number): void {
    const index = this.waiting.findIndex((q) => q.id === id);
    if (index === -1) return;
    const [dropped] = this.waiting.splice(index, 1);
    this.publish(this.waiting);
    dropped.settle.resolve();
  }

  /** Drops every prompt not sent yet (the session closes). */
  clear(): void {
    for (const dropped of this.waiting.splice(0)) dropped.settle.resolve();
    this.publish(this.waiting);
  }

  /** Runs queued prompts one by one until the queue is empty or the session is blocked. */
  async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waiting.length > 0 && !this.blocked()) {
        const next = this.waiting.shift()!;
        this.publish(this.waiting);
        const outcome = await this.run(next).catch((error: unknown) => (next.settle.reject(error), 'done' as const));
        if (outcome === 'requeue') {
          this.waiting.unshift(next);
          this.publish(this.waiting);
          break;
        }
        next.settle.resolve();
      }
    } finally {
      this.draining = false;
    }
  }
}
