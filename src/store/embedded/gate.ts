/**
 * A first-in first-out in-process mutex. The embedded engine runs its reads, its catch-ups and
 * the in-memory part of its writes through one gate, so a read never sees a write transaction in
 * progress (sql.js has one connection: uncommitted rows are visible to every statement on it).
 * Cost: two promises per call.
 */
export class Gate {
  private tail: Promise<void> = Promise.resolve();

  run<T>(body: () => Promise<T> | T): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    return previous.then(body).finally(release);
  }
}
