/** Counts the requests each client has in flight, refusing one past `max` (a 429 the client retries). */
export class StreamCaps {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  acquire(client: string): boolean {
    const n = this.inFlight.get(client) ?? 0;
    if (n >= this.max) return false;
    this.inFlight.set(client, n + 1);
    return true;
  }

  release(client: string): void {
    const n = (this.inFlight.get(client) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(client);
    else this.inFlight.set(client, n);
  }
}
