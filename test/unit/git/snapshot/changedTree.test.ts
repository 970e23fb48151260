// A snapshot of a changed work tree is built from git status's report (changedTree.ts): only the
// changed folders' trees, written in-process. Its tree must be byte for byte the one
// `git add -A && git write-tree` gives on a copy of the user's index, whatever the edits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FolderScope } from '../../../../src/git/folderScope';
import { GitRepo, gitProcessesStarted } from '../../../../src/git/gitRepo';
import { takeSnapshot } from '../../../../src/git/snapshot/snapshot';
import { treeRoutesTaken } from '../../../../src/git/snapshot/workingTree';
import type { TreeRoute } from '../../../../src/git/snapshot/workingTree';
import { commit, git, makeRepo, userState, write } from '../gitFixture';
import { tempDir } from '../../../helpers/tmp';

const whole = new FolderScope('');

/** The reference: `git add -A && git write-tree` on a copy of the user's index (the user's own index is not touched). */
function referenceTree(root: string): string {
  const copy = path.join(tempDir('agent-ledger-reference-'), 'index');
  const index = path.join(root, '.git', 'index');
  if (fs.existsSync(index)) fs.copyFileSync(index, copy);
  const env = { ...process.env, GIT_INDEX_FILE: copy };
  execFileSync('git', ['add', '-A'], { cwd: root, env, stdio: 'pipe' });
  return execFileSync('git', ['write-tree'], { cwd: root, env, encoding: 'utf8' }).trim();
}

/** Takes a snapshot, returns its tree id and the route that built it. */
async function snapshotTree(root: string): Promise<{ tree: string; route: TreeRoute | 'none' }> {
  const before = treeRoutesTaken();
  const { snapshot } = await takeSnapshot(await GitRepo.open(root), 'test', whole);
  const after = treeRoutesTaken();
  const route = (Object.keys(after) as TreeRoute[]).find((r) => after[r] !== before[r]) ?? 'none';
  return { tree: git(root, 'rev-parse', `${snapshot.id}^{tree}`).trim(), route };
}

async function assertExact(root: string, why: string): Promise<TreeRoute | 'none'> {
  const { tree, route } = await snapshotTree(root);
  assert.equal(tree, referenceTree(root), `${why} (route ${route}): the snapshot's tree is add -A + write-tree's`);
  return route;
}

/** A small deterministic random generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes `file`, replacing whatever non-folder stands where one of its folders must be (a file, a symlink). */
function put(root: string, file: string, content: string): void {
  const parts = file.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = path.join(root, ...parts.slice(0, i));
    const st = fs.lstatSync(folder, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) fs.rmSync(folder);
  }
  const full = path.join(root, file);
  if (fs.lstatSync(full, { throwIfNoEntry: false })?.isDirectory()) fs.rmSync(full, { recursive: true });
  write(root, { [file]: content });
}

function files(root: string, under = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (rel === '.git') continue;
    if (entry.isDirectory()) out.push(...files(root, rel));
    else out.push(rel);
  }
  return out.sort();
}

function folders(root: string, under = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory() && rel !== '.git') out.push(rel, ...folders(root, rel));
  }
  return out.sort();
}

