// The write-scope gate on both engines: a running task whose agent may write anywhere (the built-in
// coder's `**/*`) still holds the areas it declared, whatever its session recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LedgerEngine } from '../../../../src/core/ports/store';
import { scopeConflicts, workingTasks } from '../../../../src/core/scheduling/startGates';
import { engineCases } from '../../store/engines/engineKit';

const at = '2026-11-24T10:00:00.000Z';

async function task(
  engine: LedgerEngine,
  t: { areas: string[]; writeScope?: { agent: string; write: string[]; exclude: string[] }[]; session?: boolean },
): Promise<number> {
  return engine.write(async (tx) => {
    const id = await tx.insert(
      'INSERT INTO tasks (title, status, areas, write_scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      [
        't',
        t.session ? 'in_progress' : 'open',
        JSON.stringify(t.areas),
        t.writeScope ? JSON.stringify(t.writeScope) : null,
        at,
        at,
      ],
    );
    if (t.session) {
      const session = await tx.insert(
        "INSERT INTO sessions (task_id, agent, client, origin, status, started_at) VALUES (?, 'coder', 'claude', 'worker_command', 'running', ?)",
        [id, at],
      );
      await tx.run('UPDATE tasks SET selected_session_id = ? WHERE id = ?', [session, id]);
    }
    return id;
  });
}

for (const engineCase of engineCases) {
  test(
    `a running task keeps its areas when its agent's recorded scope is the whole workspace, on ${engineCase.name}`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const everywhere = [{ agent: 'coder', write: ['**/*'], exclude: [] }];
        const running = await task(engine, { areas: ['src/api'], writeScope: everywhere, session: true });
        const narrow = await task(engine, {
          areas: ['docs'],
          writeScope: [{ agent: 'writer', write: ['docs/guide/**'], exclude: [] }],
          session: true,
        });
        const candidate = await task(engine, { areas: ['src/api/login.ts'] });
        const elsewhere = await task(engine, { areas: ['src/web'] });

        const working = await engine.read((db) => workingTasks(db));
        assert.deepEqual(
          working.map((w) => [w.taskId, w.writeScope]).sort(),
          [
            [`task-${running}`, ['src/api']],
            [`task-${narrow}`, ['docs/guide/**']],
          ].sort(),
          "the coder's **/* declares nothing: its task's areas speak; a narrower agent scope wins over areas",
        );
        const held = await engine.read((db) => scopeConflicts(db, candidate));
        assert.deepEqual(
          held.conflicts.map((c) => c.runningTaskId),
          [`task-${running}`],
        );
        assert.deepEqual((await engine.read((db) => scopeConflicts(db, elsewhere))).conflicts, []);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
