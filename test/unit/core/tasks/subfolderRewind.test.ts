import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import { git, tempRepo, writeFiles } from '../../../helpers/tmp';

test('a subfolder workspace: complete_task, task_get and rewind all speak paths relative to the folder', async () => {
  const repo = tempRepo({ 'package.json': '{}\n', 'packages/app/src/a.ts': 'a1\n', 'packages/lib/b.ts': 'b1\n' });
  const app = path.join(repo, 'packages', 'app');
  const services = await createServices({ workspace: app });
  try {
    const { workflow_id } = await services.workflows.start({ name: 'App' });
    const { task_id } = await services.tracking.startTask({
      workflow_id,
      name: 'Edit',
      goal: 'edit the app',
      areas: ['src'],
    });
    writeFiles(repo, {
      'packages/app/src/a.ts': 'a2\n',
      'packages/app/src/new.ts': 'n\n',
      'packages/lib/b.ts': 'b2 (another package)\n',
    });
    const done = await services.tracking.completeTask({ task_id, status: 'success', outcome: { summary: 'edited' } });
    assert.deepEqual(done.files_changed, { added: ['src/new.ts'], modified: ['src/a.ts'], deleted: [], renamed: [] });
    assert.equal(done.verification.scope_match, true, 'areas are matched against workspace-relative paths');
    assert.equal(done.repositoryRoot, repo);
    assert.equal(done.workspacePath, 'packages/app');
    const task = (await services.tasks.get(task_id)) as Record<string, unknown>;
    assert.equal(task.repositoryRoot, repo);
    assert.equal(task.workspacePath, 'packages/app');

    const plan = await services.rewind.plan(task_id);
    assert.deepEqual(plan.paths, ['src/a.ts', 'src/new.ts']);
    await services.rewind.rewind(task_id, plan.paths);
    assert.equal(fs.readFileSync(path.join(app, 'src', 'a.ts'), 'utf8'), 'a1\n');
    assert.equal(fs.existsSync(path.join(app, 'src', 'new.ts')), false);
    assert.equal(
      fs.readFileSync(path.join(repo, 'packages', 'lib', 'b.ts'), 'utf8'),
      'b2 (another package)\n',
      'the other package is left alone',
    );
    await services.rewind.undo(task_id);
    assert.equal(fs.readFileSync(path.join(app, 'src', 'a.ts'), 'utf8'), 'a2\n');
    assert.match(git(repo, 'status', '--porcelain'), /packages\/lib\/b\.ts/);
  } finally {
    services.dispose();
  }
});
