/**
 * The one error of the Git layer. Git's stderr is turned into a `reason` in exactly one place,
 * {@link toGitError}, so nothing else ever branches on message text (STYLE.md habit 5,
 * VS Code git's `GitErrorCodes`).
 */
import { LedgerError } from '../core/errors';
import type { LedgerErrorCode } from '../core/errors';

export type GitErrorReason =
  /** The `git` executable could not be started (not installed or not on PATH). */
  | 'gitNotFound'
  /** The folder is not inside a Git work tree. */
  | 'notARepository'
  /** Git refuses the repository because another user owns it (`safe.directory`). */
  | 'unsafeRepository'
  /** The operation needs something this kind of workspace cannot do (e.g. rewind without Git). */
  | 'unsupported'
  /** A snapshot (commit or manifest) no longer exists or was never taken here. */
  | 'snapshotMissing'
  /** A path is absent from the tree it was looked up in. */
  | 'pathMissing'
  /** A path is absolute, escapes the repository or points into `.git`. */
  | 'invalidPath'
  /** A ref name does not match `[A-Za-z0-9._-]+`. */
  | 'invalidName'
  /** Another process holds a Git lock (`index.lock`, a ref lock). */
  | 'locked'
  | 'permissionDenied'
  /** Any other failure of a Git command. */
  | 'commandFailed';

export class GitError extends LedgerError {
  constructor(
    readonly reason: GitErrorReason,
    message: string,
    /** The git arguments that failed, when a command failed. */
    readonly args?: readonly string[],
    readonly stderr?: string,
  ) {
    super('GitError', message, { reason });
    this.name = 'GitError';
  }

  /**
   * True for any GitError, or only for one with `reason`. (A `LedgerErrorCode` is accepted only
   * so the static side stays compatible with `LedgerError.is`; it compares against `code`.)
   */
  static override is(ex: unknown, reason?: GitErrorReason | LedgerErrorCode): ex is GitError {
    return ex instanceof GitError && (reason === undefined || ex.reason === reason || ex.code === reason);
  }
}

/** How a git process ended, as {@link toGitError} needs it. */
export interface GitFailure {
  args: readonly string[];
  /** null when the process could not be spawned. */
  exitCode: number | null;
  stderr: string;
  /** The spawn error's `code` (e.g. `ENOENT`; `ENOENT_CWD` when the folder is gone), if the process never ran. */
  spawnErrorCode?: string;
}

const stderrReasons: ReadonlyArray<[RegExp, GitErrorReason]> = [
  [/detected dubious ownership/i, 'unsafeRepository'],
  [/not a git repository|must be run in a work tree/i, 'notARepository'],
  [/path '.*' does not exist in|path '.*' exists on disk, but not in|bad file$/im, 'pathMissing'],
  [
    /bad object|is not a valid object|invalid object name|unknown revision|bad revision|not a valid commit name/i,
    'snapshotMissing',
  ],
  [/\.lock'?: File exists|cannot lock ref|unable to create .*\.lock/i, 'locked'],
  [/permission denied/i, 'permissionDenied'],
];

/** The one place where a failed git process becomes a reason. */
export function toGitError(failure: GitFailure): GitError {
  const { args, exitCode, stderr, spawnErrorCode } = failure;
  // Our `-c` settings are noise in a message meant for people.
  const command = `git ${args.filter((a, i) => a !== '-c' && args[i - 1] !== '-c').join(' ')}`;
  if (spawnErrorCode === 'ENOENT') {
    return new GitError(
      'gitNotFound',
      'Git was not found on PATH. Install Git (https://git-scm.com) or add it to PATH.',
      args,
    );
  }
  if (spawnErrorCode === 'ENOENT_CWD') {
    return new GitError('notARepository', 'The folder does not exist, so it is not in a Git repository.', args);
  }
  if (spawnErrorCode) {
    return new GitError('commandFailed', `Could not run ${command}: ${spawnErrorCode}`, args);
  }
  const text = stderr.trim();
  const reason = stderrReasons.find(([pattern]) => pattern.test(text))?.[1] ?? 'commandFailed';
  if (reason === 'notARepository')
    return new GitError(
      reason,
      'This folder is not in a Git repository, and this needs one: run git init there and commit once.',
      args,
      stderr,
    );
  const detail = text.split('\n').filter(Boolean).slice(-3).join(' ') || `exit code ${exitCode}`;
  return new GitError(reason, `${command} failed: ${detail}`, args, stderr);
}
