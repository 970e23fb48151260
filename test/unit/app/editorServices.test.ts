// The core pieces the editor's Memory Bank and Agents & Sessions views and forms stand on:
// archiving an entry in its front matter, the per-agent session read model, and the per-field
// validation messages of the input boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../src/app/services';
import { setFrontMatterFields } from '../../../src/core/files/frontMatter';
import { fieldIssue, parseInput } from '../../../src/core/contracts/inputValidation';
import { LedgerError } from '../../../src/core/errors';
import { memoryAddInput } from '../../../src/core/memory/memoryContracts';
import { sessionEndInput } from '../../../src/core/sessions/sessionContracts';
import { taskCreateInput } from '../../../src/core/tasks/taskContracts';
import { tempRepo, writeFiles } from '../../helpers/tmp';

test('setting a front matter field keeps the other keys, their comments and the body as written', () => {
  const text =
    '---\n# why this entry exists\ntitle: Test framework   # the short name\nstatus: active\nowner: qa\n---\n\nBody *kept*\n\n  exactly.\n';
  assert.equal(
    setFrontMatterFields(text, { status: 'archived' }),
    '---\n# why this entry exists\ntitle: Test framework # the short name\nstatus: archived\nowner: qa\n---\n\nBody *kept*\n\n  exactly.\n',
  );
  // No status yet: it is added; no front matter at all: one is written above the body.
  assert.equal(
    setFrontMatterFields('---\ntitle: T\n---\nB\n', { status: 'draft' }),
    '---\ntitle: T\nstatus: draft\n---\nB\n',
  );
  assert.equal(
    setFrontMatterFields('# Heading\nText\n', { status: 'archived' }),
    '---\nstatus: archived\n---\n\n# Heading\nText\n',
  );
  assert.throws(() => setFrontMatterFields('---\n- a list\n---\n', { status: 'x' }), /must be a YAML mapping/);
  assert.throws(() => setFrontMatterFields('---\ntitle: x\n', { status: 'x' }), /no closing/);
});

test('MemoryBank.setStatus archives an entry in its file and in the index', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  try {
    await services.memory.add({
      id: 'test-framework',
      category: 'tooling',
      title: 'Test framework',
      summary: 'Vitest',
      content: '# Why\nFast.\n',
    });
    const file = path.join(repo, '.agent-ledger/memory/tooling/test-framework.md');
    const archived = await services.memory.setStatus('tooling', 'test-framework', 'archived');
    assert.equal(archived.status, 'archived');
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      '---\ntitle: Test framework\nsummary: Vitest\nstatus: archived\n---\n\n# Why\nFast.\n',
    );
    assert.equal(services.memory.current({ status: 'archived' }).memories[0]?.id, 'test-framework');
    assert.doesNotMatch(
      (await services.memory.preview()).context,
      /Test framework/,
      'archived entries are not given to agents',
    );
    const indexed = await services.engine.read((db) =>
      db.get<{ status: string }>("SELECT status FROM memories WHERE category = 'tooling' AND id = 'test-framework'"),
    );
    assert.equal(indexed?.status, 'archived');
    const event = await services.engine.read((db) =>
      db.get<{ kind: string; payload: string }>("SELECT kind, payload FROM events WHERE kind = 'memory.updated'"),
    );
    assert.deepEqual(JSON.parse(event!.payload), {
      title: 'Test framework',
      status: 'archived',
      previousStatus: 'active',
    });
    // Again: nothing to change, nothing written.
    const mtime = fs.statSync(file).mtimeMs;
    await services.memory.setStatus('tooling', 'test-framework', 'archived');
    assert.equal(fs.statSync(file).mtimeMs, mtime);

    await assert.rejects(services.memory.setStatus('tooling', 'nope', 'archived'), (e: unknown) =>
      LedgerError.is(e, 'NotFound'),
    );
    await assert.rejects(services.memory.setStatus('..', 'x', 'archived'), (e: unknown) =>
      LedgerError.is(e, 'NotFound'),
    );
    writeFiles(repo, { '.agent-ledger/memory/rule/broken.md': '---\nstatus: final\n---\n' });
    await assert.rejects(
      services.memory.setStatus('rule', 'broken', 'archived'),
      (e: unknown) => LedgerError.is(e, 'ConfigError') && /status/.test((e as Error).message),
    );
  } finally {
    await services.dispose();
  }
});

