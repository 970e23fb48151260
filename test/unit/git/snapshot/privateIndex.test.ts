// The fast snapshot route (persistent private index + git status) must give exactly the tree
// the full route (a fresh copy of the user's index + `git add --all`) gives, whatever happened
// to the kept index or to the user's repository since the last snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitError } from '../../../../src/git/errors';
import { FolderScope } from '../../../../src/git/folderScope';
import { GitRepo, gitProcessesStarted } from '../../../../src/git/gitRepo';
import { GitWorkspaceTruth } from '../../../../src/git/gitWorkspaceTruth';
import { takeSnapshot } from '../../../../src/git/snapshot/snapshot';
import { commit, git, keptPrivateIndex, makeRepo, userState, write } from '../gitFixture';
import { tempDir } from '../../../helpers/tmp';

const whole = new FolderScope('');

function keptIndexes(root: string): string[] {
  return fs.readdirSync(path.join(root, '.git')).filter((e) => keptPrivateIndex.test(e));
}

/** The tree of the fast route and of the full route, taken one after the other on the same state. */
async function bothRoutes(root: string): Promise<{ fast: string; full: string; fastId: string; head: string | null }> {
  const repo = await GitRepo.open(root);
  const fast = await takeSnapshot(repo, 'fast', whole);
  const full = await takeSnapshot(repo, 'full', whole, { route: 'full' });
  const tree = (id: string) => git(root, 'rev-parse', `${id}^{tree}`).trim();
  return {
    fast: tree(fast.snapshot.id),
    full: tree(full.snapshot.id),
    fastId: fast.snapshot.id,
    head: fast.snapshot.head,
  };
}

async function assertExact(root: string, why: string): Promise<string> {
  const { fast, full, fastId } = await bothRoutes(root);
  assert.equal(fast, full, `${why}: the fast route's tree is the full route's`);
  return fastId;
}

function listing(root: string, id: string): string {
  return git(root, 'ls-tree', '-r', '--full-tree', id);
}

test('a clean work tree is HEAD itself: one git process, no object written', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'src/b.ts': 'b\n' });
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'warm', whole); // seeds the kept index
  assert.equal(
    fs.readFileSync(path.join(root, '.git', keptIndexes(root)[0])).readUInt32BE(4),
    4,
    'kept in index format 4',
  );
  const objects = git(root, 'count-objects', '-v');
  const before = gitProcessesStarted();
  const { snapshot } = await takeSnapshot(repo, 'clean', whole);
  assert.equal(gitProcessesStarted() - before, 1, 'only git status ran');
  assert.equal(snapshot.id, snapshot.head);
  assert.equal(snapshot.id, git(root, 'rev-parse', 'HEAD').trim());
  assert.equal(git(root, 'count-objects', '-v'), objects);
});

test('a changed work tree costs status and cat-file; blobs, trees and the commit object are written in-process', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  git(root, 'gc', '--quiet'); // packs everything: the commit's fan-out folder is made here
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'warm', whole);
  write(root, { 'a.txt': 'changed\n', 'new/n.txt': 'n\n' });
  const before = gitProcessesStarted();
  const { snapshot } = await takeSnapshot(repo, 'dirty', whole);
  assert.equal(gitProcessesStarted() - before, 2);
  assert.equal(git(root, 'cat-file', '-t', snapshot.id).trim(), 'commit');
  git(root, 'fsck', '--no-dangling', '--strict');
  assert.equal(git(root, 'rev-parse', `${snapshot.id}^`).trim(), snapshot.head);
  assert.match(
    git(root, 'log', '-1', '--format=%s|%an <%ae>|%cn', snapshot.id).trim(),
    /^agent-ledger snapshot dirty\|Agent Ledger <agent-ledger@localhost>\|Agent Ledger$/,
  );
  assert.equal(git(root, 'show', `${snapshot.id}:new/n.txt`), 'n\n');
  assert.equal((await bothRoutes(root)).fast, (await bothRoutes(root)).full);
});

test('a kept index that is deleted, truncated or garbage still gives the exact snapshot, and is replaced', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
  write(root, { 'a.txt': 'edited\n', 'u.txt': 'untracked\n' });
  await assertExact(root, 'first');
  const [kept] = keptIndexes(root);
  const file = path.join(root, '.git', kept);

  fs.rmSync(file);
  await assertExact(root, 'deleted');
  assert.deepEqual(keptIndexes(root), [kept], 'copied again under the same name');

  fs.truncateSync(file, 40);
  await assertExact(root, 'truncated');
  const size = fs.statSync(file).size;
  assert.ok(size > 40, 'the truncated copy was replaced');

  const garbage = fs.readFileSync(file);
  garbage.fill(0x41, 12, garbage.length - 20); // keeps "DIRC", version and count
  fs.writeFileSync(file, garbage);
  await assertExact(root, 'garbage after the header');
});

