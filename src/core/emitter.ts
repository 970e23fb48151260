/** A listener registration that can be undone. Same shape as vscode.Disposable. */
export interface Disposable {
  dispose(): void;
}

/** A subscribable event, the same shape as vscode.Event so views can adapt it directly. */
export type Event<T> = (listener: (e: T) => void) => Disposable;

/**
 * The tiny emitter `core` uses instead of vscode.EventEmitter (STYLE.md habit 4):
 *   private readonly _onDidChange = new Emitter<Change>();
 *   readonly onDidChange = this._onDidChange.event;
 */
export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch (err) {
        // A failing listener must not stop the others nor the writer that fired.
        console.error('[agent-ledger] listener failed:', err);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
