import type { Transcript } from './transcript';
import type { TurnEnd } from './model';

/** How long a carried turn may go without an update (nothing of it running or asked) before it counts as over. */
export const CARRIED_TURN_QUIET_MS = 5000;

/** What a carried turn needs of its session. */
export interface CarriedTurnSession {
  readonly transcript: Transcript;
  /** The session shows a turn running (Stop; prompts queue), or no longer (what queued may go). */
  setRunning(running: boolean): void;
  /** It runs on, but no longer holds prompts (its work is done): what queued may go. */
  released(): void;
}

/**
 * A turn the agent carries on after session/load: agents replay the conversation, answer, and
 * then go on with a turn that was running when the client went away (its updates keep coming).
 * No session/prompt of ours is in flight, so no answer will end it. The rule:
 *  - it begins when session/load answers with a tool call of the replay still in progress, or
 *    when a transcript update (text, tool call, plan) comes after that answer and before a prompt
 *    of ours; from then on the session shows a turn running;
 *  - it ends when the agent went quiet: `quietMs` without an update while none of its tool calls
 *    is in progress and no question waits on the user (a running tool or an open question is
 *    the agent waiting, not done). Its marker says `quiet`: the agent gave no stop reason;
 *  - or on Stop (the caller sends session/cancel; marker `cancelled`), or with the process (no
 *    marker: the stop or the crash report says so), or when our next prompt goes out (no marker:
 *    the prompt shows it).
 * It holds the user's prompts only while the agent is visibly at work (`holding`): a message
 * the agent sends after the load does not keep the user waiting for the quiet period.
 * Updates are watched for from the load's answer until our next prompt goes out.
 */
export class CarriedTurn {
  private watching = false;
  /** The transcript's number of the turn carried on, while it runs. */
  private turn: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly s: CarriedTurnSession,
    private readonly quietMs = CARRIED_TURN_QUIET_MS,
  ) {}

  /** Whether the agent is carrying on with a turn now. */
  get active(): boolean {
    return this.turn !== undefined;
  }

  /**
   * Whether a prompt of the user's waits for it to end: a tool call of it is in progress, or a
   * question of it waits on the user (the agent is mid-turn). Text alone holds nothing.
   */
  get holding(): boolean {
    return this.active && this.busy();
  }

  /** session/load answered (its replay is in the transcript). */
  loaded(): void {
    this.watching = true;
    if (this.working(false)) this.begin();
  }

  /** A session/update was folded by `part`. */
  updated(part: 'transcript' | 'state' | 'ignored'): void {
    if (!this.watching || part !== 'transcript') return;
    if (!this.active) return this.begin();
    this.waitForQuiet();
    if (!this.holding) this.s.released();
  }

  /** Our own prompt goes out: what comes from now on is that turn's, and a turn carried on is over. */
  prompting(): void {
    this.watching = false;
    this.end(undefined, false);
  }

  /** Stop: the turn ends `cancelled`; what the agent still sends after it starts nothing. */
  cancel(): void {
    this.watching = false;
    this.end({ stopReason: 'cancelled' });
  }

  /** The process is gone: the turn ends with it, and the stop or crash says how. */
  gone(): void {
    this.watching = false;
    this.end(undefined, false);
  }

  private begin(): void {
    // The replay's calls still running are this turn's: the agent runs them now.
    this.turn = this.s.transcript.beginTurn(true);
    this.s.setRunning(true);
    this.waitForQuiet();
  }

  private waitForQuiet(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.quiet(), this.quietMs);
  }

  private quiet(): void {
    if (this.busy()) this.waitForQuiet();
    else this.end({ stopReason: 'quiet' });
  }

  /** A call of the turn in progress, or a question waiting: the agent is waiting, not done. */
  private busy(): boolean {
    return this.working(true) || this.s.transcript.questions.waiting.length > 0;
  }

  /**
   * Whether a tool call (of the turn, with `inTurn`) is in progress. A pending one is not the
   * agent at work: a card a permission request made may never hear from the agent again.
   */
  private working(inTurn: boolean): boolean {
    const { tools } = this.s.transcript;
    return tools.running(inTurn).some((id) => tools.entry(id)?.status === 'in_progress');
  }

  private end(marker: TurnEnd | undefined, showReady = true): void {
    clearTimeout(this.timer);
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    this.s.transcript.endTurn(marker, turn);
    if (showReady) this.s.setRunning(false);
  }
}