test('a kept index from another repository is never used', async () => {
  const other = makeRepo({ 'x.txt': 'x\n', 'y.txt': 'y\n' });
  await bothRoutes(other);
  const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  write(root, { 'a.txt': 'mine\n' });
  await assertExact(root, 'seeded');
  // Copied in under its own name, and planted under this repository's current name.
  const [foreign] = keptIndexes(other);
  const [mine] = keptIndexes(root);
  fs.copyFileSync(path.join(other, '.git', foreign), path.join(root, '.git', foreign));
  const id = await assertExact(root, 'foreign file beside ours');
  assert.deepEqual(
    listing(root, id)
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[1]),
    ['a.txt', 'b.txt'],
  );
  git(root, 'add', 'a.txt'); // the user's index changes: a new kept index, the others are removed
  await assertExact(root, 'after the user staged');
  assert.deepEqual(keptIndexes(root).length, 1);
  assert.ok(!keptIndexes(root).includes(foreign) && !keptIndexes(root).includes(mine));
  // A foreign index with another entry count under our current name is refused by its header.
  const current = keptIndexes(root)[0];
  write(other, { 'z.txt': 'z\n' });
  commit(other, 'three files');
  fs.rmSync(path.join(other, '.git', foreign));
  await bothRoutes(other);
  fs.copyFileSync(path.join(other, '.git', keptIndexes(other)[0]), path.join(root, '.git', current));
  await assertExact(root, 'foreign index planted under our name');
});

test("the user's checkout of another branch, a stash and a commit each give the exact snapshot", async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'shared.txt': 's\n' });
  git(root, 'checkout', '-q', '-b', 'feature');
  write(root, { 'feature.txt': 'f\n', 'a.txt': 'feature a\n' });
  commit(root, 'feature');
  git(root, 'checkout', '-q', 'main');
  write(root, { 'shared.txt': 'dirty\n', 'u.txt': 'u\n' });
  await assertExact(root, 'on main, dirty');
  git(root, 'checkout', '-q', 'feature');
  const onFeature = await assertExact(root, 'after checkout of feature (local changes carried)');
  assert.equal(git(root, 'show', `${onFeature}:feature.txt`), 'f\n');
  git(root, 'stash', 'push', '-q', '--include-untracked');
  const stashed = await assertExact(root, 'after git stash');
  assert.equal(stashed, git(root, 'rev-parse', 'HEAD').trim(), 'clean after the stash: the snapshot is HEAD');
  git(root, 'stash', 'pop', '-q');
  await assertExact(root, 'after stash pop');
  commit(root, 'everything');
  await assertExact(root, 'after a commit');
});

test('renames, deletions, mode changes, symlinks and a type change are recorded exactly', async () => {
  const root = makeRepo({
    'old.txt': 'content\n',
    'run.sh': 'echo\n',
    'gone.txt': 'g\n',
    typed: 'file\n',
    'dir/keep.txt': 'k\n',
  });
  await bothRoutes(root);
  fs.renameSync(path.join(root, 'old.txt'), path.join(root, 'new.txt'));
  fs.chmodSync(path.join(root, 'run.sh'), 0o755);
  fs.rmSync(path.join(root, 'gone.txt'));
  fs.symlinkSync('dir/keep.txt', path.join(root, 'link'));
  fs.rmSync(path.join(root, 'typed'));
  fs.symlinkSync('new.txt', path.join(root, 'typed'));
  const id = await assertExact(root, 'after the changes');
  const tree = listing(root, id);
  assert.match(tree, /^100755 blob \w+\trun\.sh$/m);
  assert.match(tree, /^120000 blob \w+\tlink$/m);
  assert.match(tree, /^120000 blob \w+\ttyped$/m);
  assert.doesNotMatch(tree, /\told\.txt$|\tgone\.txt$/m);
  fs.rmSync(path.join(root, 'link'));
  fs.symlinkSync('new.txt', path.join(root, 'link'));
  fs.chmodSync(path.join(root, 'run.sh'), 0o644);
  const again = await assertExact(root, 'symlink retargeted, mode back');
  assert.equal(git(root, 'cat-file', 'blob', `${again}:link`), 'new.txt');
});

