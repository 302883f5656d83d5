/**
 * Ties a question put to the user to the agent's request that asked it: when the agent cancels
 * that request (`signal`, aborted by its `$/cancel_request`), `withdraw` takes the question back,
 * at once if it was cancelled before the question was even shown. Once the question is answered
 * (`answered` settled), a late cancel changes nothing: a newer question under the same key stays.
 */
export function withdrawOnCancel(signal: AbortSignal | undefined, answered: Promise<unknown>, withdraw: () => void): void {
  if (!signal) return;
  if (signal.aborted) return withdraw();
  signal.addEventListener('abort', withdraw, { once: true });
  void answered.finally(() => signal.removeEventListener('abort', withdraw));
}
