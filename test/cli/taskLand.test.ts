// `agent-ledger task land`: a person takes a done task's branch into its base branch, on a real
// repository and store. Fast-forward, merge, rebase and a pull request; each refusal coded, with
// nothing changed — not the base branch, not the worktree, not the person's uncommitted work.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliError, cliJson } from '../helpers/cli';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { git, tempDir, tempRepo, writeFiles } from '../helpers/tmp';
import type { WorkerCommandResult } from '../../src/core/workers/workerContracts';
import type { LandResult } from '../../src/core/workers/taskLanding';

/** A repository whose person has a Git identity (a merge commit is theirs). */
function repository(): string {
  const repo = tempRepo({ 'README.md': '# app\n', 'src/app.js': 'export const a = 1;\n', 'notes.txt': 'n\n' });
  git(repo, 'config', 'user.name', 'Ann Person');
  git(repo, 'config', 'user.email', 'ann@example.com');
  return repo;
}

/** A task worked on in its worktree: `edit` there, committed, its session ended, then (by default) done. */
async function workedTask(
  c: LedgerClient,
  title: string,
  edit: Record<string, string>,
  options: { commit?: boolean; done?: boolean } = {},
): Promise<WorkerCommandResult> {
  const id = (await c.call<{ id: number }>('task_create', { title })).id;
  const w = await c.call<WorkerCommandResult>('worker_command', { taskId: id });
  writeFiles(w.cwd, edit);
  if (options.commit !== false) {
    git(w.cwd, 'add', '-A');
    git(w.cwd, 'commit', '-qm', title);
  }
  await c.call('session_end', { sessionId: w.sessionId, exitCode: 0 });
  if (options.done !== false)
    await c.call('complete_task', { task_id: `task-${id}`, status: 'success', outcome: { summary: title } });
  return w;
}

const head = (repo: string, ref = 'main') => git(repo, 'rev-parse', ref).trim();

function refused(repo: string, id: number, extra: string[] = []) {
  const r = cli(['task', 'land', String(id), ...extra, '--workspace', repo, '--json']);
  return { ...r, error: r.code === 0 ? null : cliError(r) };
}

