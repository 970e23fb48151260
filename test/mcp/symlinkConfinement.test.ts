/**
 * A cloned repository can carry symbolic links in the folders Agent Ledger reads and writes
 * (`.agent-ledger/`, `memory/`, `agents/`, `worktrees/`, `.specs/`). Each attack of issue 8 is
 * replayed here through the real CLI and MCP server: nothing is read from or written to the
 * folder outside, and every refusal names the link.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliError, cliJson } from '../helpers/cli';
import { connect } from '../helpers/mcpClient';
import { git, tempDir, tempRepo, writeFiles } from '../helpers/tmp';
import { testStore } from '../helpers/testLedger';

/** The store's own files exist only on the embedded store. */
const embeddedOnly =
  testStore === 'postgres' ? 'the ledger lives on PostgreSQL: there are no store files to link' : false;

/** A repository and, beside it, a folder it must never reach. */
function victim(): { repo: string; out: string } {
  const repo = tempRepo({ 'README.md': '# app\n' });
  const out = tempDir('agent-ledger-outside-');
  return { repo, out };
}

const ws = (repo: string) => ['--workspace', repo];
const listOut = (out: string) => fs.readdirSync(out).sort();

describe('symbolic links that lead outside the workspace', () => {
  test('memory add through a linked category folder is refused, naming the link; nothing is written outside', () => {
    const { repo, out } = victim();
    fs.mkdirSync(path.join(repo, '.agent-ledger', 'memory'), { recursive: true });
    fs.symlinkSync(
      path.relative(path.join(repo, '.agent-ledger', 'memory'), out),
      path.join(repo, '.agent-ledger', 'memory', 'evil'),
    );
    const r = cli(['memory', 'add', 'planted', '--category', 'evil', '--title', 't', ...ws(repo), '--json']);
    assert.equal(r.code, 3, r.stderr);
    const error = cliError(r);
    assert.equal(error.reason, 'ConfigError');
    assert.equal(error.data?.reason, 'pathOutsideWorkspace');
    assert.equal(error.data?.link, '.agent-ledger/memory/evil');
    assert.equal(error.data?.target, fs.realpathSync(out));
    assert.deepEqual(listOut(out), []);
  });

  test('memory_list and memory_preview skip entries linked outside and say so', async () => {
    const { repo, out } = victim();
    writeFiles(out, { 'leak.md': '---\ntitle: SECRET-TITLE\nsummary: SECRET-SUMMARY\n---\nSECRET\n' });
    writeFiles(repo, { '.agent-ledger/memory/decisions/real.md': '---\ntitle: Real entry\n---\nbody\n' });
    fs.symlinkSync(out, path.join(repo, '.agent-ledger', 'memory', 'evil'));
    fs.symlinkSync(path.join(out, 'leak.md'), path.join(repo, '.agent-ledger', 'memory', 'decisions', 'leak.md'));
    const c = await connect(repo);
    try {
      const list = await c.call<{
        memories: { id: string; category: string }[];
        problems: { file: string; message: string }[];
      }>('memory_list');
      assert.deepEqual(
        list.memories.map((m) => `${m.category}/${m.id}`),
        ['decisions/real'],
      );
      assert.deepEqual(list.problems.map((p) => p.file).sort(), [
        '.agent-ledger/memory/decisions/leak.md',
        '.agent-ledger/memory/evil',
      ]);
      assert.match(list.problems[0].message, /symbolic link/);
      const preview = await c.call<{ context: string }>('memory_preview');
      assert.doesNotMatch(JSON.stringify(preview), /SECRET/);
      assert.match(preview.context, /Real entry/);
      const resource = await c.client.readResource({ uri: 'project://memory' });
      assert.doesNotMatch(JSON.stringify(resource), /SECRET/);
    } finally {
      await c.close();
    }
  });

  test('a linked .specs makes pipeline init refuse before writing anything outside', () => {
    const { repo, out } = victim();
    fs.symlinkSync(out, path.join(repo, '.specs'));
    const r = cli(['pipeline', 'init', 'fix the login timeout', '--effort', 'S', ...ws(repo), '--json']);
    assert.notEqual(r.code, 0, r.stdout);
    const error = cliError(r);
    assert.equal(error.data?.reason, 'pathOutsideWorkspace');
    assert.equal(error.data?.link, '.specs');
    assert.deepEqual(listOut(out), []);
  });

  test('a linked .agent-ledger/worktrees makes worker_command refuse; the worktree is never created outside', async () => {
    const { repo, out } = victim();
    fs.mkdirSync(path.join(repo, '.agent-ledger'));
    fs.symlinkSync(out, path.join(repo, '.agent-ledger', 'worktrees'));
    const c = await connect(repo);
    try {
      const task = await c.call<{ id: number }>('task_create', { title: 'work' });
      const error = await c.fail('worker_command', { taskId: task.id });
      assert.equal(error.reason, 'ConfigError');
      assert.equal(error.data?.link, '.agent-ledger/worktrees');
      assert.deepEqual(listOut(out), []);
      assert.doesNotMatch(git(repo, 'worktree', 'list'), new RegExp(path.basename(out)));
    } finally {
      await c.close();
    }
  });

  test('an agent definition linked to a secret never reaches a launch prompt', () => {
    const { repo, out } = victim();
    const secret = path.join(out, 'credentials');
    fs.writeFileSync(secret, 'AWS_SECRET_ACCESS_KEY=do-not-leak\n');
    cliJson(['agent', 'list', ...ws(repo)]); // first use writes the default agents
    assert.ok(
      fs.existsSync(path.join(repo, '.agent-ledger', 'agents', 'coder.yaml')) ||
        cliJson(['task', 'create', 'x', ...ws(repo)]),
    );
    fs.mkdirSync(path.join(repo, '.agent-ledger', 'agents'), { recursive: true });
    fs.symlinkSync(secret, path.join(repo, '.agent-ledger', 'agents', 'coder.md'));
    const task = cliJson<{ id: number }>(['task', 'create', 'work', ...ws(repo)]);
    const r = cli(['worker', 'command', String(task.id), '--agent', 'coder', ...ws(repo), '--json']);
    assert.equal(r.code, 3, r.stdout);
    assert.doesNotMatch(r.stdout + r.stderr, /do-not-leak/);
    const error = cliError(r);
    assert.equal(error.data?.link, '.agent-ledger/agents/coder.md');
    // Without --agent the default (coder) is refused the same way.
    const fallback = cli(['worker', 'command', String(task.id), ...ws(repo), '--json']);
    assert.doesNotMatch(fallback.stdout + fallback.stderr, /do-not-leak/);
    assert.equal(cliError(fallback).data?.link, '.agent-ledger/agents/coder.md');
    const agents = cliJson<{ problems: { file: string }[] }>(['agent', 'list', ...ws(repo)]);
    assert.ok(agents.problems.some((p) => p.file === '.agent-ledger/agents/coder.md'));
  });

  test(
    'a linked .agent-ledger folder (the store itself) is refused before the store is opened',
    { skip: embeddedOnly },
    () => {
      const { repo, out } = victim();
      fs.symlinkSync(out, path.join(repo, '.agent-ledger'));
      const r = cli(['task', 'create', 'x', ...ws(repo), '--json']);
      assert.equal(r.code, 3);
      assert.equal(cliError(r).data?.link, '.agent-ledger');
      assert.deepEqual(listOut(out), []);
    },
  );

  test('a journal committed as a link is refused: appends never follow it', { skip: embeddedOnly }, () => {
    const { repo, out } = victim();
    const target = path.join(out, 'victim.txt');
    fs.writeFileSync(target, 'keep me\n');
    fs.mkdirSync(path.join(repo, '.agent-ledger'));
    fs.symlinkSync(target, path.join(repo, '.agent-ledger', 'ledger.journal'));
    const r = cli(['task', 'create', 'x', ...ws(repo), '--json']);
    assert.equal(r.code, 3);
    assert.equal(cliError(r).data?.link, '.agent-ledger/ledger.journal');
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep me\n');
  });

  test('worktrees go outside only where the user says: --worktrees-dir', async () => {
    const { repo } = victim();
    const elsewhere = tempDir('agent-ledger-disk-');
    const c = await connect(repo, ['--worktrees-dir', elsewhere]);
    try {
      const task = await c.call<{ id: number }>('task_create', { title: 'work' });
      const started = await c.call<{ worktree: string; cwd: string }>('worker_command', { taskId: task.id });
      const folder = fs.readdirSync(elsewhere);
      assert.equal(folder.length, 1);
      assert.match(folder[0], new RegExp(`^${path.basename(repo)}-[0-9a-f]{8}$`));
      assert.equal(started.worktree, path.join(elsewhere, folder[0], `task-${task.id}`));
      assert.ok(fs.existsSync(path.join(started.worktree, 'README.md')));
      fs.writeFileSync(path.join(started.worktree, 'new.txt'), 'x');
      const done = await c.call<{ files_changed: { added: string[] } }>('complete_task', {
        task_id: task.id,
        status: 'success',
        outcome: { summary: 'added a file' },
      });
      assert.deepEqual(done.files_changed.added, ['new.txt']);
      const cleanup = await c.call<{ removed: { worktree: string }[] }>('worktree_cleanup', {
        taskId: task.id,
        force: true,
      });
      assert.deepEqual(
        cleanup.removed.map((r) => r.worktree),
        [started.worktree],
      );
      assert.equal(fs.existsSync(started.worktree), false);
    } finally {
      await c.close();
    }
  });

  test('mcp_info says paths are confined by their real path', async () => {
    const { repo } = victim();
    const c = await connect(repo);
    try {
      const info = await c.call<{ safety: Record<string, unknown> }>('mcp_info');
      assert.equal(info.safety.pathsConfinedToWorkspace, true);
      assert.match(String(info.safety.pathConfinement), /real paths, symlinks included/);
    } finally {
      await c.close();
    }
  });
});
