// What a prompt turn may do to the outside world, with cancellation built in: once the client
// sends session/cancel, every call here throws TurnCancelled, so the scripted turn stops at its
// next step and nothing more is streamed after the cancelled response.

import type { ClientCapabilities, ContentBlock, SessionId, SessionUpdate } from './acp-types';
import type { DemoSession } from './session';
import type { Wire } from './wire';

export class TurnCancelled extends Error {
  constructor() {
    super('turn cancelled');
  }
}

/** Everything a step of the turn needs. */
export interface TurnEnv {
  io: TurnIO;
  session: DemoSession;
  /** What the client advertised in initialize. */
  caps: ClientCapabilities;
}

export class TurnIO {
  private readonly abort = new AbortController();
  private streamed = 0;
  /** Resolves when the turn is cancelled (never rejects). */
  readonly cancelled: Promise<void>;

  constructor(
    private readonly wire: Wire,
    readonly sessionId: SessionId,
    /** Base pause between streamed steps, so that streaming is visible in the UI. */
    private readonly delayMs: number,
    /** Sees every update sent, so the session's history can keep the conversation. */
    private readonly onUpdate: (update: SessionUpdate) => void,
  ) {
    this.cancelled = new Promise((resolve) => this.abort.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  cancel(): void {
    this.abort.abort();
  }

  /** Characters of message and thought text streamed so far (for the usage estimate). */
  get streamedChars(): number {
    return this.streamed;
  }

  get isCancelled(): boolean {
    return this.abort.signal.aborted;
  }

  /** Throws if the turn was cancelled; call it between steps. */
  checkpoint(): void {
    if (this.isCancelled) throw new TurnCancelled();
  }

  update(update: SessionUpdate): void {
    this.checkpoint();
    this.wire.notify('session/update', { sessionId: this.sessionId, update });
    this.onUpdate(update);
  }

  /** Waits `factor` × the base delay; cut short (with TurnCancelled) by a cancel. */
  pause(factor = 1): Promise<void> {
    this.checkpoint();
    const ms = Math.round(this.delayMs * factor);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new TurnCancelled());
      };
      const timer = setTimeout(() => {
        this.abort.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Sends a request to the client. A cancel rejects at once with TurnCancelled; the client's
   * late answer is then dropped (a permission request gets answered `cancelled` by the client).
   */
  request<T>(method: string, params: Record<string, unknown>): Promise<T> {
    this.checkpoint();
    const answer = this.wire.request<T>(method, { sessionId: this.sessionId, ...params });
    const cancelled = this.cancelled.then((): never => {
      throw new TurnCancelled();
    });
    return Promise.race([answer, cancelled]);
  }

  /** Streams markdown as agent_message_chunks, a few words at a time. */
  say(markdown: string): Promise<void> {
    return this.stream('agent_message_chunk', markdown);
  }

  /** Streams reasoning as agent_thought_chunks. */
  think(text: string): Promise<void> {
    return this.stream('agent_thought_chunk', text);
  }

  private async stream(kind: 'agent_message_chunk' | 'agent_thought_chunk', text: string): Promise<void> {
    for (const piece of splitForStreaming(text)) {
      const content: ContentBlock = { type: 'text', text: piece };
      this.update({ sessionUpdate: kind, content });
      this.streamed += piece.length;
      await this.pause();
    }
  }
}

/** Splits text into pieces of a few words; the pieces concatenate back to exactly `text`. */
export function splitForStreaming(text: string, wordsPerPiece = 3): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerPiece) pieces.push(words.slice(i, i + wordsPerPiece).join(''));
  const tail = text.slice(pieces.join('').length); // trailing whitespace (e.g. the final "\n\n")
  if (tail !== '') {
    if (pieces.length === 0) pieces.push(tail);
    else pieces[pieces.length - 1] += tail;
  }
  return pieces;
}
