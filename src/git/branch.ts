import { runGit } from './gitRepo';

/** The branch checked out in `workspace` (`git branch --show-current`); null when detached or not a repository. */
export async function currentBranch(workspace: string): Promise<string | null> {
  try {
    const { stdout } = await runGit(workspace, ['branch', '--show-current']);
    return stdout.toString('utf8').trim() || null;
  } catch {
    return null;
  }
}
