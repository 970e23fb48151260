import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { GitError } from '../../../src/git/errors';
import { GitRepo } from '../../../src/git/gitRepo';
import { openWorkspaceTruth } from '../../../src/git/workspaceTruth';
import { tempDir } from '../../helpers/tmp';
import { makeRepo } from './gitFixture';

test('openWorkspaceTruth picks Git inside a work tree (also from a subfolder) and checksums elsewhere', async () => {
  const root = makeRepo({ 'pkg/a.txt': 'a\n' });
  const fromRoot = await openWorkspaceTruth(root, path.join(root, '.agent-ledger', 'snapshots'));
  assert.equal(fromRoot.kind, 'git');
  assert.equal(fromRoot.root, root);
  const fromSub = await openWorkspaceTruth(
    path.join(root, 'pkg'),
    path.join(root, 'pkg', '.agent-ledger', 'snapshots'),
  );
  assert.equal(fromSub.kind, 'git');
  assert.equal(fromSub.root, root);
  const plain = tempDir();
  const outside = await openWorkspaceTruth(plain, path.join(plain, '.agent-ledger', 'snapshots'));
  assert.equal(outside.kind, 'checksum');
  assert.equal(outside.root, plain);
});

test('without git on PATH: a clear gitNotFound in a repository, checksums outside one', async () => {
  const root = makeRepo();
  const plain = tempDir();
  const savedPath = process.env.PATH;
  process.env.PATH = tempDir(); // an empty folder: no git to be found
  try {
    const error = await GitRepo.open(root).catch((ex: unknown) => ex);
    assert.ok(GitError.is(error, 'gitNotFound'), String(error));
    assert.match((error as Error).message, /Git was not found on PATH/);
    await assert.rejects(openWorkspaceTruth(root, path.join(root, '.agent-ledger')), (ex) =>
      GitError.is(ex, 'gitNotFound'),
    );
    assert.equal((await openWorkspaceTruth(plain, path.join(plain, '.agent-ledger'))).kind, 'checksum');
  } finally {
    process.env.PATH = savedPath;
  }
});

test('GitError is a LedgerError with code GitError, so every layer above reports it', async () => {
  const outside = tempDir();
  const error = await GitRepo.open(outside).catch((ex: unknown) => ex);
  assert.ok(GitError.is(error, 'notARepository'));
  assert.equal(
    (error as GitError).message,
    `${outside} is not in a Git repository, and this needs one: run git init there and commit once.`,
    'one plain sentence, none of git’s own text',
  );
  assert.equal((error as GitError).code, 'GitError');
  assert.deepEqual((error as GitError).toJSON().data, { reason: 'notARepository' });
  assert.equal(GitError.is(new Error('x')), false);
  assert.equal(GitError.is(error, 'gitNotFound'), false);
});
