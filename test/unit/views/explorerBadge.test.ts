// The Explorer's badges read as ledger state: from real marks in a real ledger (the runner's
// `changed:` marks and a task's declared scope) to the letter, tooltip and colour the provider shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServices } from '../../../src/app/services';
import { explorerBadge, ExplorerBadgeColors } from '../../../src/views/explorerBadge';
import { tempDir } from '../../helpers/tmp';

test('a file a running task changed reads "changed by task-N (agent, running)", not a count beside Git', async () => {
  const services = await createServices({ workspace: tempDir() });
  try {
    const running = async (title: string, assignee: string | null) => {
      const task = await services.tasks.create({ title } as never);
      await services.engine.write((tx) =>
        tx.run("UPDATE tasks SET status = 'in_progress', assignee = ? WHERE id = ?", [assignee, task.id]),
      );
      return task;
    };
    const fix = await running('Fix login', 'coder');
    const auth = await running('Rework auth', null);
    await services.scheduling.stigmergy.markTask(auth.id, ['src/auth/**']);
    await services.scheduling.stigmergy.markTask(fix.id, ['src/auth/login.ts'], 'changed');
    await services.scheduling.stigmergy.markTask(auth.id, ['src/auth/session.ts'], 'changed');
    await services.scheduling.stigmergy.markTask(fix.id, ['src/auth/session.ts'], 'changed');
    await services.scheduling.stigmergy.mark({ node_id: 'docs/notes.md', type: 'explore', intensity: 1 });
    const pressure = await services.board.pressure();
    const of = (p: string) => {
      const found = pressure.find((x) => x.path === p);
      assert.ok(found, `${p} is in the Explorer's answer`);
      return explorerBadge(found);
    };

    const login = of('src/auth/login.ts');
    assert.equal(login.badge, 'W');
    assert.equal(login.color, ExplorerBadgeColors.changed);
    assert.equal(login.tooltip, `changed by task-${fix.id} (coder, running): Fix login`);

    const session = of('src/auth/session.ts');
    assert.equal(session.badge, 'W');
    assert.equal(session.color, ExplorerBadgeColors.shared, 'two tasks changed it: the shared colour');
    assert.match(session.tooltip, new RegExp(`changed by task-${fix.id} \\(coder, running\\)`));
    assert.match(session.tooltip, new RegExp(`changed by task-${auth.id} \\(running\\)`));

    const folder = of('src/auth');
    assert.equal(folder.badge, 'W', 'a folder carries what changed under it');
    assert.equal(
      folder.tooltip,
      `changed by task-${fix.id} (coder, running): Fix login\nchanged by task-${auth.id} (running): Rework auth`,
    );

    const notes = of('docs/notes.md');
    assert.equal(notes.badge, '•');
    assert.equal(notes.color, undefined);
    assert.equal(notes.tooltip, "agents' marks: explore");

    // Only a declared scope: S, no colour; beside changes, the scope comes after them.
    const other = await running('Docs', 'writer');
    await services.scheduling.stigmergy.markTask(other.id, ['docs/guide/**']);
    const guide = explorerBadge((await services.board.pressure()).find((x) => x.path === 'docs/guide')!);
    assert.deepEqual(guide, {
      badge: 'S',
      tooltip: `in the scope of task-${other.id} (writer, running): Docs`,
      color: undefined,
    });
    await services.scheduling.stigmergy.markTask(other.id, ['src/**']);
    assert.equal(
      explorerBadge((await services.board.pressure()).find((x) => x.path === 'src')!)
        .tooltip.split('\n')
        .at(-1),
      `in the scope of task-${other.id} (writer, running): Docs`,
    );

    // None of Git's letters, never a number, never the error or warning colour.
    for (const p of await services.board.pressure()) {
      const b = explorerBadge(p);
      assert.ok(!/^[MADRCUIT!0-9]/.test(b.badge), `${p.path}: ${b.badge}`);
      assert.ok(!b.color || !/error|warning/i.test(b.color), `${p.path}: ${b.color}`);
    }
  } finally {
    await services.dispose();
  }
});

test('the badge colours are contributed by package.json, for every theme kind', () => {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
    contributes: { colors?: { id: string; defaults: Record<string, string> }[] };
  };
  for (const id of Object.values(ExplorerBadgeColors)) {
    const color = pkg.contributes.colors?.find((c) => c.id === id);
    assert.ok(color, `${id} is contributed`);
    assert.deepEqual(Object.keys(color.defaults).sort(), ['dark', 'highContrast', 'highContrastLight', 'light']);
  }
});
