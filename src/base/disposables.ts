/**
 * VS Code's disposables, vscode-jsonrpc's, and ours: one shape. A dispose that returns a promise
 * (the sessions', which stop their agents) is not awaited: VS Code does not wait at shutdown either.
 */
export interface Disposable {
  dispose(): unknown;
}

/** A disposable that runs `dispose` once, however often it is disposed. */
export function toDisposable(dispose: () => unknown): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      return dispose();
    },
  };
}

/**
 * A lifetime: what the extension registers and owns, or what one agent process owns. Disposed
 * once, the last added first: what was made later may use what was made before it (the log, most
 * of all), never the reverse. VS Code-free, so the core uses it too and its order is unit-tested.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  /** Returns `item`, so a field can be made and kept in one line. Added once the store is disposed, it is disposed at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** One failure does not keep the others from being disposed; it is thrown once all are. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed`);
  }
}
