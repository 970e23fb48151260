/**
 * What changed between two trees, read in this process through the repository's running
 * `git cat-file --batch` (treeObjects.ts) instead of a `git diff-tree` process: starting a
 * process from Node blocks the event loop in proportion to the process's memory (batchReader.ts),
 * and complete_task asked for one after its snapshot. Only the folders whose ids differ are opened.
 *
 * The records are diff-tree's (`-r --raw`): A, D, M (content or executable bit), T (a file became a
 * symlink or a submodule, or back). Rename detection needs file contents (git's similarity score),
 * so wherever a rename is possible — something deleted and something added — this answers null and
 * the caller asks `git diff-tree --find-renames`, as it does when a read fails.
 */
import type { GitRepo } from '../gitRepo';
import { objectAlgorithm } from './looseObject';
import type { RawChange } from '../parsers';
import { readTrees, treeMode } from './treeObjects';
import type { TreeObjectEntry } from './treeObjects';

const absentMode = '000000';

/** A folder to compare: its path (a byte string, '' at the top) and the tree on each side (null: absent there). */
interface Pair {
  path: string;
  from: string | null;
  to: string | null;
}

/** The raw changes from tree-ish `from` to tree-ish `to`, or null where git must decide (renames). */
export async function diffTreesInProcess(repo: GitRepo, from: string, to: string): Promise<RawChange[] | null> {
  const algorithm = objectAlgorithm(from);
  if (!algorithm || objectAlgorithm(to) !== algorithm) return null;
  const zero = '0'.repeat(from.length);
  const changes: RawChange[] = [];
  let added = false;
  let deleted = false;
  const record = (
    status: string,
    path: string,
    before: TreeObjectEntry | undefined,
    after: TreeObjectEntry | undefined,
  ) => {
    added ||= status === 'A';
    deleted ||= status === 'D';
    changes.push({
      status,
      oldMode: before?.mode.padStart(6, '0') ?? absentMode,
      newMode: after?.mode.padStart(6, '0') ?? absentMode,
      oldSha: before?.id ?? zero,
      newSha: after?.id ?? zero,
      path: Buffer.from(path, 'latin1').toString('utf8'),
    });
  };
  let level: Pair[] = [{ path: '', from: `${from}^{tree}`, to: `${to}^{tree}` }];
  while (level.length > 0) {
    // Every folder of this depth in one request: its tree on each side.
    const names = level.flatMap((p) => [p.from, p.to].filter((n): n is string => n !== null));
    const trees = await readTrees(repo, names, algorithm);
    let at = 0;
    const next: Pair[] = [];
    for (const pair of level) {
      const before = pair.from === null ? new Map<string, TreeObjectEntry>() : trees[at++];
      const after = pair.to === null ? new Map<string, TreeObjectEntry>() : trees[at++];
      if (!before || !after) return null;
      for (const name of new Set([...before.keys(), ...after.keys()])) {
        const a = before.get(name);
        const b = after.get(name);
        if (a && b && a.mode === b.mode && a.id === b.id) continue;
        const path = pair.path === '' ? name : `${pair.path}/${name}`;
        const aTree = a?.mode === treeMode;
        const bTree = b?.mode === treeMode;
        if (aTree || bTree) next.push({ path, from: aTree ? a.id : null, to: bTree ? b.id : null });
        const aFile = a && !aTree ? a : undefined;
        const bFile = b && !bTree ? b : undefined;
        if (aFile && bFile) record(kindOf(aFile.mode) === kindOf(bFile.mode) ? 'M' : 'T', path, aFile, bFile);
        else if (aFile) record('D', path, aFile, undefined);
        else if (bFile) record('A', path, undefined, bFile);
      }
      // A possible rename: git's similarity decides.
      if (added && deleted) return null;
    }
    level = next;
  }
  return changes;
}

/** What a non-folder entry is: a file (either executable bit), a symlink or a submodule. */
function kindOf(mode: string): string {
  return mode === '100755' ? '100644' : mode;
}
