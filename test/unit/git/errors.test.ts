import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerError } from '../../../src/core/errors';
import { GitError, toGitError } from '../../../src/git/errors';
import type { GitErrorReason } from '../../../src/git/errors';

const cases: Array<[string, GitErrorReason]> = [
  ['fatal: not a git repository (or any of the parent directories): .git\n', 'notARepository'],
  ['fatal: this operation must be run in a work tree\n', 'notARepository'],
  [
    "fatal: detected dubious ownership in repository at '/srv/repo'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /srv/repo\n",
    'unsafeRepository',
  ],
  ["fatal: path 'x' does not exist in '1234567890123456789012345678901234567890'\n", 'pathMissing'],
  ['fatal: git cat-file 96b804d6110e338be06186da698d2f9714d2d884:d: bad file\n', 'pathMissing'],
  ['fatal: bad object 1234567890123456789012345678901234567890\n', 'snapshotMissing'],
  ['fatal: 1234567890123456789012345678901234567890 is not a valid object\n', 'snapshotMissing'],
  [
    "fatal: Unable to create '/r/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository",
    'locked',
  ],
  [
    "error: cannot lock ref 'refs/agent-ledger/snapshots/x': Unable to create '/r/.git/refs/agent-ledger/snapshots/x.lock': File exists.\n",
    'locked',
  ],
  [
    'error: open("secret.txt"): Permission denied\nerror: unable to index file \'secret.txt\'\nfatal: adding files failed\n',
    'permissionDenied',
  ],
  ['fatal: something nobody expected\n', 'commandFailed'],
];

test('toGitError maps literal git stderr to one reason each', () => {
  for (const [stderr, reason] of cases) {
    const error = toGitError({ args: ['x'], exitCode: 128, stderr });
    assert.equal(error.reason, reason, stderr);
    if (reason === 'notARepository') assert.doesNotMatch(error.message, /fatal|rev-parse|\.git/, 'a plain sentence');
  }
});

test('a missing git binary is gitNotFound; messages name the command without our -c settings', () => {
  const missing = toGitError({ args: ['status'], exitCode: null, stderr: '', spawnErrorCode: 'ENOENT' });
  assert.equal(missing.reason, 'gitNotFound');
  assert.match(missing.message, /Git was not found on PATH/);
  const failed = toGitError({
    args: ['-c', 'core.hooksPath=/x', 'add', '--all'],
    exitCode: 128,
    stderr: 'fatal: boom\n',
  });
  assert.equal(failed.message, 'git add --all failed: fatal: boom');
  assert.equal(failed.stderr, 'fatal: boom\n');
});

test('GitError is a LedgerError carrying code GitError and its reason', () => {
  const error = new GitError('unsupported', 'no');
  assert.ok(error instanceof LedgerError);
  assert.ok(LedgerError.is(error, 'GitError'));
  assert.ok(GitError.is(error, 'unsupported'));
  assert.equal(GitError.is(error, 'locked'), false);
  assert.deepEqual(error.toJSON(), {
    code: -32008,
    reason: 'GitError',
    message: 'no',
    data: { reason: 'unsupported' },
  });
});
