import type { Services } from '../app/services';
import type { Disposable } from '../core/emitter';
import type { LedgerEvent } from '../core/events/eventLog';
import { LedgerError } from '../core/errors';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';

/** Where resource changes go: one SDK server instance, or the HTTP handler's listen streams. */
export interface ResourceSink {
  updated(uri: string): void;
  listChanged(): void;
}

/**
 * Sends `notifications/resources/updated` for subscribed URIs and
 * `notifications/resources/list_changed` when resources appear, whichever process wrote:
 * the store tells us it applied new journal records, the events table says what changed.
 * With `everyUri`, every URI an event changed is sent and the sink filters (the SDK's listen
 * streams of the 2026-07-28 revision keep each stream's own subscriptions).
 */
export class ResourceNotifier {
  private readonly subscribed = new Set<string>();
  private readonly watchers = new Map<string, Disposable>();
  /**
   * The cursor: the last event seen, undefined while the store cannot be read (a damaged ledger:
   * the first change after a repair sets it). Catch-ups run one after another on this chain, so
   * an event is never notified twice or skipped, however fast changes come.
   */
  private cursor: Promise<number | undefined>;
  private readonly listener: Disposable;

  constructor(
    private readonly sink: ResourceSink,
    private readonly services: Services,
    private readonly templates: ResourceTemplateDefinition[],
    private readonly fixed: FixedResourceDefinition[] = [],
    private readonly everyUri = false,
  ) {
    this.cursor = this.currentSeq();
    this.listener = services.engine.onDidChange(() => {
      this.cursor = this.cursor.then((seq) => (seq === undefined ? this.currentSeq() : this.flush(seq)));
    });
  }

  subscribe(uri: string): void {
    this.subscribed.add(uri);
    // A fixed resource that changes outside the store (files edited by hand) is watched while subscribed.
    const resource = this.fixed.find((r) => r.uri === uri);
    if (resource?.watch && !this.watchers.has(uri)) {
      this.watchers.set(
        uri,
        resource.watch(this.services, () => this.sink.updated(uri)),
      );
    }
  }

  unsubscribe(uri: string): void {
    this.subscribed.delete(uri);
    this.watchers.get(uri)?.dispose();
    this.watchers.delete(uri);
  }

  dispose(): void {
    this.listener.dispose();
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
  }

  /** The last event's seq; undefined when the store refuses reads (the server still starts and each tool call says why). */
  private async currentSeq(): Promise<number | undefined> {
    try {
      return await this.services.events.lastSeq();
    } catch (err) {
      if (LedgerError.is(err, 'StoreError')) return undefined;
      console.error('[agent-ledger] resource notifications:', err);
      return undefined;
    }
  }

  /** Notifies what the events after `since` changed; resolves with the new cursor. */
  private async flush(since: number): Promise<number | undefined> {
    let events: LedgerEvent[];
    try {
      events = await this.services.events.since(since, 10_000);
    } catch {
      return since; // tried again at the next change
    }
    if (events.length === 0) return since;
    const updated = new Set<string>();
    let listChanged = false;
    const wanted = (uri: string): boolean => this.everyUri || this.subscribed.has(uri);
    for (const event of events) {
      for (const t of this.templates) {
        for (const uri of t.affected(event)) if (wanted(uri)) updated.add(uri);
        listChanged ||= t.changesList(event);
      }
      for (const r of this.fixed) if (wanted(r.uri) && r.affected(event)) updated.add(r.uri);
    }
    for (const uri of updated) this.sink.updated(uri);
    if (listChanged) this.sink.listChanged();
    return events[events.length - 1].seq;
  }
}