test('the Agents & Sessions read model: agents by activity, running sessions first, then recent ones', async () => {
  const repo = tempRepo();
  const services = await createServices({ workspace: repo });
  try {
    const a = await services.tasks.create(parseInput('task_create', taskCreateInput, { title: 'First' }));
    const b = await services.tasks.create(parseInput('task_create', taskCreateInput, { title: 'Second' }));
    const s1 = await services.sessions.start({ taskId: a.id, agent: 'coder', allowConcurrent: false });
    await services.sessions.end(
      parseInput('session_end', sessionEndInput, { sessionId: s1.sessionId, exitCode: 1, dodResult: 'error' }),
    );
    const worker = await services.workers.command({
      taskId: b.id,
      agent: 'coder',
      auto: false,
      allowConcurrent: false,
      force: false,
      allowOverlap: false,
    });
    const s3 = await services.sessions.start({ taskId: a.id, agent: 'reviewer', allowConcurrent: false });

    const queries = services.agentSessions;
    assert.deepEqual(
      (await queries.agents()).map((x) => [x.agent, x.running, x.total]),
      [
        ['reviewer', 1, 1],
        ['coder', 1, 2],
      ],
    );
    const coder = await queries.sessionsOf('coder');
    assert.deepEqual(
      coder.map((x) => [x.session.id, x.session.status, x.taskTitle, x.worktreeActive]),
      [
        [worker.sessionId, 'running', 'Second', true],
        [s1.sessionId, 'failed', 'First', false],
      ],
    );
    assert.equal(coder[0].session.branch, `task-${b.id}-s${worker.sessionId}`);
    assert.equal(coder[1].session.exitCode, 1);
    assert.deepEqual(
      (await queries.latest({ running: true })).map((x) => x.session.id),
      [s3.sessionId, worker.sessionId],
    );
    assert.deepEqual(
      (await queries.latest({ withWorktree: true })).map((x) => x.session.id),
      [worker.sessionId],
    );

    // Once cleaned up, the worktree is no longer offered.
    await services.sessions.end(
      parseInput('session_end', sessionEndInput, { sessionId: worker.sessionId, exitCode: 0, dodResult: 'merged' }),
    );
    const cleanup = await services.worktreeCleanup.run({ olderThanDays: 14, force: false, dryRun: false });
    assert.deepEqual(
      cleanup.removed.map((r) => r.reason),
      ['merged'],
    );
    assert.equal((await queries.session(worker.sessionId))?.worktreeActive, false);
    assert.deepEqual(await queries.latest({ withWorktree: true }), []);
  } finally {
    await services.dispose();
  }
});

test('one field checked alone says what parseInput says about it', () => {
  assert.equal(fieldIssue(taskCreateInput, 'title', '   '), 'title: must not be empty');
  assert.equal(fieldIssue(taskCreateInput, 'title', 'Fix it'), undefined);
  assert.equal(fieldIssue(taskCreateInput, 'description', undefined), undefined);
  assert.equal(
    fieldIssue(taskCreateInput, 'labels', 'x'.repeat(2001)),
    'labels: is too long (at most 2000 characters)',
  );
  assert.equal(
    fieldIssue(memoryAddInput, 'id', 'a b'),
    'id: must be a plain name of letters, digits, ".", "_" or "-" (it becomes part of the file path)',
  );
  assert.equal(fieldIssue(sessionEndInput, 'exitCode', 'zero'), 'exitCode: expected number (got "zero")');
  assert.equal(fieldIssue(sessionEndInput, 'exitCode', 2.5), 'exitCode: expected int (got 2.5)');
  // The same words as the whole-input check the MCP tool and the CLI make.
  assert.throws(
    () => parseInput('task_create', taskCreateInput, { title: '   ' }),
    /invalid arguments for task_create: title: must not be empty/,
  );
  assert.throws(() => fieldIssue(taskCreateInput, 'nope', 1), /no field "nope"/);
});
