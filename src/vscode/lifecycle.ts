import type * as vscode from 'vscode';

/**
 * Base of everything the extension creates that holds resources (pull-request-github's
 * `Disposable`): whatever a subclass `_register`s is disposed with it, in reverse order.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this._isDisposed) disposable.dispose();
    else this._disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    for (const d of this._disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}
