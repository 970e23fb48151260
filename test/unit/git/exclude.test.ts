import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureExcluded } from '../../../src/git/exclude';
import { gitProcessesStarted } from '../../../src/git/gitRepo';
import { tempDir } from '../../helpers/tmp';
import { git, makeRepo, write } from './gitFixture';

const patterns = ['.agent-ledger/ledger.*', '.agent-ledger/worktrees/', '.agent-ledger/snapshots/'];

test('ensureExcluded appends missing lines once and keeps what was there byte for byte', async () => {
  const root = makeRepo();
  const exclude = path.join(root, '.git', 'info', 'exclude');
  fs.writeFileSync(exclude, '# user comment\n*.swp\n.agent-ledger/worktrees/'); // no final newline
  const added = await ensureExcluded(root, patterns);
  assert.deepEqual(added, ['.agent-ledger/ledger.*', '.agent-ledger/snapshots/']);
  const text = fs.readFileSync(exclude, 'utf8');
  assert.ok(text.startsWith('# user comment\n*.swp\n.agent-ledger/worktrees/\n'), text);
  assert.deepEqual(await ensureExcluded(root, patterns), []);
  assert.equal(fs.readFileSync(exclude, 'utf8'), text, 'a second call changes nothing');
  for (const line of patterns) assert.equal(text.split('\n').filter((l) => l === line).length, 1, line);
});

test('the excluded files really are ignored by git, and the info folder is created when missing', async () => {
  const root = makeRepo();
  fs.rmSync(path.join(root, '.git', 'info'), { recursive: true, force: true });
  await ensureExcluded(root, patterns);
  write(root, {
    '.agent-ledger/ledger.db': 'db',
    '.agent-ledger/ledger.journal': 'j',
    '.agent-ledger/snapshots/x.json': '{}',
    '.agent-ledger/memory/note.md': 'committed on purpose',
  });
  const status = git(root, 'status', '--porcelain', '--untracked-files=all');
  assert.equal(status, '?? .agent-ledger/memory/note.md\n');
});

test('a workspace in a subfolder gets its patterns prefixed, glob characters escaped', async () => {
  const root = makeRepo();
  const workspace = path.join(root, 'apps', 'web [beta]');
  fs.mkdirSync(workspace, { recursive: true });
  const added = await ensureExcluded(workspace, patterns);
  assert.deepEqual(
    added,
    patterns.map((p) => `apps/web \\[beta]/${p}`),
  );
  write(workspace, { '.agent-ledger/ledger.db': 'db', 'src.ts': 'x' });
  write(root, { '.agent-ledger/ledger.db': 'not this workspace' });
  const status = git(root, 'status', '--porcelain', '--untracked-files=all');
  assert.deepEqual(status.split('\n').filter(Boolean).sort(), [
    '?? "apps/web [beta]/src.ts"',
    '?? .agent-ledger/ledger.db',
  ]);
});

test('in a linked worktree the common info/exclude is used; outside Git nothing happens', async () => {
  const root = makeRepo();
  const linked = `${root}-wt`;
  git(root, 'worktree', 'add', '-q', linked);
  try {
    await ensureExcluded(linked, patterns);
    assert.match(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), /\.agent-ledger\/worktrees\//);
  } finally {
    fs.rmSync(linked, { recursive: true, force: true });
  }
  const plain = tempDir();
  assert.deepEqual(await ensureExcluded(plain, patterns), []);
  assert.deepEqual(fs.readdirSync(plain), []);
});

test('at the top of an ordinary repository no git process is started; a .git that is a link is left to git', async () => {
  const root = makeRepo();
  const before = gitProcessesStarted();
  assert.deepEqual(await ensureExcluded(root, patterns), patterns);
  assert.equal(gitProcessesStarted(), before, 'the common case reads .git itself');
  // The same lines git would have named: the files are ignored.
  write(root, { '.agent-ledger/ledger.db': 'db' });
  assert.equal(git(root, 'status', '--porcelain', '--untracked-files=all'), '');

  const elsewhere = makeRepo();
  const linked = tempDir();
  fs.renameSync(path.join(elsewhere, '.git'), path.join(linked, 'git-folder'));
  fs.symlinkSync(path.join(linked, 'git-folder'), path.join(elsewhere, '.git'));
  const started = gitProcessesStarted();
  await ensureExcluded(elsewhere, patterns);
  assert.equal(gitProcessesStarted(), started + 1, 'a linked .git is resolved by git');
  assert.match(
    fs.readFileSync(path.join(linked, 'git-folder', 'info', 'exclude'), 'utf8'),
    /\.agent-ledger\/ledger\.\*/,
  );
});
