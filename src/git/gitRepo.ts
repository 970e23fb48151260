/**
 * A Git repository and the one place git processes are run.
 *
 * Why a direct `spawn` rather than simple-git's runner: simple-git 4 waits an extra 50 ms after
 * every command that prints nothing (`add`, `update-ref`),
 * rejects explicit `GIT_*` variables unless each is allow-listed while the user's own
 * environment (EDITOR, GIT_*) makes `.env()` throw, does not expose exit codes, and only
 * returns Buffers for `cat-file`. A snapshot is on the hot path of every task, so git runs here
 * with an argument array (never a shell), a controlled environment and Buffer output.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { GitError, toGitError } from './errors';

export interface GitRunOptions {
  /** Variables added to the (sanitised) environment, e.g. `GIT_INDEX_FILE`. */
  env?: Record<string, string>;
  /** Written to stdin, then stdin is closed. */
  input?: string | Buffer;
  /** Exit codes that are not failures (default: only 0). */
  okExitCodes?: readonly number[];
}

export interface GitRunResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/**
 * Variables that would point git at another repository, index or pathspec mode, or change the
 * identity of our snapshot commits. They are set when we run inside a git hook or an alias.
 */
const strippedEnv =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|QUARANTINE_PATH|NAMESPACE|PREFIX|(LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS|AUTHOR_\w+|COMMITTER_\w+)$/i;

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!strippedEnv.test(key)) env[key] = value;
  }
  // English messages for toGitError, never a credential prompt or pager.
  Object.assign(env, { LC_ALL: 'C', LANGUAGE: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' }, extra);
  return env;
}

let started = 0;

/** How many git processes this process has started (benchmarks and tests count them per operation). */
export function gitProcessesStarted(): number {
  return started;
}

/** Runs `git <args>` in `cwd`; rejects with a GitError unless the exit code is allowed. */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitRunResult> {
  started++;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv(options.env), windowsHide: true, stdio: 'pipe' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (ex: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      // spawn also says ENOENT when the working folder is gone, which is not a missing git.
      const code = ex.code === 'ENOENT' && !existsSync(cwd) ? 'ENOENT_CWD' : (ex.code ?? 'unknown');
      reject(toGitError({ args, exitCode: null, stderr: '', spawnErrorCode: code }));
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      const exitCode = code ?? -1;
      const stderr = Buffer.concat(err).toString('utf8');
      if (exitCode === 0 || options.okExitCodes?.includes(exitCode)) {
        resolve({ stdout: Buffer.concat(out), stderr, exitCode });
      } else {
        reject(toGitError({ args, exitCode, stderr }));
      }
    });
    // A git that exits early (bad object) closes stdin under us; the exit code says why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/**
 * Starts `git <args>` in `cwd` that stays running (a `cat-file --batch` served over its pipes,
 * batchReader.ts), with the same sanitised environment as runGit.
 */
export function startGit(
  cwd: string,
  args: readonly string[],
  env?: Record<string, string>,
): ChildProcessWithoutNullStreams {
  started++;
  return spawn('git', args, { cwd, env: gitEnv(env), windowsHide: true, stdio: 'pipe' });
}

/** Where a repository lives, as `git rev-parse` reports it. */
export class GitRepo {
  private constructor(
    /** Absolute top level of the work tree. */
    readonly root: string,
    /** Absolute git dir of this work tree (`.git`, or `.git/worktrees/<name>` in a linked worktree). */
    readonly gitDir: string,
    /** Absolute common git dir (objects, refs, `info/exclude`), shared by all worktrees. */
    readonly commonDir: string,
    /** The folder `open` was given, relative to `root`, with `/` and a trailing `/` ('' at the top). */
    readonly prefix: string,
  ) {}

  /**
   * Opens the repository whose work tree contains `folder`.
   * Throws GitError `notARepository` outside a work tree, `gitNotFound` without git.
   */
  static async open(folder: string): Promise<GitRepo> {
    const cwd = path.resolve(folder);
    const { stdout } = await runGit(cwd, [
      'rev-parse',
      '--show-toplevel',
      '--absolute-git-dir',
      '--git-common-dir',
      '--show-prefix',
    ]).catch((err: unknown) => {
      // One plain sentence, never git's own text: what is wrong and what makes it right.
      if (GitError.is(err, 'notARepository'))
        throw new GitError(
          'notARepository',
          `${cwd} is not in a Git repository, and this needs one: run git init there and commit once.`,
          err.args,
          err.stderr,
        );
      throw err;
    });
    // Each value is one line; --show-prefix prints an empty line at the top level.
    const [root, gitDir, commonDir, prefix = ''] = stdout.toString('utf8').replace(/\n$/, '').split('\n');
    return new GitRepo(path.resolve(root), path.resolve(gitDir), path.resolve(cwd, commonDir), prefix);
  }

  run(args: readonly string[], options?: GitRunOptions): Promise<GitRunResult> {
    return runGit(this.root, args, options);
  }

  /** stdout as UTF-8 text with the trailing newline removed. */
  async text(args: readonly string[], options?: GitRunOptions): Promise<string> {
    const { stdout } = await this.run(args, options);
    return stdout.toString('utf8').replace(/\n$/, '');
  }

  /** HEAD's commit sha, or null on an unborn branch. */
  async head(): Promise<string | null> {
    const { stdout } = await this.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okExitCodes: [1] });
    return stdout.toString('utf8').trim() || null;
  }

  /** Path of a file inside the git dir that git itself never creates (temp indexes, hooks off). */
  privatePath(name: string): string {
    return path.join(this.gitDir, `agent-ledger-${name}`);
  }

  /**
   * `-c` arguments that point hooks at a folder that does not exist: writing an index runs
   * `post-index-change` and `update-ref` runs `reference-transaction`, and a snapshot must run
   * nothing of the user's.
   */
  noHooks(): string[] {
    return ['-c', `core.hooksPath=${this.privatePath('no-hooks')}`];
  }
}