test('files ignored later, tracked ignored files and untracked folders are exact', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', '.gitignore': 'build/\n' });
  write(root, { 'notes.log': 'n\n', 'tmp/deep/x.txt': 'x\n', 'build/out.js': 'o\n' });
  const first = await assertExact(root, 'untracked files and folder');
  assert.equal(git(root, 'show', `${first}:tmp/deep/x.txt`), 'x\n');
  assert.doesNotMatch(listing(root, first), /build\//);
  // The same files become ignored: they must leave the snapshot though earlier snapshots held them.
  write(root, { '.gitignore': 'build/\n*.log\ntmp/\n' });
  const later = await assertExact(root, 'ignored later');
  assert.doesNotMatch(listing(root, later), /notes\.log|tmp\//);
  // A file the user tracks stays although ignored.
  write(root, { 'build/forced.js': 'f\n' });
  git(root, 'add', '-f', 'build/forced.js');
  const forced = await assertExact(root, 'tracked though ignored');
  assert.match(listing(root, forced), /\tbuild\/forced\.js$/m);
  write(root, { 'build/forced.js': 'edited\n' });
  const edited = await assertExact(root, 'tracked ignored file edited');
  assert.equal(git(root, 'show', `${edited}:build/forced.js`), 'edited\n');
});

test('a same-second edit of the same size is seen (racy git), and an unmerged index is resolved as add --all does', async () => {
  const root = makeRepo({ 'a.txt': 'one\n' });
  await bothRoutes(root);
  for (let i = 0; i < 3; i++) {
    write(root, { 'a.txt': `v${i}x\n` }); // same size every time
    const id = await assertExact(root, `edit ${i}`);
    assert.equal(git(root, 'show', `${id}:a.txt`), `v${i}x\n`);
  }
  commit(root, 'base');
  git(root, 'checkout', '-q', '-b', 'side');
  write(root, { 'a.txt': 'side\n' });
  commit(root, 'side');
  git(root, 'checkout', '-q', 'main');
  write(root, { 'a.txt': 'main\n' });
  commit(root, 'main');
  assert.throws(() => git(root, 'merge', '-q', 'side'));
  const id = await assertExact(root, 'during a conflicted merge');
  assert.match(git(root, 'show', `${id}:a.txt`), /<<<<<<<|>>>>>>>/);
});

test('submodule commits moved and edited inside are exact, and the submodule index is not touched', async () => {
  const lib = makeRepo({ 'lib.txt': 'l\n' });
  const root = makeRepo({ 'top.txt': 't\n' });
  git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libs/sub');
  commit(root, 'add submodule');
  const sub = path.join(root, 'libs', 'sub');
  await assertExact(root, 'clean with a submodule');
  write(sub, { 'lib.txt': 'moved\n' });
  commit(sub, 'moved in the submodule');
  const subIndex = () => fs.readFileSync(path.join(git(sub, 'rev-parse', '--absolute-git-dir').trim(), 'index'));
  const before = subIndex();
  const moved = await assertExact(root, 'submodule HEAD moved');
  assert.equal(listing(root, moved).match(/160000 commit (\w+)\tlibs\/sub/)?.[1], git(sub, 'rev-parse', 'HEAD').trim());
  write(sub, { 'lib.txt': 'edited\n' });
  const edited = await bothRoutes(root);
  const gitlink = (id: string) => listing(root, id).match(/160000 commit (\w+)\tlibs\/sub/)?.[1];
  assert.equal(git(sub, 'show', `${gitlink(edited.fastId)}:lib.txt`), 'edited\n');
  assert.deepEqual(subIndex(), before, "the submodule's own index was not rewritten");
});

test("the user's state is untouched by the fast route, also when the kept index is rebuilt", async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  write(root, { 'a.txt': 'staged\n' });
  git(root, 'add', 'a.txt');
  write(root, { 'b.txt': 'unstaged\n', 'c.txt': 'new\n' });
  const before = userState(root);
  const truth = new GitWorkspaceTruth(await GitRepo.open(root));
  const start = await truth.snapshot('one');
  fs.rmSync(path.join(root, '.git', keptIndexes(root)[0]));
  await truth.snapshot('two');
  await truth.changesSince(start);
  assert.deepEqual(userState(root), before);
});

