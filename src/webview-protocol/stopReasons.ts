import type { StopReasonView } from './entries';

/** How a turn's end is said, in the panel and in an exported conversation alike. */
const STOP_REASONS: Record<StopReasonView, string> = {
  end_turn: 'Turn ended.',
  cancelled: 'Turn cancelled.',
  max_tokens: 'Stopped: the agent reached its token limit.',
  max_turn_requests: 'Stopped: the agent reached its limit of requests for one turn.',
  refusal: 'The agent refused. This prompt will not be part of the next turn’s context.',
  failed: 'The turn failed.',
  quiet: 'Turn over: the agent sent nothing more.',
};

export function stopReasonText(reason: StopReasonView): string {
  return STOP_REASONS[reason];
}
