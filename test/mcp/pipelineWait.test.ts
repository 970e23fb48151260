import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ledgerEnv } from '../helpers/testLedger';
import { connect, cliPath } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import type { Action } from './pipelineDriver';
import { drive, start, twoTasks } from './pipelineDriver';

const repoFiles = {
  'package.json': '{"scripts":{"build":"tsc -p .","test":"node --test"}}\n',
  'src/http.ts': 'export function get() {}\n',
  'README.md': '# demo\n',
};

/** The CLI in another process, without blocking this one's event loop (the wait runs meanwhile). */
function cliAsync(repo: string, ...args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args, '--workspace', repo], {
      stdio: 'ignore',
      env: ledgerEnv(repo),
    });
    child.on('close', resolve);
  });
}

test('pipeline_next_action with wait_ms at a checkpoint returns the next action the moment a person approves from another process', async () => {
  const repo = tempRepo(repoFiles);
  const c = await connect(repo);
  try {
    const { workspace } = await start(c, 'Fix the typo in the README --nopr', {
      effort: 'S',
      use_current_branch: false,
    });
    let checked = false;
    await drive(c, repo, workspace, {
      tasksMd: twoTasks,
      onAction: async (a: Action) => {
        if (a.type !== 'checkpoint' || checked) return;
        checked = true;
        const t0 = Date.now();
        const timedOut = await c.call<Action>('pipeline_next_action', { workspace, wait_ms: 400 });
        assert.equal(timedOut.type, 'checkpoint', 'no decision: the checkpoint again, after the wait');
        assert.equal(timedOut.name, a.name);
        assert.ok(Date.now() - t0 >= 350, 'it waited');

        const waiting = c.call<Action>('pipeline_next_action', { workspace, wait_ms: 45_000 });
        await new Promise((r) => setTimeout(r, 300));
        const started = Date.now();
        assert.equal(await cliAsync(repo, 'pipeline', 'approve', workspace, '--by', 'alice'), 0);
        const approvedAt = Date.now();
        const next = await waiting;
        assert.notEqual(next.type, 'checkpoint', `resumed by itself after the approval: ${next.type}`);
        assert.ok(Date.now() - started < 30_000, 'woke on the decision, not at the end of the wait');
        assert.ok(
          Date.now() - approvedAt < 10_000,
          `returned soon after the CLI wrote (${Date.now() - approvedAt} ms)`,
        );
        return 'stop';
      },
    });
    assert.ok(checked, 'the flow reached a checkpoint');
  } finally {
    await c.close();
  }
});
