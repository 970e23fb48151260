import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRawServer } from '../helpers/rawServer';
import { tempRepo } from '../helpers/tmp';

/**
 * A client that connects and goes at once (a probe, a cancelled start, a client restarting) leaves
 * a server that closes cleanly: the housekeeping it starts when the ledger opens (events retention,
 * expired blackboard entries, contract-net calls of ended tasks) stops before the ledger closes,
 * so its stderr says only that it was ready — whenever the client goes: during the ledger's
 * opening, right after the first call, or while the housekeeping runs.
 */
test('a client that disconnects at once leaves nothing but the ready line on stderr', async () => {
  const repo = tempRepo();
  const noise: string[] = [];
  for (let round = 0; round < 16; round++) {
    const server = await startRawServer(repo, ['--enable-orchestrator']);
    if (round % 2 === 0) await server.request(1, 'tools/call', { name: 'task_list', arguments: {} });
    // The ledger opens 100 ms after `initialized` without a call: go before, during and after it.
    else await new Promise((resolve) => setTimeout(resolve, (round * 23) % 250));
    await server.close();
    assert.equal(server.exitCode(), 0, server.stderr());
    for (const line of server.stderr().split('\n'))
      if (line.trim() && !/^\[agent-ledger\] MCP server ready on /.test(line)) noise.push(`round ${round}: ${line}`);
  }
  assert.deepEqual(noise, []);
});