test('a symlink in the repository never leads a snapshot outside the workspace', async () => {
  const outside = tempDir('agent-ledger-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  const root = makeRepo({ 'a.txt': 'a\n' });
  fs.symlinkSync(outside, path.join(root, 'escape'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  const truth = new GitWorkspaceTruth(await GitRepo.open(root));
  const snap = await truth.snapshot('links');
  const tree = listing(root, snap.id);
  assert.match(tree, /^120000 blob \w+\tescape$/m, 'the folder link is recorded as a link');
  assert.match(tree, /^120000 blob \w+\tsecret-link$/m);
  assert.doesNotMatch(tree, /secret\.txt$/m, 'nothing behind the link entered the snapshot');
  assert.equal(
    git(root, 'cat-file', 'blob', `${snap.id}:secret-link`),
    path.join(outside, 'secret.txt'),
    'a link records its target, never the content',
  );
  assert.equal(await truth.fileAt(snap, 'escape/secret.txt'), null);
  assert.equal((await bothRoutes(root)).fast, (await bothRoutes(root)).full);
});

test('pins are written in-process once the refs folder exists, readable by git, surviving pack-refs and gc', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  const truth = new GitWorkspaceTruth(await GitRepo.open(root));
  write(root, { 'a.txt': 'one\n' });
  const first = await truth.snapshot('one');
  await truth.keep(first, 'task-1'); // git creates refs/agent-ledger/snapshots
  write(root, { 'a.txt': 'two\n' });
  const second = await truth.snapshot('two');
  const before = gitProcessesStarted();
  await truth.keep(second, 'task-2');
  assert.equal(gitProcessesStarted() - before, 0, 'no git process for the pin');
  assert.equal(git(root, 'rev-parse', 'refs/agent-ledger/snapshots/task-2').trim(), second.id);
  git(root, 'pack-refs', '--all');
  await truth.keep(first, 'task-2'); // over a packed ref: the loose one wins
  assert.equal(git(root, 'rev-parse', 'refs/agent-ledger/snapshots/task-2').trim(), first.id);
  await truth.keep(second, 'task-3');
  git(root, 'gc', '--prune=now', '--quiet');
  assert.equal(git(root, 'cat-file', '-t', second.id).trim(), 'commit', 'a snapshot pinned in-process survives gc');
  assert.equal(git(root, 'rev-parse', 'refs/agent-ledger/snapshots/task-3').trim(), second.id);
  // Another process updating the same ref holds its lock: refused as git would.
  const refs = path.join(root, '.git', 'refs', 'agent-ledger', 'snapshots');
  fs.mkdirSync(refs, { recursive: true }); // gc packed the refs and removed the folder
  fs.writeFileSync(path.join(refs, 'task-3.lock'), '');
  await assert.rejects(truth.keep(first, 'task-3'), (ex) => GitError.is(ex, 'locked'));
  assert.equal(git(root, 'rev-parse', 'refs/agent-ledger/snapshots/task-3').trim(), second.id);
});

test('in a shared repository the fan-out folder a commit object needs gets the objects folder’s sharing mode', async () => {
  const root = tempDir('agent-ledger-shared-');
  git(root, 'init', '-q', '--shared=group', '-b', 'main');
  write(root, { 'a.txt': 'a\n' });
  commit(root, 'first');
  git(root, 'gc', '--quiet');
  write(root, { 'a.txt': 'b\n' });
  const { snapshot } = await takeSnapshot(await GitRepo.open(root), 'shared', whole);
  const objects = path.join(root, '.git', 'objects');
  const mode = (p: string) => fs.statSync(p).mode & 0o7777;
  assert.equal(mode(path.join(objects, snapshot.id.slice(0, 2))), mode(objects));
  assert.ok(mode(objects) & 0o020, 'group-writable, as git made it');
  assert.equal(git(root, 'cat-file', '-t', snapshot.id).trim(), 'commit');
});

test('status writes the kept index back at most every 3 s: snapshots in between write nothing and stay exact, the next one refreshes it', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'first use: refreshed', whole);
  const [kept] = keptIndexes(root);
  const identity = () => {
    const st = fs.statSync(path.join(root, '.git', kept));
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  };
  const refreshed = identity();
  for (let i = 0; i < 3; i++) {
    write(root, { [`dir/new${i}.txt`]: `${i}\n`, 'a.txt': `edited ${i}\n` });
    await assertExact(root, `edit ${i} within the interval`);
    assert.equal(identity(), refreshed, `edit ${i}: the kept index was not rewritten`);
  }
  await new Promise((resolve) => setTimeout(resolve, 3_100));
  write(root, { 'dir/later.txt': 'later\n' });
  await assertExact(root, 'after the interval');
  assert.notEqual(identity(), refreshed, 'status refreshed the kept index (new files, an untracked cache to update)');
  assert.deepEqual(keptIndexes(root), [kept], 'still the one kept index');
});
