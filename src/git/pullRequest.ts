/**
 * Landing by pull request: the task's branch is pushed and a pull request opened with the GitHub
 * CLI (`gh pr create`), for a person who reviews on GitHub rather than landing locally. Without
 * `gh` on the PATH it says so before anything is pushed.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../core/errors';
import type { PullRequestRequest, PullRequests } from '../core/ports/landing';
import { GitRepo } from './gitRepo';

export class GhPullRequests implements PullRequests {
  constructor(
    private readonly workspace: string,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  async open(request: PullRequestRequest): Promise<{ url: string }> {
    const gh = findProgram('gh', this.env.PATH);
    if (!gh)
      throw new LedgerError(
        'ConfigError',
        'gh (the GitHub CLI) is not installed: install it from https://cli.github.com and run gh auth login, or land the task locally without --pr',
        { reason: 'ghMissing' },
      );
    const repo = await GitRepo.open(this.workspace);
    const remote = request.remote ?? 'origin';
    const remotes = (await repo.text(['remote'])).split('\n').filter(Boolean);
    if (!remotes.includes(remote))
      throw new LedgerError('ConfigError', `this repository has no remote "${remote}" to push ${request.branch} to`, {
        reason: 'noRemote',
        remote,
      });
    // A person's action: pushed with their own Git credentials, hooks included.
    await repo.run(['push', '--quiet', '--set-upstream', remote, `refs/heads/${request.branch}`]);
    const out = await run(
      gh,
      ['pr', 'create', '--base', request.onto, '--head', request.branch, '--title', request.title, '--body-file', '-'],
      repo.root,
      request.body,
      this.env,
    );
    const url = out.stdout.split('\n').find((line) => /^https?:\/\//.test(line.trim()));
    if (out.code !== 0 || !url)
      throw new LedgerError(
        'GitError',
        `gh pr create failed${out.code !== 0 ? ` (exit ${out.code})` : ''}: ${(out.stderr || out.stdout).trim().split('\n').at(-1) ?? ''}`,
        { reason: 'ghFailed' },
      );
    return { url: url.trim() };
  }
}

function findProgram(name: string, pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

function run(
  program: string,
  args: readonly string[],
  cwd: string,
  input: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env: { ...env, GH_PROMPT_DISABLED: '1' }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
