/**
 * Which files changed since the last look, without writing anything to the repository's object
 * store (the changed-file marks look every few seconds; a snapshot per look wrote a commit object
 * each time, plus the changed files' blobs and trees).
 *
 * A watch keeps its own index file in the work tree's git dir (`agent-ledger-changes-<random>`),
 * first filled with the start snapshot's tree (`read-tree`: entries only, no object written). A
 * look refreshes its stat data, asks `diff-files` (tracked files that differ from it: changed,
 * deleted, mode) and `ls-files --others --exclude-standard` (files not in it and not ignored:
 * new), then records what it saw with `update-index --info-only` (object ids computed, objects
 * not written), so the next look compares with this one. Nothing of the user's is read or
 * written but the working files: not HEAD, the index, a hook.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import * as path from 'node:path';
import type { ChangeWatch } from '../core/ports/workspaceTruth';
import type { FolderScope } from './folderScope';
import type { GitRepo } from './gitRepo';
import { splitNul } from './parsers';
import { objectIdPattern } from './snapshot/snapshot';
import { privateIndexConfig } from './snapshot/workingTree';

const prefix = 'changes-';
/** A watch index not looked at for this long was left by a process that ended without disposing it. */
const abandonedAfterMs = 10 * 60 * 1000;

/**
 * A watch of the work tree from `start` (a snapshot commit or HEAD's commit), or null when this
 * way cannot tell the same paths a snapshot diff would: the repository has submodules (a
 * snapshot records their files, an index only their commit).
 */
export async function watchChanges(repo: GitRepo, scope: FolderScope, start: string): Promise<ChangeWatch | null> {
  if (!objectIdPattern.test(start) || existsSync(path.join(repo.root, '.gitmodules'))) return null;
  await sweepAbandoned(repo);
  const file = repo.privatePath(`${prefix}${randomBytes(8).toString('hex')}`);
  const env = { GIT_INDEX_FILE: file };
  const config = privateIndexConfig(repo);
  try {
    await repo.run([...config, 'read-tree', start], { env });
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  const spec = scope.pathspec();
  const specEnv = { ...env, ...scope.literalEnv() };
  return {
    async next() {
      await repo.run([...config, 'update-index', '-q', '--refresh', '--ignore-missing'], { env, okExitCodes: [1] });
      const [tracked, untracked] = await Promise.all([
        repo.run([...config, 'diff-files', '-z', '--name-only', '--', ...spec], { env: specEnv }),
        repo.run([...config, 'ls-files', '-z', '--others', '--exclude-standard', '--', ...spec], { env: specEnv }),
      ]);
      const paths = [
        ...new Set([...splitNul(tracked.stdout.toString('utf8')), ...splitNul(untracked.stdout.toString('utf8'))]),
      ];
      // A repository inside the work tree shows as `name/`: marked, not recorded (an index holds files).
      const files = paths.filter((p) => !p.endsWith('/'));
      if (files.length > 0) {
        // Recorded as they are now (ids computed, no object written); a deleted file leaves the index.
        await repo.run([...config, 'update-index', '-z', '--info-only', '--add', '--remove', '--stdin'], {
          env,
          input: Buffer.from(files.map((p) => `${p}\0`).join('')),
        });
      } else {
        const now = new Date();
        await utimes(file, now, now).catch(() => undefined); // looked at: not abandoned
      }
      return paths
        .map((p) => scope.fromRepo(p.replace(/\/$/, '')))
        .filter((p): p is string => p !== null)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
    dispose: () => rm(file, { force: true }),
  };
}

/** Deletes watch indexes of processes that ended without disposing them. */
async function sweepAbandoned(repo: GitRepo): Promise<void> {
  const dir = path.dirname(repo.privatePath(prefix));
  const marker = path.basename(repo.privatePath(prefix));
  const names = await readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - abandonedAfterMs;
  for (const name of names) {
    if (!name.startsWith(marker)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
  }
}
