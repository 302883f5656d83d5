import type { Memento } from '../../../src/host/sessions/sessionStore';

/** VS Code's workspaceState, in memory: what it stores is JSON (a reference kept by the caller must not leak in); undefined deletes. */
export class FakeMemento implements Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}
