// Context usage and cost, reported as usage_update at the end of every turn. There is no model,
// so the numbers are estimates: ~4 characters per token on top of a fixed "system prompt".
// Like a real context window, `used` grows with every turn, and since each turn resends the
// whole context, the cost grows faster than `used` does.

import type { Cost } from './acp-types';

export const CONTEXT_WINDOW_TOKENS = 200_000;
const SYSTEM_PROMPT_TOKENS = 1_200;

export interface UsageUpdate {
  sessionUpdate: 'usage_update';
  used: number;
  size: number;
  cost: Cost;
}

export class Usage {
  private used = SYSTEM_PROMPT_TOKENS;
  private costUsd = 0;

  /** Records one turn (the prompt read, the reply written) and returns the update to send. */
  addTurn(promptChars: number, replyChars: number, usdPerMillionTokens: number): UsageUpdate {
    this.used = Math.min(CONTEXT_WINDOW_TOKENS, this.used + tokens(promptChars) + tokens(replyChars));
    this.costUsd += (this.used * usdPerMillionTokens) / 1_000_000;
    return {
      sessionUpdate: 'usage_update',
      used: this.used,
      size: CONTEXT_WINDOW_TOKENS,
      // Rounded so that a client shows 0.004512 rather than 0.0045119999999.
      cost: { amount: Math.round(this.costUsd * 1e6) / 1e6, currency: 'USD' },
    };
  }
}

function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}
