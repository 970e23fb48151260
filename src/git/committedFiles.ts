import * as path from 'node:path';
import { GitRepo } from './gitRepo';

/**
 * Which of `files` (relative to `folder`, `/`-separated) are committed as they are now: the blob
 * at HEAD equals what `git hash-object` makes of the file in the work tree (with the same filters
 * git applies). Two git processes, whatever the number of files. Outside a repository, on an
 * unborn branch or when git fails: none.
 */
export async function filesCommittedAsIs(folder: string, files: readonly string[]): Promise<Set<string>> {
  const committed = new Set<string>();
  if (files.length === 0) return committed;
  let repo: GitRepo;
  try {
    repo = await GitRepo.open(folder);
  } catch {
    return committed;
  }
  const inRepo = new Map(files.map((f) => [`${repo.prefix}${f}`, f]));
  try {
    const { stdout, exitCode } = await repo.run(['ls-tree', '-z', 'HEAD', '--', ...inRepo.keys()], {
      okExitCodes: [128],
    });
    if (exitCode !== 0) return committed;
    const atHead = new Map<string, string>();
    for (const entry of stdout.toString('utf8').split('\0')) {
      const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (match) atHead.set(match[2], match[1]);
    }
    const names = [...atHead.keys()];
    if (names.length === 0) return committed;
    const hashed = (await repo.text(['hash-object', '--', ...names.map((n) => path.join(repo.root, n))])).split('\n');
    names.forEach((name, i) => {
      if (hashed[i] === atHead.get(name)) committed.add(inRepo.get(name) as string);
    });
  } catch {
    return new Set();
  }
  return committed;
}
