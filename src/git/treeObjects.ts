/**
 * Tree objects read through the repository's running `git cat-file --batch` (batchReader.ts):
 * no process is started per read.
 */
import { readObjects } from './batchReader';
import type { GitRepo } from './gitRepo';
import type { ObjectAlgorithm } from './looseObject';

/** The mode git writes for a folder (a tree) in a tree object. */
export const treeMode = '40000';

/** One entry of a tree object: its mode as git writes it (`40000` for a folder) and its id (hex). */
export interface TreeObjectEntry {
  mode: string;
  id: string;
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
export async function readTrees(repo: GitRepo, names: readonly string[], algorithm: ObjectAlgorithm): Promise<(Map<string, TreeObjectEntry> | null)[]> {
  if (names.length === 0) return [];
  const objects = await readObjects(repo, Buffer.from(names.map((n) => `${n}\n`).join(''), 'latin1'), names.length);
  if (objects.length !== names.length) throw new Error('git cat-file --batch: fewer objects than asked');
  return objects.map(({ type, content }) => (type === 'tree' && content ? parseTreeBody(content, algorithm) : null));
}
