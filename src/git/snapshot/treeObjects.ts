/**
 * Tree objects read through the repository's running `git cat-file --batch` (batchReader.ts):
 * no process is started per read.
 *
 * A name that can only ever mean one tree — a tree id, `<commit id>^{tree}`, `<commit id>:<path>`
 * (objects never change; cat-file runs without replace refs) — is answered from a small cache
 * of the trees read or written by this process (a snapshot's folders, HEAD's folders): the
 * second snapshot of a task and the diff between two snapshots of this process ask git for none.
 */
import { readObjects } from './batchReader';
import type { GitRepo } from '../gitRepo';
import type { ObjectAlgorithm } from './looseObject';

/** The mode git writes for a folder (a tree) in a tree object. */
export const treeMode = '40000';

/** One entry of a tree object: its mode as git writes it (`40000` for a folder) and its id (hex). */
export interface TreeObjectEntry {
  mode: string;
  id: string;
}

/** At most this many entries are held, all cached trees together (~100 bytes each: ~2 MiB), enough for HEAD's folders on the way to the changes and the last snapshots' trees. */
const cacheEntryLimit = 20_000;
const cache = new Map<string, Map<string, TreeObjectEntry>>();
let cachedEntries = 0;
const immutableName = /^([0-9a-f]{40}|[0-9a-f]{64})(\^\{tree\}|:[^\n]*)?$/;

/** Records tree `name`'s entries (a copy is kept), dropping the least recently used past the limit. */
export function rememberTree(name: string, entries: ReadonlyMap<string, TreeObjectEntry>): void {
  if (!immutableName.test(name) || entries.size > cacheEntryLimit / 4) return;
  forget(name);
  cache.set(name, new Map(entries));
  cachedEntries += entries.size;
  for (const [oldest, tree] of cache) {
    if (cachedEntries <= cacheEntryLimit) break;
    cache.delete(oldest);
    cachedEntries -= tree.size;
  }
}

/** `<commit>^{tree}` is `tree`: remembered when `tree` is. */
export function rememberCommitTree(commit: string, tree: string): void {
  const entries = cache.get(tree);
  if (entries) rememberTree(`${commit}^{tree}`, entries);
}

function forget(name: string): void {
  const known = cache.get(name);
  if (!known) return;
  cache.delete(name);
  cachedEntries -= known.size;
}

/** A copy of a cached tree (marked most recently used), or undefined. */
function cached(name: string): Map<string, TreeObjectEntry> | undefined {
  const entries = cache.get(name);
  if (!entries) return undefined;
  cache.delete(name);
  cache.set(name, entries);
  return new Map(entries);
}

/** The entries of a tree object's body, by name (a byte string: latin-1, the name's bytes unchanged). */
export function parseTreeBody(body: Buffer, algorithm: ObjectAlgorithm): Map<string, TreeObjectEntry> {
  const idLength = algorithm === 'sha1' ? 20 : 32;
  const entries = new Map<string, TreeObjectEntry>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(32, at);
    const nul = body.indexOf(0, space);
    const mode = body.toString('latin1', at, space);
    const name = body.toString('latin1', space + 1, nul);
    entries.set(name, { mode, id: body.toString('hex', nul + 1, nul + 1 + idLength) });
    at = nul + 1 + idLength;
  }
  return entries;
}

/**
 * The trees named by `names` (anything cat-file resolves: `<commit>^{tree}`, `<commit>:<folder>`,
 * a tree id), in order; null for a name that is missing or not a tree.
 */
export async function readTrees(
  repo: GitRepo,
  names: readonly string[],
  algorithm: ObjectAlgorithm,
): Promise<(Map<string, TreeObjectEntry> | null)[]> {
  const trees: (Map<string, TreeObjectEntry> | null | undefined)[] = names.map(cached);
  const asked = names.filter((_, i) => trees[i] === undefined);
  if (asked.length === 0) return trees as (Map<string, TreeObjectEntry> | null)[];
  const objects = await readObjects(repo, Buffer.from(asked.map((n) => `${n}\n`).join(''), 'latin1'), asked.length);
  if (objects.length !== asked.length) throw new Error('git cat-file --batch: fewer objects than asked');
  let at = 0;
  return trees.map((known, i) => {
    if (known !== undefined) return known;
    const { type, content } = objects[at++];
    if (type !== 'tree' || !content) return null;
    const entries = parseTreeBody(content, algorithm);
    rememberTree(names[i], entries);
    return entries;
  });
}

/** Every folder on the way to each path (byte strings, `/`-separated), the top ('') included. */
export function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>(['']);
  for (const p of paths) {
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
      const folder = p.slice(0, at);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}
