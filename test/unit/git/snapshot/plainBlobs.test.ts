// Changed work files are hashed in this process where git would store their bytes unchanged
// (plainBlobs.ts), and by `git hash-object` wherever a setting or an attribute could convert them.
// Each snapshot must still be byte for byte `git add -A && git write-tree`'s tree — also when a
// setting appears or goes between two snapshots of one process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FolderScope } from '../../../../src/git/folderScope';
import { GitRepo, gitProcessesStarted } from '../../../../src/git/gitRepo';
import { blobRoutesTaken, blobSettingsAsked, parseConfig, readWorkFile } from '../../../../src/git/snapshot/plainBlobs';
import { takeSnapshot } from '../../../../src/git/snapshot/snapshot';
import { git, makeRepo, write } from '../gitFixture';
import { tempDir } from '../../../helpers/tmp';

const whole = new FolderScope('');

function referenceTree(root: string): string {
  const copy = path.join(tempDir('agent-ledger-reference-'), 'index');
  fs.copyFileSync(path.join(root, '.git', 'index'), copy);
  const env = { ...process.env, GIT_INDEX_FILE: copy };
  execFileSync('git', ['add', '-A'], { cwd: root, env, stdio: 'pipe' });
  return execFileSync('git', ['write-tree'], { cwd: root, env, encoding: 'utf8' }).trim();
}

/**
 * Commits, then makes every tracked file older than the user's index, as a user's files are a
 * moment later: git re-reads a "racy" entry (written in the index's own second) under whatever
 * attributes hold by then, and a file whose stat data is clean under none (as `git add -A` does
 * on any index that is not racy) — the reference must not depend on the clock.
 */
function commitSettled(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', message);
  const old = new Date(Date.now() - 100_000);
  for (const f of git(root, 'ls-files', '-z').split('\0').filter(Boolean)) {
    const file = path.join(root, f);
    if (!fs.lstatSync(file).isSymbolicLink()) fs.utimesSync(file, old, old);
  }
  git(root, 'update-index', '-q', '--really-refresh');
}

/** Snapshots, checks the tree against the reference, and says how the blobs were written. */
async function exactSnapshot(repo: GitRepo, why: string): Promise<'plain' | 'hashObject' | 'none'> {
  const before = blobRoutesTaken();
  const { snapshot } = await takeSnapshot(repo, 'test', whole);
  const after = blobRoutesTaken();
  assert.equal(
    git(repo.root, 'rev-parse', `${snapshot.id}^{tree}`).trim(),
    referenceTree(repo.root),
    `${why}: the snapshot's tree is add -A + write-tree's`,
  );
  assert.ok(after.plain + after.hashObject - before.plain - before.hashObject <= 1, `${why}: one way per snapshot`);
  return after.plain > before.plain ? 'plain' : after.hashObject > before.hashObject ? 'hashObject' : 'none';
}

test('changed files are hashed here when nothing converts them: status alone, loose objects git reads, the config asked once', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'src/m/x.ts': 'x\n' });
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'warm', whole);
  const asked = blobSettingsAsked();
  for (let i = 0; i < 3; i++) {
    write(root, { 'src/m/x.ts': `edited ${i}\n`, [`src/new${i}/y.bin`]: Buffer.from([0, 1, 2, 13, 10, i]) });
    fs.chmodSync(path.join(root, `src/new${i}/y.bin`), 0o755);
    const started = gitProcessesStarted();
    assert.equal(await exactSnapshot(repo, `edit ${i}`), 'plain');
    assert.equal(gitProcessesStarted() - started, i === 0 ? 2 : 1, 'status (and the cat-file reader, started once)');
  }
  const { snapshot } = await takeSnapshot(repo, 'last', whole);
  assert.equal(
    git(root, 'ls-tree', `${snapshot.id}`, 'src/new2/y.bin').split(' ')[0],
    '100755',
    'the executable bit counts (core.fileMode)',
  );
  assert.equal(blobSettingsAsked(), asked, 'the configuration did not change: not asked again');
  git(root, 'fsck', '--strict', '--no-dangling');
});

