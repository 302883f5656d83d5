/**
 * The agent's requests of one kind that wait on the user (permissions by tool call, forms by
 * request key), held by the transcript beside the entries that show them, so whatever ends a wait
 * (the user, cancel, stop, a crash) answers through here and each request gets exactly one
 * answer. A second request under the same key supersedes the first, which is answered `cancelled`.
 */
export class Waits<T> {
  private readonly answers = new Map<string, (value: T) => void>();

  constructor(private readonly cancelled: T) {}

  /** A new request under `key`; resolves with the answer. */
  ask(key: string): Promise<T> {
    this.answer(key, this.cancelled);
    return new Promise<T>((resolve) => this.answers.set(key, resolve));
  }

  has(key: string): boolean {
    return this.answers.has(key);
  }

  /** The oldest request still waiting: O(1), however many wait. */
  get first(): string | undefined {
    return this.answers.keys().next().value;
  }

  /** How many requests wait. */
  get size(): number {
    return this.answers.size;
  }

  get keys(): string[] {
    return [...this.answers.keys()];
  }

  /** Answers the request under `key`; false when none waits there (it was answered already). */
  answer(key: string, value: T = this.cancelled): boolean {
    const resolve = this.answers.get(key);
    if (!resolve) return false;
    this.answers.delete(key);
    resolve(value);
    return true;
  }
}
