/**
 * A persistent string-keyed map made of plain Maps: keys are spread over a fixed number of
 * shards by hash, and a writer copies only the shards it touches. An update of one key in a map
 * of 100,000 costs a copy of about 25 entries (and of the shard table) instead of 100,000, so pure
 * "state in, state out" code stays fast; the old map is never changed.
 */

const shardCount = 4096;

/** Shards by hash; `undefined` is an empty shard (most are, in a small map). */
export interface ShardedMap<V> {
  readonly shards: readonly (ReadonlyMap<string, V> | undefined)[];
  readonly size: number;
}

const empty: ShardedMap<never> = { shards: new Array<undefined>(shardCount).fill(undefined), size: 0 };

/** The empty map (shared). */
export function emptyMap<V>(): ShardedMap<V> {
  return empty;
}

/** FNV-1a, folded onto the shard count. */
function shardOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shardCount;
}

/** The value of a key. */
export function mapGet<V>(map: ShardedMap<V>, key: string): V | undefined {
  return map.shards[shardOf(key)]?.get(key);
}

/** Every value, shard by shard. */
export function* mapValues<V>(map: ShardedMap<V>): Generator<V> {
  for (const shard of map.shards) if (shard) yield* shard.values();
}

/** Every entry, shard by shard. */
export function* mapEntries<V>(map: ShardedMap<V>): Generator<[string, V]> {
  for (const shard of map.shards) if (shard) yield* shard.entries();
}

/** Collects changes against a base map; `done()` returns the new map (the base is untouched). */
export class MapWriter<V> {
  private readonly shards: (ReadonlyMap<string, V> | undefined)[];
  private readonly owned = new Set<number>();
  private count: number;

  constructor(base: ShardedMap<V>) {
    this.shards = [...base.shards];
    this.count = base.size;
  }

  get(key: string): V | undefined {
    return this.shards[shardOf(key)]?.get(key);
  }

  set(key: string, value: V): void {
    const shard = this.writable(shardOf(key));
    if (!shard.has(key)) this.count++;
    shard.set(key, value);
  }

  delete(key: string): void {
    const i = shardOf(key);
    if (!this.shards[i]?.has(key)) return;
    this.writable(i).delete(key);
    this.count--;
  }

  done(): ShardedMap<V> {
    return { shards: [...this.shards], size: this.count };
  }

  private writable(i: number): Map<string, V> {
    if (!this.owned.has(i)) {
      this.shards[i] = new Map(this.shards[i] ?? []);
      this.owned.add(i);
    }
    return this.shards[i] as Map<string, V>;
  }
}

/** A map holding these entries (later keys win). */
export function mapFrom<V>(entries: Iterable<[string, V]>): ShardedMap<V> {
  const shards = new Array<Map<string, V> | undefined>(shardCount).fill(undefined);
  let size = 0;
  for (const [key, value] of entries) {
    const i = shardOf(key);
    const shard = shards[i] ?? (shards[i] = new Map<string, V>());
    if (!shard.has(key)) size++;
    shard.set(key, value);
  }
  return { shards, size };
}
