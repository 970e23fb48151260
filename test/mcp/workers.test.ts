import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { git, tempDir, tempRepo, writeFiles } from '../helpers/tmp';
import { injectionAttempts, stubClients } from '../helpers/stubClients';
import type { WorkerCommandResult } from '../../src/core/workers/workerContracts';

/** worker_command's structured result, as the server's output schema promises it. */
type Worker = WorkerCommandResult;

interface Cleanup {
  removed: { taskId: number; worktree: string; reason: string; freedBytes: number; branchDeleted: boolean }[];
  skipped: { taskId: number; reason: string }[];
  freedBytes: number;
}

const files = { 'src/a.ts': 'a\n', 'src/.env': 'SECRET=1\n', 'docs/guide.md': 'guide\n', 'README.md': '# r\n' };

describe('worker_command: a Git worktree per task', () => {
  let repo: string;
  let c: LedgerClient;
  before(async () => {
    repo = tempRepo(files);
    c = await connect(repo);
    await c.call('agent_list');
    writeFiles(repo, {
      '.agent-ledger/agents/frontend.yaml':
        'name: frontend\nclient: codex\nmodel: gpt-5\nscope:\n  read: ["src/**"]\n  write: ["src/**"]\n  exclude: ["**/*.env"]\n',
      '.agent-ledger/agents/docs.md':
        '---\nclient: gemini-cli\nscope:\n  read: ["**/*"]\n  write: ["src/**"]\n  exclude: []\n---\n# Docs writer\n',
    });
  });
  after(() => c.close());

  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    (await c.call<{ id: number }>('task_create', { title, ...extra })).id;

  test('creates .agent-ledger/worktrees/task-<id> on branch task-<id>-s<sessionId> and starts a session', async () => {
    const id = await create('Build the login form', { description: 'Email + password', priority: 'high' });
    const w = await c.call<Worker>('worker_command', { taskId: id });
    assert.equal(w.worktree, `.agent-ledger/worktrees/task-${id}`);
    assert.equal(w.task.branch, `task-${id}-s${w.sessionId}`);
    assert.deepEqual(w.task, { id, title: 'Build the login form', branch: `task-${id}-s${w.sessionId}` });
    assert.equal(w.agent, 'coder');
    assert.equal(w.client, 'claude-code');
    assert.equal(w.reused, false);
    assert.equal(w.cwd, path.join(repo, w.worktree));
    assert.equal(git(w.cwd, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), w.task.branch);
    assert.equal(git(w.cwd, 'rev-parse', 'HEAD').trim(), git(repo, 'rev-parse', 'HEAD').trim());
    assert.ok(w.command.startsWith(`cd ${w.cwd} && claude --print `), w.command.slice(0, 120));
    assert.equal(w.argv[0], 'claude');
    const prompt = w.argv[w.argv.length - 1];
    assert.match(prompt, /^# Worker: coder\n/);
    assert.match(prompt, new RegExp(`## Task #${id}: Build the login form`));
    assert.match(prompt, /Email \+ password/);
    assert.match(prompt, /# Coder/, "the agent's prompt");
    const sessions = await c.call<{
      sessions: { id: number; status: string; worktree: string; branch: string; origin: string }[];
    }>('session_list', { taskId: id });
    assert.deepEqual(
      sessions.sessions.map((s) => [s.id, s.status, s.worktree, s.branch, s.origin]),
      [[w.sessionId, 'running', w.worktree, w.task.branch, 'worker_command']],
    );
    const task = await c.call<{
      status: string;
      selectedSessionId: number;
      worktree: string;
      snapshot: { id: string };
    }>('task_get', { id });
    assert.equal(task.status, 'in_progress');
    assert.equal(task.selectedSessionId, w.sessionId);
    assert.equal(task.worktree, w.worktree);
    assert.equal(git(repo, 'rev-parse', `refs/agent-ledger/snapshots/task-${id}`).trim(), task.snapshot.id);
  });

  test('a second agent reuses the worktree and its branch; the same agent twice is refused', async () => {
    const id = await create('Shared work');
    const first = await c.call<Worker>('worker_command', { taskId: id });
    writeFiles(first.cwd, { 'src/wip.ts': 'work in progress\n' });
    const second = await c.call<Worker>('worker_command', { taskId: id, agent: 'reviewer' });
    assert.equal(second.reused, true);
    assert.equal(second.worktree, first.worktree);
    assert.equal(second.task.branch, first.task.branch);
    assert.notEqual(second.sessionId, first.sessionId);
    assert.ok(fs.existsSync(path.join(second.cwd, 'src/wip.ts')));
    assert.match(second.argv.at(-1)!, /You are read-only/);
    const refused = await c.fail('worker_command', { taskId: id });
    assert.deepEqual([refused.code, refused.reason], [-32005, 'SessionAlreadyRunning']);
    assert.equal(refused.data?.sessionId, first.sessionId);
    const third = await c.call<Worker>('worker_command', { taskId: id, allowConcurrent: true });
    assert.equal(third.reused, true);
  });

  test("without an agent: the task's AI assignee when it names an agent, else coder", async () => {
    const assigned = await c.call<Worker>('worker_command', {
      taskId: await create('for the reviewer', { assignee: 'reviewer', assigneeType: 'ai' }),
    });
    assert.equal(assigned.agent, 'reviewer');
    const person = await c.call<Worker>('worker_command', {
      taskId: await create('for a person', { assignee: 'reviewer', assigneeType: 'human' }),
    });
    assert.equal(person.agent, 'coder');
    const unknown = await c.call<Worker>('worker_command', {
      taskId: await create('for someone else', { assignee: 'alice' }),
    });
    assert.equal(unknown.agent, 'coder');
    assert.equal((await c.fail('worker_command', { taskId: await create('x'), agent: 'ghost' })).code, -32002);
  });

  test("the agent's read/exclude scope is a sparse checkout; its write scope is what complete_task checks", async () => {
    const id = await create('Frontend only');
    const w = await c.call<Worker>('worker_command', { taskId: id, agent: 'frontend' });
    assert.equal(w.client, 'codex');
    assert.deepEqual(w.argv.slice(0, 3), ['codex', 'exec', '--model=gpt-5']);
    assert.ok(fs.existsSync(path.join(w.cwd, 'src/a.ts')));
    for (const hidden of ['src/.env', 'docs/guide.md', 'README.md'])
      assert.ok(!fs.existsSync(path.join(w.cwd, hidden)), `${hidden} is outside the scope`);
    assert.equal(git(w.cwd, 'status', '--porcelain'), '');
    writeFiles(w.cwd, { 'src/a.ts': 'in scope\n', 'src/b.ts': 'new in scope\n' });
    const inScope = await c.call<{
      files_changed: { added: string[]; modified: string[]; deleted: string[] };
      verification: { scope_match: boolean };
    }>('complete_task', {
      task_id: id,
      status: 'success',
      outcome: { summary: 'frontend work' },
    });
    assert.deepEqual(
      inScope.files_changed,
      { added: ['src/b.ts'], modified: ['src/a.ts'], deleted: [], renamed: [] },
      'files outside the sparse checkout are not deletions',
    );
    assert.equal(inScope.verification.scope_match, true);

    const docsTask = await create('Docs agent writes where it may not');
    const d = await c.call<Worker>('worker_command', { taskId: docsTask, agent: 'docs' });
    assert.deepEqual(d.argv.slice(0, 1), ['gemini']);
    assert.match(d.argv.at(-1)!, /^--prompt=# Worker: docs\n/);
    writeFiles(d.cwd, { 'src/a.ts': 'changed\n', 'docs/guide.md': 'rewritten\n' });
    const done = await c.call<{
      files_changed: { modified: string[] };
      verification: { scope_match: boolean; unexpected_files: string[]; warnings: string[] };
    }>('complete_task', {
      task_id: docsTask,
      status: 'success',
      outcome: { summary: 'edited' },
    });
    assert.deepEqual(done.files_changed.modified, ['docs/guide.md', 'src/a.ts']);
    assert.equal(done.verification.scope_match, false);
    assert.deepEqual(done.verification.unexpected_files, ['docs/guide.md']);
    assert.match(done.verification.warnings.join('\n'), /outside the agents' write scope \(docs: src\/\*\*\)/);
  });

  test('a file created in an excluded path is reported by complete_task', async () => {
    const id = await create('Writes a secret');
    const w = await c.call<Worker>('worker_command', { taskId: id, agent: 'frontend' });
    writeFiles(w.cwd, { 'src/new.env': 'LEAK=1\n' });
    const done = await c.call<{ files_changed: { added: string[] }; verification: { unexpected_files: string[] } }>(
      'complete_task',
      { task_id: id, status: 'success', outcome: { summary: 'x' } },
    );
    assert.deepEqual(done.files_changed.added, ['src/new.env']);
    assert.deepEqual(done.verification.unexpected_files, ['src/new.env']);
  });

  test('complete_task measures in the worktree: its commits and edits, not the workspace’s own dirty files', async () => {
    const id = await create('Measured where it happens');
    const w = await c.call<Worker>('worker_command', { taskId: id });
    writeFiles(repo, { 'docs/guide.md': 'the user edits the main workspace meanwhile\n' });
    writeFiles(w.cwd, { 'src/feature.ts': 'feature\n' });
    git(w.cwd, 'add', '-A');
    git(w.cwd, 'commit', '-qm', 'Add feature');
    writeFiles(w.cwd, { 'src/a.ts': 'edited, not committed\n' });
    const done = await c.call<{
      files_changed: { added: string[]; modified: string[] };
      commits: { subject: string }[];
    }>('complete_task', { task_id: id, status: 'success', outcome: { summary: 'feature' } });
    assert.deepEqual(done.files_changed.added, ['src/feature.ts']);
    assert.deepEqual(done.files_changed.modified, ['src/a.ts']);
    assert.deepEqual(
      done.commits.map((x) => x.subject),
      ['Add feature'],
    );
    git(repo, 'checkout', '--', 'docs/guide.md');
  });

  test('hostile task titles, descriptions, agent names and models produce inert commands (run with stub clients)', async (t) => {
    const stubs = stubClients();
    // A short folder: agent names are at most 100 characters and carry a marker path too.
    const markers = fs.mkdtempSync('/tmp/m');
    t.after(() => fs.rmSync(markers, { recursive: true, force: true }));
    const attempts = injectionAttempts(path.join(markers, 'P'));
    const clients = [
      ['claude-code', 'claude'],
      ['codex', 'codex'],
      ['gemini-cli', 'gemini'],
    ] as const;
    for (const [i, [client, executable]] of clients.entries()) {
      const name = `evil ${attempts[i]}'"$(touch ${path.join(markers, `A${i}`)})`;
      writeFiles(repo, {
        [`.agent-ledger/agents/evil-${i}.yaml`]: YAML.stringify({
          name,
          client,
          model: `m$(touch ${path.join(markers, `M${i}`)})`,
          scope: { read: ['**/*'], write: ['src/**'], exclude: [] },
        }),
      });
      for (const [j, hostile] of attempts.entries()) {
        const title = `Title ${j} ${hostile}`;
        const description = `Description ${j}\n${hostile}\n${attempts[(j + 1) % attempts.length]}`;
        const id = await create(title, { description });
        const w = await c.call<Worker>('worker_command', { taskId: id, agent: name });
        assert.equal(w.client, client);
        const run = stubs.run(w.command, repo);
        assert.equal(run.client, executable);
        assert.equal(run.cwd, fs.realpathSync(w.cwd), 'the command starts in the worktree');
        assert.deepEqual(run.argv, w.argv.slice(1), 'the shell passed every argument through unchanged');
        const prompt = run.argv.at(-1)!.replace(/^--prompt=/, '');
        assert.ok(prompt.startsWith(`# Worker: ${name}\n`), 'the agent name arrives verbatim');
        assert.ok(
          prompt.includes(`## Task #${id}: ${title.trim().replace(/\s+/g, ' ')}\n`),
          'the title arrives (trimmed, on one line)',
        );
        assert.ok(prompt.includes(description), 'the description arrives verbatim');
        await c.call('session_end', { sessionId: w.sessionId, exitCode: 0 });
      }
    }
    assert.deepEqual(fs.readdirSync(markers), [], 'no injected command ran');
  });

  test('cleanup: dry run, retention (merged or unused), uncommitted work and running sessions kept unless forced, disk freed', async () => {
    const end = (sessionId: number) => c.call('session_end', { sessionId, exitCode: 0 });
    const merged = await c.call<Worker>('worker_command', { taskId: await create('merged work') });
    writeFiles(merged.cwd, { 'merged.txt': 'm\n'.repeat(5000) });
    git(merged.cwd, 'add', '-A');
    git(merged.cwd, 'commit', '-qm', 'merged work');
    await end(merged.sessionId);
    const dirty = await c.call<Worker>('worker_command', { taskId: await create('dirty work') });
    writeFiles(dirty.cwd, { 'committed.txt': 'c\n' });
    git(dirty.cwd, 'add', '-A');
    git(dirty.cwd, 'commit', '-qm', 'unmerged work');
    writeFiles(dirty.cwd, { 'uncommitted.txt': 'u\n' });
    await end(dirty.sessionId);
    const running = await c.call<Worker>('worker_command', { taskId: await create('still running') });
    git(repo, 'merge', '-q', '--no-edit', merged.task.branch);

    const dry = await c.call<Cleanup>('worktree_cleanup', { dryRun: true });
    const mergedEntry = dry.removed.find((r) => r.taskId === merged.task.id);
    assert.equal(mergedEntry?.reason, 'merged');
    assert.ok(mergedEntry!.freedBytes > 10_000, `would free ${mergedEntry?.freedBytes}`);
    assert.ok(fs.existsSync(merged.cwd), 'a dry run removes nothing');

    const retention = await c.call<Cleanup>('worktree_cleanup', {});
    assert.ok(retention.removed.some((r) => r.taskId === merged.task.id && r.branchDeleted));
    assert.ok(!fs.existsSync(merged.cwd));
    assert.ok(retention.freedBytes >= mergedEntry!.freedBytes);
    assert.match(retention.skipped.find((s) => s.taskId === dirty.task.id)!.reason, /uncommitted changes|not merged/);
    assert.match(retention.skipped.find((s) => s.taskId === running.task.id)!.reason, /not merged|still running/);
    assert.equal(git(repo, 'branch', '--list', merged.task.branch), '');

    const unused = await c.call<Cleanup>('worktree_cleanup', { olderThanDays: 0 });
    assert.match(unused.skipped.find((s) => s.taskId === dirty.task.id)!.reason, /uncommitted changes/);
    assert.match(unused.skipped.find((s) => s.taskId === running.task.id)!.reason, /session \d+ is still running/);

    const forced = await c.call<Cleanup>('worktree_cleanup', { taskId: dirty.task.id, force: true });
    assert.deepEqual(
      forced.removed.map((r) => [r.taskId, r.reason]),
      [[dirty.task.id, 'requested']],
    );
    assert.ok(!fs.existsSync(dirty.cwd));
    assert.match(
      git(repo, 'branch', '--list', dirty.task.branch),
      new RegExp(dirty.task.branch),
      'an unmerged branch is kept',
    );

    const gone = await c.fail('complete_task', {
      task_id: dirty.task.id,
      status: 'success',
      outcome: { summary: 'x' },
    });
    assert.equal(gone.code, -32004);
    assert.match(gone.message, /worktree .* no longer exists/);

    const again = await c.call<Worker>('worker_command', { taskId: dirty.task.id });
    assert.equal(again.reused, false, 'a removed worktree is created anew');
    assert.equal(again.task.branch, `task-${dirty.task.id}-s${again.sessionId}`);
  });

  test('Git errors are -32008 and leave no running session behind', async () => {
    const plain = tempDir('agent-ledger-nogit-');
    const p = await connect(plain);
    try {
      const id = (await p.call<{ id: number }>('task_create', { title: 'no git here' })).id;
      const err = await p.fail('worker_command', { taskId: id });
      assert.deepEqual([err.code, err.reason], [-32008, 'GitError']);
      const sessions = await p.call<{ sessions: { status: string; error: { message: string } }[] }>('session_list', {
        taskId: id,
      });
      assert.equal(sessions.sessions[0].status, 'failed');
      assert.match(sessions.sessions[0].error.message, /worktree not prepared/);
      assert.equal(
        (await p.fail('worker_command', { taskId: id })).code,
        -32008,
        'retrying is not blocked by the failed session',
      );
    } finally {
      await p.close();
    }
    const unborn = tempDir('agent-ledger-unborn-');
    git(unborn, 'init', '-q');
    const u = await connect(unborn);
    try {
      const id = (await u.call<{ id: number }>('task_create', { title: 'no commit yet' })).id;
      const err = await u.fail('worker_command', { taskId: id });
      assert.equal(err.code, -32008);
      assert.match(err.message, /needs a commit/);
    } finally {
      await u.close();
    }
  });
});
