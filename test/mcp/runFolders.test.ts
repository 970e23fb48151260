/**
 * One truth about folders: the runner launches the agent in the project's folder inside the task's
 * own worktree, and the launch prompt, get_my_task, task://, the session, the run's record and the
 * task_start prompt all name that folder. An agent that follows get_my_task works there, and the
 * task records exactly what it changed, while the user's checkout stays as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { cliJson } from '../helpers/cli';
import { git } from '../helpers/tmp';
import { stdoutOf } from '../../src/processes/launchClient';
import { pmWorld, runnerOnce } from './pmHelpers';

test('the runner, the launch prompt, get_my_task, task://, the session, the run and task_start name one folder; the work done there is the task’s', async () => {
  const { repo, c } = await pmWorld();
  const fakes = fakeAgents();
  try {
    const queued = cliJson<{ task_id: string }>([
      'task',
      'create',
      'Login page',
      '--agent',
      'coder',
      '--project',
      'web',
      '--workspace',
      repo,
    ]);
    const env = fakes.env({
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        // What the agent was told, for the test to read back from the run's log.
        { print: { $result: [1, 'task.working_directory'] } },
        { write: 'login.js', content: 'export const login = () => true;\n' },
        { call: 'report_completed', args: { result: 'success', summary: 'login page written' } },
      ],
    });
    const run = runnerOnce(repo, env);
    assert.equal(run.code, 0, run.stderr);
    const launched = run.events.find((e) => e.kind === 'launched') as
      { cwd: string; instance: { executionId: string; logFile: string } } | undefined;
    assert.ok(launched, JSON.stringify(run.events));

    const worktree = path.join(repo, '.agent-ledger', 'worktrees', 'task-1');
    const folder = path.join(worktree, 'packages', 'web');
    assert.equal(launched.cwd, folder, 'the project’s folder inside the task’s worktree');
    const [fake] = fakes.runs();
    assert.equal(fake.cwd, folder, 'the client started there');
    assert.match(fake.prompt, new RegExp(`^working_directory: ${folder}$`, 'm'));
    assert.match(fake.prompt, /the task's own Git worktree, on branch task-1-s1/);
    assert.match(fake.prompt, /^task_id: task-1$/m);
    const told = (await stdoutOf(launched.instance.logFile)).split('\n');
    assert.ok(told.includes(folder), `get_my_task answered ${JSON.stringify(told.slice(0, 3))}`);

    const resource = await c.client.readResource({ uri: `task://${queued.task_id}` });
    const task = JSON.parse((resource.contents[0] as { text: string }).text) as {
      worktree: string;
      filesChanged: { added: string[]; modified: string[] };
      status: string;
    };
    assert.equal(path.resolve(repo, task.worktree), worktree, 'task:// names the same worktree');
    const sessions = cliJson<{ sessions: Array<{ worktree: string; branch: string; sessionGroupId: string }> }>([
      'session',
      'list',
      '--task',
      '1',
      '--workspace',
      repo,
    ]);
    assert.deepEqual(
      sessions.sessions.map((s) => [path.resolve(repo, s.worktree), s.branch, s.sessionGroupId]),
      [[worktree, 'task-1-s1', launched.instance.executionId]],
      'the session names it too',
    );
    const { log } = await c.call<{ log: { workingDirectory: string | null; client: string | null } }>(
      'get_execution_log',
      { execution_id: launched.instance.executionId },
    );
    assert.deepEqual([log.workingDirectory, log.client], [folder, 'claude'], 'and the run’s record');
    const prompt = await c.client.getPrompt({
      name: 'task_start',
      arguments: { task_id: 'task-1', agent_id: 'coder' },
    });
    const text = (prompt.messages[0].content as { text: string }).text;
    assert.match(text, new RegExp(`^Working directory: ${folder}$`, 'm'), 'and the task_start prompt');

    // Exact attribution: the file the agent wrote where it was told is the task's, and only that.
    assert.equal(task.status, 'done');
    assert.deepEqual(task.filesChanged.added, ['packages/web/login.js']);
    assert.deepEqual(task.filesChanged.modified, []);
    assert.ok(fs.existsSync(path.join(folder, 'login.js')));
    assert.equal(fs.existsSync(path.join(repo, 'packages', 'web', 'login.js')), false, 'not in the user’s checkout');
    assert.equal(git(repo, 'status', '--porcelain', '--', 'packages'), '', 'the user’s checkout is untouched');
    assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');
  } finally {
    await c.close();
  }
});
