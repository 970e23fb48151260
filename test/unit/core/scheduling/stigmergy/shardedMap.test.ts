import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MapWriter,
  emptyMap,
  mapEntries,
  mapFrom,
  mapGet,
} from '../../../../../src/core/scheduling/stigmergy/shardedMap';

test('a writer copies only what it touches and never changes the map it started from', () => {
  const base = mapFrom(Array.from({ length: 1000 }, (_, i): [string, number] => [`k${i}`, i]));
  const w = new MapWriter(base);
  w.set('k1', 100);
  w.set('new', 7);
  w.delete('k2');
  w.delete('absent');
  const next = w.done();
  assert.deepEqual([base.size, mapGet(base, 'k1'), mapGet(base, 'k2'), mapGet(base, 'new')], [1000, 1, 2, undefined]);
  assert.deepEqual([next.size, mapGet(next, 'k1'), mapGet(next, 'k2'), mapGet(next, 'new')], [1000, 100, undefined, 7]);
  const shared = next.shards.filter((s, i) => s === base.shards[i]).length;
  assert.ok(shared >= next.shards.length - 3, `untouched shards are shared (${shared})`);
  assert.equal([...mapEntries(next)].length, 1000);
  assert.equal(emptyMap<number>().size, 0);
});
