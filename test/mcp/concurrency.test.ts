import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { ledgerEnv } from '../helpers/testLedger';

const streamer = path.join(__dirname, 'writerStream.fixture.ts');

test('four server processes creating tasks at the same time lose nothing', async () => {
  const repo = tempRepo();
  const clients = await Promise.all([0, 1, 2, 3].map(() => connect(repo)));
  const { workflow_id } = await clients[0].call<{ workflow_id: string }>('start_workflow', { name: 'concurrent' });
  const perClient = 25;
  const created = await Promise.all(
    clients.map(async (c, i) => {
      const ids: string[] = [];
      for (let n = 0; n < perClient; n++) {
        const { task_id } = await c.call<{ task_id: string }>('start_task', {
          workflow_id,
          name: `c${i}-t${n}`,
          goal: 'g',
        });
        await c.call('log_milestone', { task_id, message: `from client ${i}`, progress: n });
        ids.push(task_id);
      }
      return ids;
    }),
  );
  const all = created.flat();
  assert.equal(new Set(all).size, 4 * perClient, 'every task got its own id');
  const workflow = JSON.parse(
    ((await clients[3].client.readResource({ uri: `workflow://${workflow_id}` })).contents[0] as { text: string }).text,
  );
  assert.equal(workflow.tasks.length, 4 * perClient);
  const names = new Set(workflow.tasks.map((t: { title: string }) => t.title));
  for (let i = 0; i < 4; i++)
    for (let n = 0; n < perClient; n++) assert.ok(names.has(`c${i}-t${n}`), `c${i}-t${n} missing`);
  for (const c of clients) await c.close();
});

/**
 * A server killed with SIGKILL in the middle of a stream of writes leaves a store that opens
 * and holds every write it acknowledged. The fixture prints each acknowledged task id as soon
 * as its tools/call response arrives; the server is then killed at a random instant.
 */
test('kill -9 of a server mid-stream keeps every acknowledged write (repeated)', async () => {
  const repo = tempRepo();
  const acknowledged: string[] = [];
  for (let round = 0; round < 8; round++) {
    // (On `npm run test:pg`, the workspace's database reaches the streamer's server through the environment.)
    const child = spawn(process.execPath, ['--import', 'tsx', streamer, repo, `r${round}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: ledgerEnv(repo),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Wait until the stream is flowing (a loaded machine may take seconds to start it), then
    // kill the server process (not the client) at a random instant.
    const deadline = Date.now() + 30_000;
    while (!/^ACK /m.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const serverPid = Number(/SERVER (\d+)/.exec(out)?.[1]);
    assert.ok(serverPid > 0 && /^ACK /m.test(out), `round ${round}: the stream did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 700));
    process.kill(serverPid, 'SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const acked = [...out.matchAll(/^ACK (.+)$/gm)].map((m) => m[1]);
    acknowledged.push(...acked);

    const c = await connect(repo);
    for (const name of acked) {
      const [taskId] = name.split(' ');
      const read = JSON.parse(
        ((await c.client.readResource({ uri: `task://${taskId}` })).contents[0] as { text: string }).text,
      );
      assert.equal(read.lastMilestone, name, `round ${round}: acknowledged milestone of ${taskId} is missing`);
    }
    await c.close();
  }
  assert.ok(acknowledged.length >= 16, `enough writes were exercised (${acknowledged.length})`);
});