test('random edits — adds, deletes, modes, nested folders, files ⇄ folders, symlinks, ignored and filtered files — give add -A + write-tree’s tree', async () => {
  const outside = tempDir('agent-ledger-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  const root = makeRepo({
    '.gitignore': 'build/\n*.log\n',
    '.gitattributes': '*.txt text\n*.up filter=up\n*.auto text=auto\n',
    'a/a-b': '1\n',
    'a/a.b': '2\n',
    'a/a0': '3\n',
    'a/b/c.txt': 'c\n',
    'docs/readme.txt': 'r\n',
    'docs/guide/one.md': 'o\n',
    'space name/ü.txt': 'u\n',
    'run.sh': 'echo\n',
    'data.up': 'lower\n',
  });
  git(root, 'config', 'filter.up.clean', 'tr a-z A-Z');
  const next = random(14);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const name = () => pick(['a', 'a-b', 'a.b', 'a0', 'b', 'x y', 'é', 'new', 'deep']);
  const edits: ((why: string[]) => void)[] = [
    (why) => {
      const file = [
        pick(['', 'a', 'a/b', 'docs', 'new/nested/deeper', 'space name', 'build']),
        `${name()}.${pick(['txt', 'md', 'log', 'up', 'auto', 'js'])}`,
      ]
        .filter(Boolean)
        .join('/');
      const crlf = next() < 0.3;
      put(root, file, `content ${next()}${crlf ? '\r\n' : '\n'}line two${crlf ? '\r\n' : '\n'}`);
      why.push(`write ${file}`);
    },
    (why) => {
      const file = pick(files(root).filter((f) => !fs.lstatSync(path.join(root, f)).isSymbolicLink()));
      if (file) fs.appendFileSync(path.join(root, file), `more ${next()}\n`);
      why.push(`append ${file}`);
    },
    (why) => {
      const file = pick(files(root).filter((f) => f !== '.gitattributes'));
      if (file) fs.rmSync(path.join(root, file));
      why.push(`delete ${file}`);
    },
    (why) => {
      const file = pick(files(root).filter((f) => !fs.lstatSync(path.join(root, f)).isSymbolicLink()));
      if (file) fs.chmodSync(path.join(root, file), fs.statSync(path.join(root, file)).mode & 0o100 ? 0o644 : 0o755);
      why.push(`chmod ${file}`);
    },
    (why) => {
      // A file becomes a folder of the same name.
      const file = pick(files(root).filter((f) => f !== '.gitattributes' && f !== '.gitignore'));
      if (!file) return;
      fs.rmSync(path.join(root, file));
      put(root, `${file}/inside/${name()}.txt`, `was a file ${next()}\n`);
      why.push(`file→folder ${file}`);
    },
    (why) => {
      // A folder becomes a file of the same name.
      const folder = pick(folders(root));
      if (!folder) return;
      fs.rmSync(path.join(root, folder), { recursive: true });
      put(root, folder, `was a folder ${next()}\n`);
      why.push(`folder→file ${folder}`);
    },
    (why) => {
      const link = [pick(['', 'a', 'docs']), `link-${name()}`].filter(Boolean).join('/');
      fs.rmSync(path.join(root, link), { recursive: true, force: true });
      put(root, `${link}.tmp`, '');
      fs.rmSync(path.join(root, `${link}.tmp`));
      const target = pick(['../run.sh', 'a0', path.join(outside, 'secret.txt'), outside, 'missing/nowhere']);
      fs.symlinkSync(target, path.join(root, link));
      why.push(`symlink ${link} → ${target}`);
    },
    (why) => {
      // A tracked or untracked file becomes a symlink, or a symlink a file.
      const file = pick(files(root).filter((f) => f !== '.gitattributes' && f !== '.gitignore'));
      if (!file) return;
      const full = path.join(root, file);
      const wasLink = fs.lstatSync(full).isSymbolicLink();
      fs.rmSync(full);
      if (wasLink) fs.writeFileSync(full, `now a file ${next()}\n`);
      else fs.symlinkSync('run.sh', full);
      why.push(`${wasLink ? 'link→file' : 'file→link'} ${file}`);
    },
    (why) => {
      const file = pick(files(root));
      if (file) git(root, 'add', '-A', '--', file);
      why.push(`stage ${file}`);
    },
    (why) => {
      put(root, `intent/${name()}.txt`, `intent ${next()}\n`);
      git(root, 'add', '-N', 'intent');
      why.push('intent-to-add');
    },
    (why) => {
      if (next() < 0.5) write(root, { '.gitignore': pick(['build/\n*.log\n', 'build/\n*.log\nnew/\n', '*.md\n']) });
      commit(root, 'user commit');
      why.push('commit');
    },
  ];
  const routes: string[] = [];
  for (let round = 0; round < 40; round++) {
    const why: string[] = [];
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) pick(edits)(why);
    routes.push(await assertExact(root, `round ${round}: ${why.join(', ')}`));
  }
  const built = routes.filter((r) => r === 'changedTrees').length;
  assert.ok(built >= 20, `most rounds were built from the changed trees (routes: ${routes.join(' ')})`);
  assert.equal(routes.filter((r) => r === 'full').length, 0, 'the full route was never needed');
});

test('a changed work tree costs status alone — no add, no write-tree, no hash-object where nothing converts files; HEAD’s folders come from a cat-file kept running — and leaves the user’s state alone', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'src/m/x.ts': 'x\n', 'src/n/y.ts': 'y\n' });
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'warm', whole);
  write(root, { 'src/m/x.ts': 'edited\n', 'src/new/deep/z.ts': 'z\n', 'top.txt': 't\n' });
  fs.rmSync(path.join(root, 'src', 'n', 'y.ts'));
  const before = userState(root);
  let started = gitProcessesStarted();
  const first = await takeSnapshot(repo, 'first', whole);
  assert.equal(
    gitProcessesStarted() - started,
    2,
    'status, and the cat-file reader started once (blobs written here: no attribute, no autocrlf)',
  );
  assert.equal(git(root, 'rev-parse', `${first.snapshot.id}^{tree}`).trim(), referenceTree(root));
  assert.deepEqual(userState(root), before);
  git(root, 'fsck', '--no-dangling', '--strict');
  write(root, { 'src/m/x.ts': 'again\n' });
  started = gitProcessesStarted();
  const routes = treeRoutesTaken().changedTrees;
  const second = await takeSnapshot(repo, 'second', whole);
  assert.equal(gitProcessesStarted() - started, 1, 'status: the reader kept running, the blob written here');
  assert.equal(treeRoutesTaken().changedTrees, routes + 1);
  assert.equal(git(root, 'rev-parse', `${second.snapshot.id}^{tree}`).trim(), referenceTree(root));
  // Only deletions and a symlink: no work file to hash — status alone.
  commit(root, 'base');
  await takeSnapshot(repo, 'warm', whole);
  fs.rmSync(path.join(root, 'a.txt'));
  fs.symlinkSync('top.txt', path.join(root, 'link'));
  started = gitProcessesStarted();
  const third = await takeSnapshot(repo, 'third', whole);
  assert.equal(gitProcessesStarted() - started, 1, 'status only');
  assert.equal(git(root, 'rev-parse', `${third.snapshot.id}^{tree}`).trim(), referenceTree(root));
});

