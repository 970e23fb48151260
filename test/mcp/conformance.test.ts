import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, tempRepo } from '../helpers/tmp';
import { startHttpServer } from '../helpers/httpServer';
import { SkipTool, mcpTool, run } from '../helpers/mcpTools';

/**
 * The official conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, on the Node 22
 * it needs) against `agent-ledger mcp serve --http` itself, no bridge: each requirement set at its
 * own wire version, with a baseline that lists only the scenarios needing the suite's own
 * fixtures (test/mcp/conformance/*.yml, a reason each). The suite fails the run on any other
 * failure and on a baseline entry that passes. The suite sends no token: the server runs with
 * --no-token on loopback. Every family is on, so prompts and resources are there to check.
 */
const runs = [
  { requirements: '2026-07-28', baseline: 'baseline-2026-07-28.yml', args: [] },
  { requirements: '2025-11-25', baseline: 'baseline-2025-11-25.yml', args: [] },
  { requirements: '2025-11-25', baseline: 'baseline-2025-11-25-stateful.yml', args: ['--stateful'] },
];

for (const r of runs) {
  test(`conformance: the ${r.requirements} requirement set${r.args.length ? ` (${r.args.join(' ')})` : ''}`, async (t) => {
    let node22: string;
    let suite: string;
    try {
      [node22, suite] = [await mcpTool('node22'), await mcpTool('conformance')];
    } catch (err) {
      if (err instanceof SkipTool) return t.skip(err.message);
      throw err;
    }
    const repo = tempRepo();
    const server = await startHttpServer(repo, ['--no-token', '--enable-pm', '--enable-orchestrator', ...r.args]);
    const out = tempDir('agent-ledger-conformance-');
    try {
      const result = await run(node22, [
        suite,
        'server',
        '--url',
        server.url,
        '--requirements',
        r.requirements,
        '--expected-failures',
        path.join(__dirname, 'conformance', r.baseline),
        '-o',
        out,
      ]);
      const report = `${result.stdout}\n${result.stderr}`;
      const total = /Total: (\d+) passed, (\d+) failed/.exec(report);
      assert.ok(total, `the suite printed its summary:\n${report.slice(-3000)}`);
      // The figure the closing note quotes, per requirement set.
      t.diagnostic(`${r.requirements}${r.args.join(' ')}: ${total[1]} checks passed, ${total[2]} failed (baselined)`);
      assert.equal(result.code, 0, `no failure outside the baseline, no stale entry:\n${report.slice(-3000)}`);
      assert.doesNotMatch(report, /Unexpected failures detected/);
      // The scenarios really ran against this server: one result folder each.
      assert.ok(fs.readdirSync(out).filter((d) => d.startsWith('server-')).length >= 20);
    } finally {
      await server.stop();
    }
  });
}
