import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import type { Services } from '../../../../src/app/services';
import { git, tempRepo, writeFiles } from '../../../helpers/tmp';

async function startedTask(
  files: Record<string, string>,
): Promise<{ services: Services; repo: string; taskId: string; workflowId: string }> {
  const repo = tempRepo(files);
  const services = await createServices({ workspace: repo });
  const { workflow_id } = await services.workflows.start({
    name: 'Login',
    plan: [{ step: 'form', goal: 'a login form' }],
  });
  const { task_id } = await services.tracking.startTask({
    workflow_id,
    name: 'Add the form',
    goal: 'A login form',
    areas: ['src'],
  });
  return { services, repo, taskId: task_id, workflowId: workflow_id };
}

test('rewind puts back what a completed task changed and undo puts back the present', async () => {
  const { services, repo, taskId } = await startedTask({
    'src/a.ts': 'a1\n',
    'src/gone.ts': 'gone\n',
    'README.md': '# r\n',
  });
  try {
    writeFiles(repo, { 'src/a.ts': 'a2\n', 'src/new.ts': 'new\n', 'docs/x.md': 'x\n' });
    fs.rmSync(path.join(repo, 'src/gone.ts'));
    await services.tracking.completeTask({ task_id: taskId, status: 'success', outcome: { summary: 'done' } });
    // An edit made after the task: rewind overwrites it, undo must bring it back.
    writeFiles(repo, { 'src/a.ts': 'a3 (after the task)\n' });

    const head = git(repo, 'rev-parse', 'HEAD');
    const plan = await services.rewind.plan(taskId);
    assert.equal(plan.source, 'recorded');
    assert.deepEqual(plan.paths, ['docs/x.md', 'src/a.ts', 'src/gone.ts', 'src/new.ts']);
    await services.rewind.rewind(taskId, plan.paths);
    assert.equal(fs.readFileSync(path.join(repo, 'src/a.ts'), 'utf8'), 'a1\n');
    assert.equal(fs.readFileSync(path.join(repo, 'src/gone.ts'), 'utf8'), 'gone\n');
    assert.equal(fs.existsSync(path.join(repo, 'src/new.ts')), false);
    assert.equal(fs.existsSync(path.join(repo, 'docs/x.md')), false);
    assert.equal((await services.rewind.lastRewind(taskId))?.undoable, true);
    // Only working files change: HEAD stays, and here the files are back to HEAD's content.
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(git(repo, 'status', '--porcelain'), '');

    await services.rewind.undo(taskId);
    assert.equal(fs.readFileSync(path.join(repo, 'src/a.ts'), 'utf8'), 'a3 (after the task)\n');
    assert.equal(fs.existsSync(path.join(repo, 'src/gone.ts')), false);
    assert.equal(fs.readFileSync(path.join(repo, 'src/new.ts'), 'utf8'), 'new\n');
    assert.equal((await services.rewind.lastRewind(taskId))?.undoable, false);
    await assert.rejects(services.rewind.undo(taskId), /no rewind to undo/);
  } finally {
    await services.dispose();
  }
});

test('a running task is rewound by what it changed so far', async () => {
  const { services, repo, taskId } = await startedTask({ 'src/a.ts': 'a1\n' });
  try {
    writeFiles(repo, { 'src/a.ts': 'a2\n' });
    const plan = await services.rewind.plan(taskId);
    assert.equal(plan.source, 'live');
    assert.deepEqual(plan.paths, ['src/a.ts']);
  } finally {
    await services.dispose();
  }
});

test('the task tree reads workflows, top tasks with sub-task counts, loose tasks and running ones', async () => {
  const { services, taskId, workflowId } = await startedTask({ 'a.txt': 'a\n' });
  try {
    await services.tracking.startTask({ workflow_id: workflowId, parent_task_id: taskId, name: 'Sub', goal: 'g' });
    await services.tasks.create({ title: 'Loose one' } as never);
    const tree = services.taskTree;
    const roots = await tree.roots();
    assert.equal(roots.workflows.length, 1);
    assert.equal(roots.looseTasks, 1);
    const top = await tree.topTasks(roots.workflows[0].id);
    assert.deepEqual(
      top.map((t) => [t.task.title, t.childCount]),
      [['Add the form', 1]],
    );
    assert.deepEqual(
      (await tree.subTasks(top[0].task.id)).map((t) => t.task.title),
      ['Sub'],
    );
    assert.deepEqual(
      (await tree.topTasks(null)).map((t) => t.task.title),
      ['Loose one'],
    );
    assert.deepEqual((await tree.running()).map((t) => t.title).sort(), ['Add the form', 'Sub']);
  } finally {
    await services.dispose();
  }
});
