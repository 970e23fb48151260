// The orchestrator tools through real MCP servers (dist/cli.js, the SDK client over stdio):
// - graph_patch and graph_diff on a stored plan graph of 1,000 nodes (a round trip each:
//   read the committed version, lock check, patch, invariants, commit with its event);
// - wake-up latency: a waiting events_subscribe in one server process, a bb_set in another,
//   measured from the start of the write to the waiter's answer (target ≤ 100 ms p50).
// Usage: npm run bench -- --only coordinationTools  (or node --import tsx bench/coordinationTools.bench.ts [--nodes 1000] [--runs 40])
import { connect } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { measure, ms, percentile, printTable, verdict } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const nodes = Number(arg('--nodes', '1000'));
const runs = Number(arg('--runs', '40'));

async function main(): Promise<void> {
  const repo = tempRepo();
  const [a, b] = await Promise.all([
    connect(repo, ['--enable-orchestrator']),
    connect(repo, ['--enable-orchestrator']),
  ]);
  try {
    // A layered DAG: node i depends on i-1 and i-7 when they exist.
    const ops: Record<string, unknown>[] = [];
    for (let i = 0; i < nodes; i++)
      ops.push({ op: 'add_node', node: { id: `n${i}`, attributes: { status: 'open', title: `step ${i}` } } });
    for (let i = 1; i < nodes; i++) {
      ops.push({ op: 'add_edge', edge: { from: `n${i - 1}`, to: `n${i}`, label: 'depends_on' } });
      if (i >= 7) ops.push({ op: 'add_edge', edge: { from: `n${i - 7}`, to: `n${i}`, label: 'depends_on' } });
    }
    const seedStart = performance.now();
    for (let i = 0; i < ops.length; i += 200)
      await a.call('graph_batch_mutate', { graph_id: 'big', operations: ops.slice(i, i + 200) });
    const seedMs = performance.now() - seedStart;
    const edges = ops.length - nodes;

    const patch = await measure(runs, (i) =>
      a.call('graph_patch', {
        graph_id: 'big',
        patch: [{ op: 'replace', path: `/nodes/n${Math.abs(i) % nodes}/attributes/status`, value: `s${i}` }],
      }),
    );
    const diff = await measure(runs, () =>
      a.call('graph_diff', { graph_id: 'big', from: { version: 1 }, to: { latest: true } }),
    );
    const batch = await measure(runs, (i) =>
      a.call('graph_batch_mutate', {
        graph_id: 'big',
        operations: [{ op: 'set_node_attribute', id: `n${Math.abs(i) % nodes}`, key: 'owner', value: `a${i}` }],
      }),
    );
    printTable(
      `plan-graph tools on a stored graph of ${nodes} nodes and ${edges} edges (${runs} calls each; seeding ${Math.ceil(ops.length / 200)} batches took ${ms(seedMs)} ms)`,
      ['tool', 'p50 ms', 'p95 ms', 'p50 < 50 ms'],
      [
        [
          'graph_patch (1 op)',
          ms(percentile(patch, 50)),
          ms(percentile(patch, 95)),
          verdict(percentile(patch, 50) < 50),
        ],
        [
          'graph_batch_mutate (1 op)',
          ms(percentile(batch, 50)),
          ms(percentile(batch, 95)),
          verdict(percentile(batch, 50) < 50),
        ],
        [
          'graph_diff v1 → latest',
          ms(percentile(diff, 50)),
          ms(percentile(diff, 95)),
          verdict(percentile(diff, 50) < 50),
        ],
      ],
    );

    const wake: number[] = [];
    let cursor = (await a.call<{ next_seq: number }>('events_subscribe', { wait_ms: 0, from_seq: 0, limit: 500 }))
      .next_seq;
    for (;;) {
      const page = await a.call<{ next_seq: number; count: number }>('events_subscribe', {
        wait_ms: 0,
        from_seq: cursor,
        limit: 500,
      });
      if (page.count === 0) break;
      cursor = page.next_seq;
    }
    for (let i = 0; i < runs; i++) {
      const waiting = a.call<{ next_seq: number; count: number }>('events_subscribe', {
        from_seq: cursor,
        cats: ['blackboard'],
        wait_ms: 30_000,
      });
      await new Promise((r) => setTimeout(r, 50));
      const t0 = performance.now();
      const writing = b.call('bb_set', { key: `bench:k${i}`, value: i });
      const got = await waiting;
      wake.push(performance.now() - t0);
      await writing;
      if (got.count !== 1) throw new Error(`expected the one write, got ${got.count}`);
      cursor = got.next_seq;
    }
    printTable(
      `wake-up of a waiting events_subscribe after another server process's bb_set (${runs} runs, from the start of the write)`,
      ['p50 ms', 'p95 ms', 'max ms', 'p50 ≤ 100 ms'],
      [
        [
          ms(percentile(wake, 50)),
          ms(percentile(wake, 95)),
          ms(Math.max(...wake)),
          verdict(percentile(wake, 50) <= 100),
        ],
      ],
    );
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

void main();