test('the running cat-file reader reads HEAD after gc repacked and pruned everything, and after new commits', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
  const repo = await GitRepo.open(root);
  write(root, { 'dir/c.txt': 'c\n' });
  await assertExact(root, 'first, reader started');
  commit(root, 'second commit');
  git(root, 'gc', '--prune=now', '--quiet');
  write(root, { 'dir/d.txt': 'd\n', 'a.txt': 'edited\n' });
  const started = gitProcessesStarted();
  const { snapshot } = await takeSnapshot(repo, 'after gc', whole);
  assert.equal(
    gitProcessesStarted() - started,
    2,
    'a new kept index (the user committed), status: the same reader answered',
  );
  assert.equal(git(root, 'rev-parse', `${snapshot.id}^{tree}`).trim(), referenceTree(root));
  assert.equal(git(root, 'show', `${snapshot.id}:dir/c.txt`), 'c\n');
});

test('a tracked file whose index holds CRLF keeps it under text=auto (the index route), and new CRLF files are converted', async () => {
  const root = makeRepo({ 'win.auto': 'one\r\ntwo\r\n' }); // committed with CRLF, before any attribute
  write(root, { '.gitattributes': '*.auto text=auto\n' });
  commit(root, 'attributes');
  write(root, { 'win.auto': 'one\r\ntwo\r\nthree\r\n', 'fresh.auto': 'new\r\nfile\r\n' });
  const route = await assertExact(root, 'CRLF kept in the tracked file, converted in the new one');
  assert.equal(route, 'index', 'hash-object cannot see the CRLF already in the index: left to git add');
  const { tree } = await snapshotTree(root);
  assert.equal(git(root, 'cat-file', 'blob', `${tree}:win.auto`), 'one\r\ntwo\r\nthree\r\n');
  assert.equal(git(root, 'cat-file', 'blob', `${tree}:fresh.auto`), 'new\nfile\n');
});

test('names that are not UTF-8, and names sorting around a folder, are exact', async () => {
  const root = makeRepo({ 'a/inner.txt': 'i\n', 'a-b': '1\n', 'a.b': '2\n', a0: '3\n' });
  const latin1 = Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]);
  fs.writeFileSync(latin1, 'bytes\n');
  write(root, { 'a/inner.txt': 'edited\n', 'a.c': 'c\n', 'a/z/deep.txt': 'd\n' });
  assert.equal(await assertExact(root, 'latin-1 name, folder a among a-b, a.b, a0'), 'changedTrees');
});

test('an untracked repository inside the work tree is recorded as add -A records it (the index route)', async () => {
  const root = makeRepo({ 'a.txt': 'a\n' });
  const nested = path.join(root, 'vendor', 'lib');
  fs.mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q', '-b', 'main');
  write(nested, { 'l.txt': 'l\n' });
  commit(nested, 'nested');
  write(root, { 'a.txt': 'edited\n' });
  assert.equal(await assertExact(root, 'nested repository'), 'index');
});

test('a cat-file reader that died while idle is replaced at once, and the snapshot stays exact', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
  const repo = await GitRepo.open(root);
  write(root, { 'dir/c.txt': 'c\n' });
  await takeSnapshot(repo, 'reader started', whole);
  const readers = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'cat-file --batch'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
  assert.ok(readers.length >= 1, 'a reader runs');
  for (const pid of readers) process.kill(Number(pid), 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 200));
  write(root, { 'dir/d.txt': 'd\n' });
  const t0 = performance.now();
  const { tree, route } = await snapshotTree(root);
  assert.ok(performance.now() - t0 < 5_000, 'no wait for a dead reader');
  assert.equal(route, 'changedTrees');
  assert.equal(tree, referenceTree(root));
});

test('a SHA-256 repository gets its trees built the same way, with 32-byte ids', async () => {
  const root = tempDir('agent-ledger-sha256-');
  git(root, 'init', '-q', '--object-format=sha256', '-b', 'main');
  write(root, { 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'dir/sub/c.txt': 'c\n' });
  commit(root, 'first');
  await takeSnapshot(await GitRepo.open(root), 'warm', whole);
  write(root, { 'dir/sub/c.txt': 'edited\n', 'dir/new/d.txt': 'd\n' });
  fs.rmSync(path.join(root, 'a.txt'));
  fs.symlinkSync('dir/b.txt', path.join(root, 'link'));
  assert.equal(await assertExact(root, 'sha256'), 'changedTrees');
  assert.match(referenceTree(root), /^[0-9a-f]{64}$/);
});
