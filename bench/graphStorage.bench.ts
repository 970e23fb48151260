// Plan-graph versions stored as patches (issue 11, migration v15) against whole-graph versions,
// both measured in this run: "before" is the server built from the commit just before the change
// (bench/lib/baselineBuild.ts: `git archive` + esbuild into a temporary folder), "after" is
// dist/cli.js. Each side gets its own workspace and server (the real SDK client over stdio), the
// same layered DAG (node i depends on i-1 and i-7), then `--history` one-operation graph_patch
// calls so the store holds a history; then graph_patch, graph_batch_mutate and graph_diff
// (version 1 → latest) are timed, before and after alternating call by call.
// A last table times reading a version in process: the checkpoint alone vs replaying 32 patches.
// Target: p50 ≤ 50 ms at 1,000 nodes.
// Usage: npm run build && node --import tsx bench/graphStorage.bench.ts [--sizes 100,1000,5000] [--runs 30] [--history 64] [--base <git ref>]
//        [--in-process]: only the last table
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CHECKPOINT_EVERY, replayVersion, versionPatch } from '../src/core/coordination/plans/graphHistory';
import { normaliseGraph } from '../src/core/coordination/plans/planGraph';
import type { PlanGraph } from '../src/core/coordination/plans/planGraph';
import { connect } from '../test/helpers/mcpClient';
import type { LedgerClient } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { buildBaseline, commitBefore } from './lib/baselineBuild';
import { measure, ms, percentile, printTable, ratio, verdict, bytes } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const sizes = arg('--sizes', '100,1000,5000').split(',').map(Number);
const runs = Number(arg('--runs', '30'));
const history = Number(arg('--history', '64'));

function dagOperations(nodes: number): Record<string, unknown>[] {
  const ops: Record<string, unknown>[] = [];
  for (let i = 0; i < nodes; i++)
    ops.push({ op: 'add_node', node: { id: `n${i}`, attributes: { status: 'open', title: `step ${i}` } } });
  for (let i = 1; i < nodes; i++) {
    ops.push({ op: 'add_edge', edge: { from: `n${i - 1}`, to: `n${i}`, label: 'depends_on' } });
    if (i >= 7) ops.push({ op: 'add_edge', edge: { from: `n${i - 7}`, to: `n${i}`, label: 'depends_on' } });
  }
  return ops;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = statSync(file);
    total += st.isDirectory() ? folderBytes(file) : st.size;
  }
  return total;
}

interface Side {
  name: 'before' | 'after';
  client: LedgerClient;
  repo: string;
}

async function seed(side: Side, nodes: number): Promise<void> {
  const ops = dagOperations(nodes);
  for (let i = 0; i < ops.length; i += 200)
    await side.client.call('graph_batch_mutate', { graph_id: 'big', operations: ops.slice(i, i + 200) });
  for (let i = 0; i < history; i++) {
    await side.client.call('graph_patch', {
      graph_id: 'big',
      patch: [{ op: 'replace', path: `/nodes/n${i % nodes}/attributes/status`, value: `h${i}` }],
    });
  }
}

type Tool = { name: string; call: (c: LedgerClient, i: number, nodes: number) => Promise<unknown> };
const tools: Tool[] = [
  {
    name: 'graph_patch (1 op)',
    call: (c, i, n) =>
      c.call('graph_patch', {
        graph_id: 'big',
        patch: [{ op: 'replace', path: `/nodes/n${Math.abs(i) % n}/attributes/status`, value: `s${i}` }],
      }),
  },
  {
    name: 'graph_batch_mutate (1 op)',
    call: (c, i, n) =>
      c.call('graph_batch_mutate', {
        graph_id: 'big',
        operations: [{ op: 'set_node_attribute', id: `n${Math.abs(i) % n}`, key: 'owner', value: `a${i}` }],
      }),
  },
  {
    name: 'graph_diff v1 → latest',
    call: (c) => c.call('graph_diff', { graph_id: 'big', from: { version: 1 }, to: { latest: true } }),
  },
];

