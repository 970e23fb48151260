// Trees read or written by this process are answered from a cache by their immutable names
// (treeObjects.ts): a task's second snapshot and the diff between two snapshots of this process
// ask the running cat-file for nothing, and the answers stay exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { batchRequests } from '../../../../src/git/snapshot/batchReader';
import { FolderScope } from '../../../../src/git/folderScope';
import { GitRepo } from '../../../../src/git/gitRepo';
import { parseRawDiff } from '../../../../src/git/parsers';
import { takeSnapshot } from '../../../../src/git/snapshot/snapshot';
import { diffTreesInProcess } from '../../../../src/git/snapshot/treeDiff';
import { readTrees, rememberTree } from '../../../../src/git/snapshot/treeObjects';
import { git, makeRepo, write } from '../gitFixture';

const whole = new FolderScope('');

test('the diff between two snapshots of this process, and a second snapshot, read no tree from git; both exact', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'src/m/x.ts': 'x\n', 'src/n/y.ts': 'y\n' });
  const repo = await GitRepo.open(root);
  write(root, { 'src/m/x.ts': 'edited\n', 'top.txt': 't\n' });
  const start = await takeSnapshot(repo, 'start', whole);
  // Only folders the start snapshot rebuilt (the top, src, src/m).
  write(root, { 'src/m/new.ts': 'new\n' });
  fs.chmodSync(path.join(root, 'a.txt'), 0o755);
  let asked = batchRequests();
  const end = await takeSnapshot(repo, 'end', whole);
  assert.equal(batchRequests(), asked, "HEAD's folders came from the cache");
  asked = batchRequests();
  const changes = await diffTreesInProcess(repo, start.snapshot.id, end.snapshot.id);
  assert.equal(batchRequests(), asked, 'both sides came from the cache');
  const reference = parseRawDiff(
    git(root, 'diff-tree', '-r', '-z', '--no-commit-id', '--raw', start.snapshot.id, end.snapshot.id),
  );
  assert.deepEqual(changes, reference);
  assert.deepEqual(
    changes!.map((c) => `${c.status} ${c.path}`),
    ['M a.txt', 'A src/m/new.ts'],
  );
});

test('a cached tree is handed out as a copy: changing what a caller got changes nothing cached', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  const repo = await GitRepo.open(root);
  const head = git(root, 'rev-parse', 'HEAD').trim();
  const [first] = await readTrees(repo, [`${head}^{tree}`], 'sha1');
  first!.delete('a.txt');
  const asked = batchRequests();
  const [second] = await readTrees(repo, [`${head}^{tree}`], 'sha1');
  assert.equal(batchRequests(), asked, 'from the cache');
  assert.deepEqual([...second!.keys()], ['a.txt']);
  // A name that is not immutable (a branch) is never cached.
  rememberTree('main^{tree}', new Map());
  const [byBranch] = await readTrees(repo, ['main^{tree}'], 'sha1');
  assert.equal(batchRequests(), asked + 1);
  assert.deepEqual([...byBranch!.keys()], ['a.txt']);
});

test('the cache holds a bounded number of entries: the least recently used tree goes first', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  const repo = await GitRepo.open(root);
  const big = new Map(
    Array.from({ length: 5_000 }, (_, i) => [`f${i}`, { mode: '100644', id: 'e'.repeat(40) }] as const),
  );
  const names = Array.from({ length: 5 }, (_, i) => `${String(i).repeat(40)}`);
  for (const name of names) rememberTree(name, big);
  const asked = batchRequests();
  const [last] = await readTrees(repo, [names[4]], 'sha1');
  assert.equal(batchRequests(), asked, 'the newest is held');
  assert.equal(last!.size, 5_000);
  const [first] = await readTrees(repo, [names[0]], 'sha1');
  assert.equal(batchRequests(), asked + 1, 'the oldest was dropped: asked of git');
  assert.equal(first, null, 'git has no such tree');
});