test('a setting or an attribute that appears between two snapshots hands the files to hash-object; once gone, they are hashed here again', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n', '.gitignore': 'ignored-attrs/\nother/.gitattributes\n' });
  commitSettled(root, 'settled');
  const repo = await GitRepo.open(root);
  await takeSnapshot(repo, 'warm', whole);
  const config = path.join(root, '.git', 'config');
  const original = fs.readFileSync(config, 'utf8');
  const outside = tempDir('agent-ledger-attrs-');
  let n = 0;
  const step = async (why: string, expected: 'plain' | 'hashObject' | 'none', change: () => void) => {
    change();
    // A new CRLF file in each folder: any conversion changes its blob.
    n++;
    const files = [`new${n}.txt`, `sub/new${n}.txt`, `other/new${n}.txt`, `ignored-attrs/deep/new${n}.txt`];
    write(root, Object.fromEntries(files.map((f) => [f, `${f}\r\n`])));
    assert.equal(await exactSnapshot(repo, why), expected, why);
    // Never committed: a tracked file with CRLF goes to the index route (changedTree.ts).
    for (const f of files) fs.rmSync(path.join(root, f));
  };
  await step('nothing set', 'plain', () => undefined);
  await step('core.autocrlf=true', 'hashObject', () => git(root, 'config', 'core.autocrlf', 'true'));
  await step('core.autocrlf=input', 'hashObject', () => git(root, 'config', 'core.autocrlf', 'input'));
  await step('core.autocrlf=false', 'plain', () => git(root, 'config', 'core.autocrlf', 'false'));
  await step('a filter and info/attributes', 'hashObject', () => {
    git(root, 'config', 'filter.up.clean', 'tr a-z A-Z');
    write(root, { '.git/info/attributes': '*.txt filter=up\n' });
  });
  await step('info/attributes gone', 'plain', () => fs.rmSync(path.join(root, '.git', 'info', 'attributes')));
  await step('an untracked sub/.gitattributes (left to git add)', 'none', () =>
    write(root, { 'sub/.gitattributes': '*.txt text\n' }),
  );
  await step('sub/.gitattributes committed', 'hashObject', () => commitSettled(root, 'attributes'));
  // git add reads it from the index: left to git add (the index route), no blob hashed by either way.
  await step('sub/.gitattributes deleted (still in the index)', 'none', () =>
    fs.rmSync(path.join(root, 'sub', '.gitattributes')),
  );
  await step('the deletion committed', 'plain', () => commitSettled(root, 'no attributes'));
  await step('an ignored .gitattributes on the way', 'hashObject', () =>
    write(root, { 'other/.gitattributes': '*.txt filter=up\n' }),
  );
  await step('gone again', 'plain', () => fs.rmSync(path.join(root, 'other', '.gitattributes')));
  await step('a .gitattributes inside an ignored folder applies to nothing snapshotted', 'plain', () =>
    write(root, { 'ignored-attrs/.gitattributes': '*.txt filter=up\n' }),
  );
  await step('core.attributesFile', 'hashObject', () => {
    write(outside, { attributes: '*.txt text\n' });
    git(root, 'config', 'core.attributesFile', path.join(outside, 'attributes'));
  });
  await step('core.attributesFile unset', 'plain', () => git(root, 'config', '--unset', 'core.attributesFile'));
  await step('an included config file', 'hashObject', () => {
    write(outside, { included: '[core]\n\tautocrlf = true\n' });
    git(root, 'config', 'include.path', path.join(outside, 'included'));
  });
  await step('the config written back as it was', 'plain', () => fs.writeFileSync(config, original));
  await step('core.autocrlf set in the global config', 'hashObject', () =>
    fs.appendFileSync(process.env.GIT_CONFIG_GLOBAL!, '[core]\n\tautocrlf = true\n'),
  );
  await step('the global config emptied', 'plain', () => fs.writeFileSync(process.env.GIT_CONFIG_GLOBAL!, ''));
});

