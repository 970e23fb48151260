import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { git, tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';
import { connectLooking, marksOf as marks } from '../helpers/stigmergyMarks';
import type { MarkPoint as Point } from '../helpers/stigmergyMarks';

/**
 * Looking at a running task's work tree for the changed-file marks writes nothing to the
 * repository: through the real SDK client over stdio, a task started by worker_command is
 * looked at every 100 ms while its work tree is unchanged, changed, changed again and partly
 * deleted; the repository's loose objects stay the same in number, and the marks are the files
 * changed since the previous look, as before.
 */

const lookMs = 100;
const looks = 10;

/** Loose objects of the repository (every worktree of it writes there), by id. */
function looseObjects(repo: string): string[] {
  const dir = path.join(repo, '.git', 'objects');
  return fs
    .readdirSync(dir)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => fs.readdirSync(path.join(dir, d)).map((f) => d + f))
    .sort();
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('N looks at an unchanged, a changed and a partly deleted work tree write no Git object; the marks are the files changed since the previous look', async () => {
  const repo = tempRepo({
    'README.md': '# r\n',
    'src/app.ts': 'export {};\n',
    'src/util.ts': 'export const u = 1;\n',
    '.agent-ledger/agents/web.yaml': 'client: claude-code\nscope:\n  write: ["src/**"]\n',
  });
  const c = await connectLooking(repo, lookMs, ['--enable-orchestrator']);
  const reader = await connect(repo, ['--enable-orchestrator']);
  try {
    const task = await c.call<{ id: number }>('task_create', { title: 'Wire the router' });
    const w = await c.call<{ cwd: string }>('worker_command', { taskId: task.id, agent: 'web' });
    const type = `changed:task-${task.id}`;
    const gitDir = git(w.cwd, 'rev-parse', '--absolute-git-dir').trim();

    // Unchanged: looks go on, nothing is written, nothing is marked.
    const atStart = looseObjects(repo);
    await wait(lookMs * looks);
    assert.deepEqual(looseObjects(repo), atStart, 'an unchanged work tree: no object per look');
    assert.deepEqual(await marks(reader, type), []);

    // Changed: the file is marked once; later looks at the same content write nothing and mark nothing.
    fs.writeFileSync(path.join(w.cwd, 'src/app.ts'), 'export const app = 1;\n');
    const [app] = await until('the change marked', async () => {
      const m = await marks(reader, type);
      return m.length > 0 ? m : undefined;
    });
    assert.equal(app.node_id, 'src/app.ts');
    await wait(lookMs * looks);
    assert.deepEqual(looseObjects(repo), atStart, 'a changed work tree: no commit, tree or blob per look');
    const when = (m: Point[]) => m.map((p) => `${p.node_id} @${p.updated_at}`);
    assert.deepEqual(
      when(await marks(reader, type)),
      when([app]),
      'a file left alone is not marked again (faded, not renewed)',
    );

    // Changed again, a new file, a deletion: exactly those, as a snapshot diff would name them.
    fs.writeFileSync(path.join(w.cwd, 'src/app.ts'), 'export const app = 2;\n');
    fs.mkdirSync(path.join(w.cwd, 'src/routes'));
    fs.writeFileSync(path.join(w.cwd, 'src/routes/home.ts'), 'export {};\n');
    fs.rmSync(path.join(w.cwd, 'src/util.ts'));
    const all = await until('the second round marked', async () => {
      const m = await marks(reader, type);
      return m.length === 3 && m.every((p) => p.updated_at > app.updated_at) ? m : undefined;
    });
    assert.deepEqual(
      all.map((p) => p.node_id),
      ['src/app.ts', 'src/routes/home.ts', 'src/util.ts'],
    );
    await wait(lookMs * looks);
    assert.deepEqual(when(await marks(reader, type)), when(all), 'nothing changed since: nothing marked again');
    assert.deepEqual(looseObjects(repo), atStart, 'still no object written');
    assert.ok(
      fs.readdirSync(gitDir).some((f) => f.startsWith('agent-ledger-changes-')),
      'the watch keeps its index in the work tree’s git dir',
    );

    // The task ends: the watch stops and deletes its index.
    await c.call('task_update', { id: task.id, status: 'cancelled' });
    await until(
      'the watch index deleted',
      async () => (fs.readdirSync(gitDir).some((f) => f.startsWith('agent-ledger-changes-')) ? undefined : true),
      5_000,
    );
  } finally {
    await reader.close();
    await c.close();
  }
});
