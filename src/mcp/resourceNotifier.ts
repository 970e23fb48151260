import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Services } from '../services';
import type { Disposable } from '../core/emitter';
import { eventsSince, lastEventSeq } from '../core/events/eventLog';
import { StoreError } from '../store/errors';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';

/**
 * Sends `notifications/resources/updated` for subscribed URIs and
 * `notifications/resources/list_changed` when resources appear, whichever process wrote:
 * the store tells us it applied new journal records, the events table says what changed.
 */
export class ResourceNotifier {
  private readonly subscribed = new Set<string>();
  private readonly watchers = new Map<string, Disposable>();
  /** Undefined while the store cannot be read (a damaged ledger): the first change after a repair sets it. */
  private lastSeq: number | undefined;
  private readonly listener: Disposable;

  constructor(
    private readonly server: Server,
    private readonly services: Services,
    private readonly templates: ResourceTemplateDefinition[],
    private readonly fixed: FixedResourceDefinition[] = [],
  ) {
    this.lastSeq = this.currentSeq();
    this.listener = services.store.onDidChange(() => this.flush());
  }

  subscribe(uri: string): void {
    this.subscribed.add(uri);
    // A fixed resource that changes outside the store (files edited by hand) is watched while subscribed.
    const resource = this.fixed.find((r) => r.uri === uri);
    if (resource?.watch && !this.watchers.has(uri)) {
      this.watchers.set(uri, resource.watch(this.services, () => void this.server.sendResourceUpdated({ uri }).catch(() => undefined)));
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
  private currentSeq(): number | undefined {
    try {
      return this.services.store.read(lastEventSeq);
    } catch (err) {
      if (StoreError.is(err)) return undefined;
      throw err;
    }
  }

  private flush(): void {
    if (this.lastSeq === undefined) {
      this.lastSeq = this.currentSeq();
      return;
    }
    const since = this.lastSeq;
    const events = this.services.store.read((db) => eventsSince(db, since, 10_000));
    if (events.length === 0) return;
    this.lastSeq = events[events.length - 1].seq;
    const updated = new Set<string>();
    let listChanged = false;
    for (const event of events) {
      for (const t of this.templates) {
        for (const uri of t.affected(event)) if (this.subscribed.has(uri)) updated.add(uri);
        listChanged ||= t.changesList(event);
      }
      for (const r of this.fixed) if (this.subscribed.has(r.uri) && r.affected(event)) updated.add(r.uri);
    }
    for (const uri of updated) void this.server.sendResourceUpdated({ uri }).catch(() => undefined);
    if (listChanged) void this.server.sendResourceListChanged().catch(() => undefined);
  }
}
