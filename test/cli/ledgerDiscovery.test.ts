import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';

/**
 * The CLI finds the ledger the way Git finds the repository: from any folder of the repository or
 * of one of its task worktrees (in `.agent-ledger/worktrees/` or a worktrees folder elsewhere), it
 * uses the repository's ledger and says so; naming a folder that would start a second ledger is
 * refused with where the first one is; outside Git, a command that needs Git says so plainly.
 */

/** `agent-ledger …` run in `cwd` on `repo`'s ledger (its PostgreSQL database under npm run test:pg). */
function al(args: string[], cwd: string, repo: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...ledgerEnv(repo), NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json<T>(args: string[], cwd: string, repo: string): T {
  const r = al([...args, '--json'], cwd, repo);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const titles = (repo: string, cwd = repo): string[] =>
  json<{ tasks: Array<{ title: string }> }>(['task', 'list'], cwd, repo).tasks.map((t) => t.title);

test('from a subfolder of a new repository, the ledger is made at its top, and found there from every folder below, said on stderr', () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'src/parser/index.js': 'p\n' });
  const deep = path.join(repo, 'src', 'parser');
  const made = al(['task', 'create', 'Fix the parser'], deep, repo);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(made.stderr, `agent-ledger: using the ledger of ${repo}\n`);
  assert.ok(fs.existsSync(path.join(repo, '.agent-ledger')));
  assert.equal(fs.existsSync(path.join(deep, '.agent-ledger')), false, 'no ledger in the subfolder');
  assert.deepEqual(titles(repo, path.join(repo, 'src')), ['Fix the parser']);
  const atTop = al(['task', 'list'], repo, repo);
  assert.equal(atTop.stderr, '', 'nothing to say where the ledger is the obvious one');
  assert.equal(al(['task', 'list', '--json'], deep, repo).stderr, '', '--json keeps stderr for errors');
});

test('inside a task’s worktree, every command uses the repository’s ledger; --workspace there is refused, naming the ledger, and creates nothing', () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'lib/a.js': 'a\n' });
  assert.equal(al(['task', 'create', 'Fix the parser'], repo, repo).code, 0);
  const prepared = json<{ cwd: string; worktree: string }>(['worker', 'command', '1', '--agent', 'coder'], repo, repo);
  const worktree = path.join(repo, '.agent-ledger', 'worktrees', 'task-1');
  assert.equal(prepared.cwd, worktree);
  const inside = path.join(worktree, 'lib');
  const list = al(['task', 'list'], inside, repo);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /task-1 +in_progress .* Fix the parser/);
  assert.equal(list.stderr, `agent-ledger: using the ledger of ${repo} (this folder is in the worktree ${worktree})\n`);
  assert.equal(al(['task', 'create', 'From the worktree'], inside, repo).code, 0);
  assert.deepEqual(titles(repo), ['From the worktree', 'Fix the parser'], 'written to the repository’s ledger');

  const refused = al(['task', 'create', 'A second ledger', '--workspace', '.', '--json'], worktree, repo);
  assert.equal(refused.code, 3);
  const error = (JSON.parse(refused.stderr) as { error: { reason: string; message: string } }).error;
  assert.equal(error.reason, 'ConfigError');
  assert.equal(
    error.message,
    `${worktree} is in the worktree ${worktree}, not a workspace of its own: its repository's ledger is ${path.join(repo, '.agent-ledger')}; leave out --workspace (the command finds it from here) or pass --workspace ${repo}`,
  );
  assert.equal(fs.existsSync(path.join(worktree, '.agent-ledger', 'ledger.db')), false, 'no second ledger');
  assert.deepEqual(titles(repo), ['From the worktree', 'Fix the parser'], 'nothing written');
});

test('a worktree in a worktrees folder elsewhere finds the repository’s ledger too', () => {
  const repo = tempRepo();
  const elsewhere = tempDir('agent-ledger-worktrees-elsewhere-');
  assert.equal(al(['task', 'create', 'Fix the parser'], repo, repo).code, 0);
  const prepared = json<{ cwd: string }>(['worker', 'command', '1', '--worktrees-dir', elsewhere], repo, repo);
  assert.ok(prepared.cwd.startsWith(elsewhere), prepared.cwd);
  const list = al(['task', 'list'], prepared.cwd, repo);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /Fix the parser/);
  assert.equal(
    list.stderr,
    `agent-ledger: using the ledger of ${repo} (this folder is in the worktree ${prepared.cwd})\n`,
  );
});

test('--workspace naming a folder under an existing ledger is refused with where that ledger is; --db starts one there on purpose', () => {
  const repo = tempRepo({ 'README.md': '# r\n', 'packages/web/index.js': 'w\n' });
  assert.equal(al(['task', 'create', 'At the top'], repo, repo).code, 0);
  const web = path.join(repo, 'packages', 'web');
  const refused = al(['task', 'create', 'Below', '--workspace', web], repo, repo);
  assert.equal(refused.code, 3);
  assert.equal(
    refused.stderr,
    `error: a ledger already exists at ${path.join(repo, '.agent-ledger')}, above ${web}: leave out --workspace (the command finds it) or pass --workspace ${repo}; to start a separate ledger in ${web} on purpose, name its file with --db ${path.join(web, '.agent-ledger', 'ledger.db')}\n`,
  );
  assert.equal(fs.existsSync(path.join(web, '.agent-ledger')), false);
  const own = path.join(web, '.agent-ledger', 'ledger.db');
  const chosen = spawnSync(process.execPath, [cliPath, 'task', 'create', 'Its own', '--workspace', web, '--db', own], {
    encoding: 'utf8',
  });
  assert.equal(chosen.status, 0, chosen.stderr);
  assert.ok(fs.existsSync(path.join(web, '.agent-ledger')));
  // From then on it is a workspace of its own: found from inside it, and named without --db.
  const inWeb = spawnSync(process.execPath, [cliPath, 'task', 'list', '--json'], { cwd: web, encoding: 'utf8' });
  assert.deepEqual(
    (JSON.parse(inWeb.stdout) as { tasks: Array<{ title: string }> }).tasks.map((t) => t.title),
    ['Its own'],
  );
});

test('outside Git, a command that needs Git says so in one plain sentence; the others work in the current folder', () => {
  const plain = tempDir('agent-ledger-not-git-');
  const made = spawnSync(process.execPath, [cliPath, 'task', 'create', 'Notes'], { cwd: plain, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  assert.equal(made.stderr, '');
  assert.ok(fs.existsSync(path.join(plain, '.agent-ledger')));
  const worker = spawnSync(process.execPath, [cliPath, 'worker', 'command', '1'], { cwd: plain, encoding: 'utf8' });
  assert.equal(worker.status, 5);
  assert.equal(
    worker.stderr,
    `error: ${plain} is not in a Git repository, and this needs one: run git init there and commit once.\n`,
  );
});
