import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceTruth } from '../core/ports/workspaceTruth';
import { ChecksumWorkspaceTruth } from './checksum';
import { GitError } from './errors';
import { GitRepo } from './gitRepo';
import { GitWorkspaceTruth } from './gitWorkspaceTruth';

/**
 * The truth of `workspace`: Git when the folder is inside a work tree (snapshots of the whole
 * repository), otherwise MD5 manifests stored under `dataDir`.
 * Throws GitError `gitNotFound` when the folder is in a repository but git cannot be run:
 * silently falling back to checksums there would lose rewind and commit attribution.
 */
export async function openWorkspaceTruth(workspace: string, dataDir: string): Promise<WorkspaceTruth> {
  try {
    return new GitWorkspaceTruth(await GitRepo.open(workspace));
  } catch (ex) {
    if (GitError.is(ex, 'notARepository')) return new ChecksumWorkspaceTruth(workspace, dataDir);
    if (GitError.is(ex, 'gitNotFound') && !hasGitFolderAbove(workspace))
      return new ChecksumWorkspaceTruth(workspace, dataDir);
    throw ex;
  }
}

/** Whether `.git` exists in `folder` or a folder above it (what git would find, roughly). */
function hasGitFolderAbove(folder: string): boolean {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