/** Reading a version in process: the checkpoint's JSON alone vs the same plus 32 one-operation patches. */
async function replayTable(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const nodes of sizes) {
    const ops = dagOperations(nodes);
    const graph = normaliseGraph({
      graph_id: 'big',
      nodes: ops
        .filter((o) => o.op === 'add_node')
        .map((o) => o.node as { id: string; attributes: Record<string, string> }),
      edges: ops.filter((o) => o.op === 'add_edge').map((o) => o.edge as { from: string; to: string; label: string }),
    });
    const json = JSON.stringify(graph);
    const patches: ReturnType<typeof versionPatch>[] = [];
    let g: PlanGraph = graph;
    for (let i = 0; i < CHECKPOINT_EVERY; i++) {
      const next = {
        ...g,
        nodes: g.nodes.map((n, k) =>
          k === (i * 37) % g.nodes.length ? { ...n, attributes: { ...n.attributes, status: `r${i}` } } : n,
        ),
      };
      patches.push(versionPatch(g, next));
      g = next;
    }
    const stored = patches.map((p) => JSON.stringify(p));
    const parseOnly = await measure(runs, () => JSON.parse(json) as PlanGraph, 20);
    // Replay never changes the checkpoint it is given, so one parsed copy serves every run.
    const parsed = JSON.parse(json) as PlanGraph;
    const replay = await measure(
      runs,
      () =>
        replayVersion(
          parsed,
          stored.map((p) => JSON.parse(p) as ReturnType<typeof versionPatch>),
          { graph_id: 'big', graph_version: 2 },
        ),
      20,
    );
    rows.push([
      nodes,
      bytes(json.length),
      bytes(Math.round(stored.reduce((sum, p) => sum + p.length, 0) / stored.length)),
      ms(percentile(parseOnly, 50)),
      ms(percentile(replay, 50)),
    ]);
  }
  printTable(
    `reading a version in process (${runs} runs): parsing its checkpoint vs replaying the longest chain, ${CHECKPOINT_EVERY} one-operation patches, on it`,
    [
      'nodes',
      'checkpoint',
      'one patch',
      'parse the checkpoint p50 ms',
      `replay ${CHECKPOINT_EVERY} patches on it p50 ms`,
    ],
    rows,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--in-process')) return replayTable();
  const baseRef = arg('--base', '');
  const baseline = buildBaseline(baseRef || commitBefore('src/core/coordination/plans/graphHistory.ts'));
  console.log(
    `before: whole-graph versions, built from ${baseline.commit.slice(0, 10)}; after: this checkout's dist/cli.js`,
  );
  const rows: (string | number)[][] = [];
  const sizeRows: (string | number)[][] = [];
  try {
    for (const nodes of sizes) {
      const sides: Side[] = [];
      try {
        for (const name of ['before', 'after'] as const) {
          const repo = tempRepo();
          sides.push({
            name,
            repo,
            client: await connect(repo, ['--enable-orchestrator'], name === 'before' ? { cli: baseline.cli } : {}),
          });
        }
        for (const side of sides) await seed(side, nodes);
        const n = Math.max(5, Math.round(runs * (nodes > 2000 ? 0.3 : 1)));
        for (const tool of tools) {
          // Call by call, before then after, so both sides see the same moments of a loaded machine.
          const [before, after]: number[][] = [[], []];
          for (let i = -3; i < n; i++) {
            for (const [k, side] of sides.entries()) {
              const start = performance.now();
              await tool.call(side.client, i, nodes);
              if (i >= 0) (k === 0 ? before : after).push(performance.now() - start);
            }
          }
          const p50 = percentile(after, 50);
          rows.push([
            nodes,
            tool.name,
            ms(percentile(before, 50)),
            ms(percentile(before, 95)),
            ms(p50),
            ms(percentile(after, 95)),
            ratio(p50, percentile(before, 50)),
            nodes === 1000 ? verdict(p50 <= 50) : '',
          ]);
        }
        const [b, a] = sides.map((s) => folderBytes(path.join(s.repo, '.agent-ledger')));
        sizeRows.push([
          nodes,
          history + Math.ceil(dagOperations(nodes).length / 200) + n * 2,
          bytes(b),
          bytes(a),
          ratio(a, b),
        ]);
      } finally {
        await Promise.all(sides.map((s) => s.client.close()));
      }
    }
  } finally {
    baseline.dispose();
  }
  printTable(
    `plan-graph tools through the MCP server, whole-graph versions (before) vs patches (after), ${history} versions of history first (${runs} calls each, ${Math.round(runs * 0.3)} at 5,000 nodes)`,
    [
      'nodes',
      'tool',
      'before p50 ms',
      'before p95 ms',
      'after p50 ms',
      'after p95 ms',
      'after / before',
      'p50 ≤ 50 ms',
    ],
    rows,
  );
  printTable(
    'the ledger folder (.agent-ledger) after the run',
    ['nodes', 'versions', 'before', 'after', 'after / before'],
    sizeRows,
  );
  await replayTable();
}

void main();