test('random edits with settings and attributes coming and going give add -A + write-tree’s tree, in both ways', async () => {
  const root = makeRepo({ 'a.txt': 'a\n', 'a/b/c.txt': 'c\n', 'docs/r.md': 'r\n', 'run.sh': 'echo\n' });
  commitSettled(root, 'settled');
  const repo = await GitRepo.open(root);
  const config = path.join(root, '.git', 'config');
  const original = fs.readFileSync(config, 'utf8');
  git(root, 'config', 'filter.up.clean', 'tr a-z A-Z');
  const withFilter = fs.readFileSync(config, 'utf8');
  let seed = 8;
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const folder = () => pick(['', 'a', 'a/b', 'docs', 'new/deep']);
  const at = (f: string, name: string) => (f ? `${f}/${name}` : name);
  const writeFile = (why: string[]) => {
    const file = at(folder(), `${pick(['x', 'y', 'z'])}.${pick(['txt', 'md', 'up'])}`);
    const eol = next() < 0.2 ? '\r\n' : '\n';
    write(root, { [file]: `Content ${next()}${eol}two${eol}` });
    if (next() < 0.2) fs.chmodSync(path.join(root, file), 0o755);
    why.push(`write ${file}`);
  };
  const edits: ((why: string[]) => void)[] = [
    writeFile,
    writeFile,
    (why) => {
      const file = at(folder(), `${pick(['x', 'y', 'z'])}.${pick(['txt', 'md', 'up'])}`);
      const eol = next() < 0.2 ? '\r\n' : '\n';
      write(root, { [file]: `Content ${next()}${eol}two${eol}` });
      if (next() < 0.2) fs.chmodSync(path.join(root, file), 0o755);
      why.push(`write ${file}`);
    },
    (why) => {
      const file = at(folder(), '.gitattributes');
      write(root, { [file]: pick(['*.txt text\n', '*.up filter=up\n', '*.md text eol=crlf\n', '*.txt -text\n']) });
      why.push(`attributes ${file}`);
    },
    (why) => {
      const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
        .split('\n')
        .filter((f) => f.endsWith('.gitattributes'));
      const file = files.length ? pick(files) : null;
      if (file) fs.rmSync(path.join(root, file), { force: true });
      why.push(`no attributes ${file}`);
    },
    (why) => {
      const value = pick(['true', 'false', 'input', null, null]);
      fs.writeFileSync(config, pick([original, withFilter]));
      if (value) git(root, 'config', 'core.autocrlf', value);
      why.push(`autocrlf ${value}`);
    },
    (why) => {
      if (next() < 0.5) write(root, { '.git/info/attributes': '*.txt filter=up\n' });
      else fs.rmSync(path.join(root, '.git', 'info', 'attributes'), { force: true });
      why.push('info/attributes');
    },
    (why) => {
      commitSettled(root, 'user commit');
      why.push('commit');
    },
  ];
  const ways: string[] = [];
  for (let round = 0; round < 30; round++) {
    const why: string[] = [];
    for (let k = 1 + Math.floor(next() * 3); k > 0; k--) pick(edits)(why);
    // Always one changed file to hash (never committed: a tracked file with CRLF goes to the index route).
    const file = at(folder(), `round${round}.txt`);
    write(root, { [file]: `Round ${round}\r\n` });
    ways.push(await exactSnapshot(repo, `round ${round}: ${why.join(', ')}`));
    fs.rmSync(path.join(root, file));
  }
  assert.ok(ways.filter((w) => w === 'plain').length >= 4, `some rounds hashed here (${ways.join(' ')})`);
  assert.ok(ways.filter((w) => w === 'hashObject').length >= 5, `some rounds by hash-object (${ways.join(' ')})`);
});

test('the settings parser refuses what it cannot follow', () => {
  const list = (...records: string[]) => records.map((r) => `file:/x\0${r}\0`).join('');
  assert.deepEqual(parseConfig(list('core.filemode\nfalse', 'core.autocrlf\nfalse')).settings, {
    plain: true,
    fileMode: false,
  });
  assert.equal(
    parseConfig(list('core.autocrlf\nfalse', 'core.autocrlf\ntrue')).settings.plain,
    false,
    'the last value counts',
  );
  assert.equal(parseConfig(list('core.autocrlf')).settings.plain, false, 'a key without a value is true');
  assert.equal(parseConfig(list('includeIf.onbranch:main.path\n/y')).settings.plain, false);
  assert.equal(parseConfig(list('attr.tree\nHEAD')).settings.plain, false);
  assert.equal(parseConfig(list('core.attributesFile\n/z')).settings.plain, false);
  assert.equal(parseConfig(list('core.filemode\nmaybe')).settings.plain, false);
  assert.deepEqual(parseConfig(list('user.name\nx')).origins, ['/x']);
});

test('a work file is never read through a symlink', async () => {
  const outside = tempDir('agent-ledger-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  const root = makeRepo({ 'a.txt': 'a\n' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
  assert.equal(readWorkFile(Buffer.from(path.join(root, 'link.txt')), 1024), null);
  assert.equal(readWorkFile(Buffer.from(path.join(root, 'a.txt')), 1024)?.toString(), 'a\n');
  assert.equal(readWorkFile(Buffer.from(path.join(root, 'a.txt')), 1), null, 'larger than the limit');
});