describe('task land', () => {
  test('fast-forward: the base branch gets the commits, the worktree and the branch go, the person is recorded', async () => {
    const repo = repository();
    const c = await connect(repo);
    try {
      const w = await workedTask(c, 'Add b', { 'src/b.js': 'export const b = 2;\n' });
      const tip = head(w.cwd, 'HEAD');
      const landed = cliJson<LandResult>(['task', 'land', String(w.task.id), '--workspace', repo]);
      assert.equal(landed.method, 'fast-forward');
      assert.equal(landed.onto, 'main');
      assert.deepEqual(landed.files, ['src/b.js']);
      assert.equal(landed.commits, 1);
      assert.equal(landed.to, tip);
      assert.equal(head(repo), tip, 'main is the task’s commit');
      assert.equal(fs.readFileSync(path.join(repo, 'src/b.js'), 'utf8'), 'export const b = 2;\n', 'checked out');
      assert.ok(landed.worktreeRemoved && !fs.existsSync(w.cwd), 'the worktree is gone');
      assert.ok(landed.branchDeleted);
      assert.equal(git(repo, 'branch', '--list', w.task.branch), '');
      assert.equal(landed.by, (await import('node:os')).userInfo().username);

      const shown = cliJson<{ landing: Record<string, unknown> }>([
        'task',
        'get',
        String(w.task.id),
        '--workspace',
        repo,
      ]);
      assert.deepEqual(
        { ...shown.landing, at: typeof shown.landing.at },
        {
          onto: 'main',
          branch: w.task.branch,
          method: 'fast-forward',
          by: landed.by,
          at: 'string',
          commit: tip,
          pullRequest: null,
        },
      );
      assert.match(
        cli(['task', 'get', String(w.task.id), '--workspace', repo]).stdout,
        /\nLanded on main \(fast-forward, [0-9a-f]{8}\) by /,
      );

      const again = refused(repo, w.task.id);
      assert.equal(again.code, 6);
      assert.equal(again.error?.data?.reason, 'alreadyLanded');
    } finally {
      await c.close();
    }
  });

  test('merge without a checkout: the person’s uncommitted work in other files stays; text output', async () => {
    const repo = repository();
    const c = await connect(repo);
    try {
      const w = await workedTask(c, 'Change app', { 'src/app.js': 'export const a = 42;\n' });
      // Meanwhile the person committed elsewhere, and is editing notes.txt.
      writeFiles(repo, { 'README.md': '# app, documented\n' });
      git(repo, 'commit', '-qam', 'docs');
      const before = head(repo);
      writeFiles(repo, { 'notes.txt': 'my uncommitted notes\n' });
      const r = cli(['task', 'land', String(w.task.id), '--workspace', repo]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^landed task-${w.task.id} on main \\(merge, 1 commit, 1 file\\) by `));
      assert.match(r.stdout, /worktree removed, branch task-\d+-s\d+ deleted/);
      const parents = git(repo, 'log', '-1', '--format=%P', 'main').trim().split(' ');
      assert.equal(parents.length, 2);
      assert.equal(parents[0], before);
      assert.match(
        git(repo, 'log', '-1', '--format=%an <%ae>%n%s', 'main'),
        /^Ann Person <ann@example.com>\nLand task-/,
      );
      assert.equal(fs.readFileSync(path.join(repo, 'src/app.js'), 'utf8'), 'export const a = 42;\n');
      assert.equal(fs.readFileSync(path.join(repo, 'notes.txt'), 'utf8'), 'my uncommitted notes\n');
      assert.equal(git(repo, 'status', '--porcelain', '--', 'notes.txt', 'src').trim(), 'M notes.txt');
    } finally {
      await c.close();
    }
  });

  test('--rebase: the task’s commits replayed on the base branch, history linear', async () => {
    const repo = repository();
    const c = await connect(repo);
    try {
      const w = await workedTask(c, 'Add c', { 'src/c.js': 'c\n' });
      writeFiles(repo, { 'README.md': '# moved on\n' });
      git(repo, 'commit', '-qam', 'meanwhile');
      const landed = cliJson<LandResult>(['task', 'land', String(w.task.id), '--rebase', '--workspace', repo]);
      assert.equal(landed.method, 'rebase');
      assert.equal(git(repo, 'log', '-1', '--format=%P', 'main').trim().split(' ').length, 1);
      assert.deepEqual(git(repo, 'log', '--format=%s', '-3', 'main').trim().split('\n'), [
        'Add c',
        'meanwhile',
        'initial',
      ]);
      assert.ok(landed.branchDeleted, 'the rebased branch is merged, so it goes');
      assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'no temporary worktree left');
    } finally {
      await c.close();
    }
  });

  test('refusals are coded and change nothing', async () => {
    const repo = repository();
    const c = await connect(repo);
    try {
      const unchanged = (label: string, w: WorkerCommandResult | null, main: string) => {
        assert.equal(head(repo), main, `${label}: main did not move`);
        if (w) assert.ok(fs.existsSync(w.cwd), `${label}: the worktree is still there`);
      };
      const main = head(repo);

      const open = await workedTask(c, 'Not finished', { 'src/d.js': 'd\n' }, { done: false });
      let r = refused(repo, open.task.id);
      assert.equal(r.code, 6);
      assert.equal(r.error?.reason, 'InvalidStatus');
      assert.equal(r.error?.data?.reason, 'notDone');
      assert.match(r.error!.message, /is in_progress: only a done task lands/);
      unchanged('not done', open, main);

      const dirty = await workedTask(c, 'Left uncommitted', { 'src/e.js': 'e\n' }, { commit: false });
      r = refused(repo, dirty.task.id);
      assert.equal(r.error?.data?.reason, 'uncommittedChanges');
      assert.deepEqual(r.error?.data?.files, ['src/e.js']);
      unchanged('uncommitted', dirty, main);

      const empty = (await c.call<{ id: number }>('task_create', { title: 'No worktree' })).id;
      await c.call('task_update', { id: empty, status: 'cancelled' });
      r = refused(repo, empty);
      assert.equal(r.error?.data?.reason, 'notDone');

      const nothing = await workedTask(c, 'Changed nothing', {}, { commit: false });
      r = refused(repo, nothing.task.id);
      assert.equal(r.error?.data?.reason, 'nothingToLand');

      const clash = await workedTask(c, 'Conflicting', { 'src/app.js': 'export const a = "task";\n' });
      writeFiles(repo, { 'src/app.js': 'export const a = "person";\n' });
      git(repo, 'commit', '-qam', 'person edits app.js');
      const moved = head(repo);
      for (const extra of [[], ['--rebase']]) {
        r = refused(repo, clash.task.id, extra);
        assert.equal(r.code, 6, r.stderr);
        assert.equal(r.error?.data?.reason, 'conflict');
        assert.deepEqual(r.error?.data?.files, ['src/app.js']);
        assert.match(r.error!.message, /conflicts with main in src\/app\.js: nothing was landed/);
        unchanged(`conflict ${extra.join('')}`, clash, moved);
      }
      assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 5, 'no temporary worktree left');

      const touched = await workedTask(c, 'Touches notes', { 'notes.txt': 'from the task\n' });
      writeFiles(repo, { 'notes.txt': 'the person is editing this\n' });
      r = refused(repo, touched.task.id);
      assert.equal(r.error?.data?.reason, 'dirtyCheckout');
      assert.deepEqual(r.error?.data?.files, ['notes.txt']);
      unchanged('dirty checkout', touched, moved);
      assert.equal(fs.readFileSync(path.join(repo, 'notes.txt'), 'utf8'), 'the person is editing this\n');

      r = refused(repo, 9999);
      assert.equal(r.code, 5);
      r = refused(repo, touched.task.id, ['--onto', 'no-such-branch']);
      assert.equal(r.code, 2);
      assert.equal(r.error?.data?.reason, 'noBaseBranch');
    } finally {
      await c.close();
    }
  });
});

describe('task land --pr', () => {
  /** Runs the CLI with a PATH of our choosing (git, node, and a fake gh or none). */
  function withPath(repo: string, args: string[], pathDirs: string[]) {
    const gitDir = path.dirname(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim());
    const env = { ...ledgerEnv(repo), PATH: [...pathDirs, gitDir, path.dirname(process.execPath)].join(':') };
    const r = spawnSync(process.execPath, [cliPath, ...args, '--workspace', repo, '--json'], { encoding: 'utf8', env });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  test('without gh: a coded refusal before anything is pushed', async () => {
    const repo = repository();
    const remote = tempDir('agent-ledger-remote-');
    git(remote, 'init', '-q', '--bare');
    git(repo, 'remote', 'add', 'origin', remote);
    const c = await connect(repo);
    try {
      const w = await workedTask(c, 'Needs review', { 'src/f.js': 'f\n' });
      const r = withPath(repo, ['task', 'land', String(w.task.id), '--pr'], []);
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /gh \(the GitHub CLI\) is not installed/);
      assert.equal(git(remote, 'branch', '--list').trim(), '', 'nothing pushed');
      assert.ok(fs.existsSync(w.cwd));
    } finally {
      await c.close();
    }
  });

  // GitHub cannot be reached here: a stand-in `gh` on PATH records what it was asked and answers
  // as `gh pr create` does (the address on stdout). The push is real, to a bare repository.
  test('with gh: the branch is pushed, the pull request opened and recorded; the worktree stays', async () => {
    const repo = repository();
    const remote = tempDir('agent-ledger-remote-');
    git(remote, 'init', '-q', '--bare');
    git(repo, 'remote', 'add', 'origin', remote);
    const bin = tempDir('agent-ledger-fake-gh-');
    const record = path.join(bin, 'calls.txt');
    fs.writeFileSync(
      path.join(bin, 'gh'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${record}'\ncat >> '${record}'\necho https://github.com/acme/app/pull/7\n`,
      { mode: 0o755 },
    );
    const c = await connect(repo);
    try {
      const w = await workedTask(c, 'Open a PR', { 'src/g.js': 'g\n' });
      const r = withPath(repo, ['task', 'land', String(w.task.id), '--pr'], [bin]);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as LandResult;
      assert.equal(result.method, 'pull-request');
      assert.deepEqual(result.pullRequest, { url: 'https://github.com/acme/app/pull/7' });
      assert.equal(git(remote, 'rev-parse', w.task.branch).trim(), head(w.cwd, 'HEAD'), 'the branch was pushed');
      const calls = fs.readFileSync(record, 'utf8');
      assert.match(
        calls,
        new RegExp(
          `^pr create --base main --head ${w.task.branch} --title task-${w.task.id}: Open a PR --body-file -\\n`,
        ),
      );
      assert.ok(fs.existsSync(w.cwd), 'the worktree stays for review changes');
      const again = withPath(repo, ['task', 'land', String(w.task.id)], [bin]);
      assert.equal(cliError(again).data?.reason, 'alreadyLanded');
    } finally {
      await c.close();
    }
  });
});
