// pipeline_next_action latency with 1,000 past pipelines in .specs/index.json, over the real
// SDK client and the built server (dist/cli.js), against the bare round trip of mcp_info
// measured in the same run.
// Usage: npm run build && node --import tsx bench/pipelineNextAction.bench.ts [--past N] [--n N]
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server process.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempRepo, writeFiles } from '../test/helpers/tmp';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const PAST = arg('--past', 1000);
const N = arg('--n', 200);

interface LedgerClient {
  call<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/** The SDK client over stdio against dist/cli.js, as an agent uses it (test helpers pull in node:test). */
async function connect(workspace: string): Promise<LedgerClient> {
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, path.resolve(__dirname, '../dist/cli.js'), 'mcp', 'serve', '--workspace', workspace],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'agent-ledger-bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    async call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      if (result.isError) throw new Error(`${name} failed: ${text}`);
      return (result.structuredContent ?? JSON.parse(text)) as T;
    },
    close: () => client.close(),
  };
}

/** A small deterministic PRNG, so every run indexes the same corpus. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const words = (
  'auth token session cache retry timeout http client server request response queue worker job schedule cron database migration schema index query ' +
  'search ranking filter page settings theme dark mode layout button form validation error logging metrics trace span export import csv json yaml ' +
  'config flag feature toggle user account profile email password reset login logout oauth jwt refresh rate limit throttle backoff proxy gateway ' +
  'upload download file storage bucket image resize thumbnail video stream websocket event bus message payload webhook signature billing invoice'
).split(' ');
const findingPool = [
  'Missing timeout on outgoing requests',
  'Missing error handling in the retry loop',
  'No test covers the failure path',
  'The migration is not reversible',
  'Secrets are logged at debug level',
  'The cache key ignores the user id',
  'N+1 queries in the list endpoint',
  'Input is not validated before use',
  'The config option is undocumented',
  'Race condition when two workers take the same job',
];
const frictionPool = [
  'Integration tests need a running proxy',
  'The build takes four minutes',
  'No docs on the event bus payloads',
  'Flaky e2e test in the login flow',
  'Lint rules differ between packages',
];

function pastIndex(count: number): Record<string, unknown> {
  const rnd = prng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const pipelines = [];
  for (let i = 0; i < count; i++) {
    const title = Array.from({ length: 6 }, () => pick(words)).join(' ');
    const request = Array.from({ length: 60 }, () => pick(words)).join(' ');
    const variant = (s: string): string => (rnd() < 0.5 ? s : s.toLowerCase().replace(/ the /, ' '));
    pipelines.push({
      workspace: `.specs/2025${String(1 + (i % 12)).padStart(2, '0')}01-past-${i}`,
      spec_name: `past-${i}`,
      title,
      source_type: 'text',
      effort: pick(['S', 'M', 'L']),
      flow_template: 'standard',
      status: 'completed',
      created_at: '2025-01-01T00:00:00.000Z',
      completed_at: '2025-01-01T01:00:00.000Z',
      request: `${title}\n${request}`,
      findings: Array.from({ length: 3 }, () => ({
        phase: pick(['phase-3b', 'phase-6']),
        severity: pick(['CRITICAL', 'MAJOR', 'MINOR']),
        description: variant(pick(findingPool)),
      })),
      friction: [pick(frictionPool), pick(frictionPool)],
      revisions: Math.floor(rnd() * 3),
      total_tokens: Math.floor(rnd() * 200_000),
      total_duration_ms: Math.floor(rnd() * 3_600_000),
    });
  }
  return { version: 1, updated_at: '2025-12-31T00:00:00.000Z', pipelines };
}

interface Row {
  name: string;
  samples: number[];
}

async function time(n: number, fn: (i: number) => Promise<unknown>, before?: (i: number) => void): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    before?.(i);
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function newPipeline(c: LedgerClient, text: string): Promise<string> {
  const init = await c.call('pipeline_init', { arguments: text, current_branch: 'main' });
  const base = { workspace: init.workspace, flags: init.flags, task_text: init.core_text };
  const ready = await c.call('pipeline_init_with_context', {
    ...base,
    user_confirmation: { effort: 'M', use_current_branch: true },
  });
  return String(ready.workspace);
}

async function main(): Promise<void> {
  const repo = tempRepo({
    'package.json': '{"scripts":{"build":"tsc","test":"node --test"}}\n',
    'src/index.ts': 'export {};\n',
  });
  for (let i = 0; i < 200; i++)
    writeFiles(repo, { [`src/mod${i}/file${i}.ts`]: `export const v${i} = ${i};\n`.repeat(20) });
  writeFiles(repo, { '.specs/index.json': JSON.stringify(pastIndex(PAST)) });
  const c = await connect(repo);
  const started = performance.now();
  try {
    const rows: Row[] = [];
    await time(20, () => c.call('mcp_info')); // warm-up
    rows.push({ name: 'mcp_info (baseline round trip)', samples: await time(N, () => c.call('mcp_info')) });

    const ws = await newPipeline(c, 'Retry HTTP requests of the client on timeout with exponential backoff');
    const first = await c.call<{ prompt: string }>('pipeline_next_action', { workspace: ws });
    if (PAST > 0 && !first.prompt.includes('## Similar Past Pipelines'))
      throw new Error('the flywheel did not load the past pipelines');
    rows.push({
      name: `pipeline_next_action, same action again (prompt with BM25 over ${PAST})`,
      samples: await time(N, () => c.call('pipeline_next_action', { workspace: ws })),
    });

    // The same call in a repository without past pipelines: what the flywheel costs.
    const bare = tempRepo({
      'package.json': '{"scripts":{"build":"tsc","test":"node --test"}}\n',
      'src/index.ts': 'export {};\n',
    });
    const c0 = await connect(bare);
    try {
      const ws0 = await newPipeline(c0, 'Retry HTTP requests of the client on timeout with exponential backoff');
      await time(20, () => c0.call('pipeline_next_action', { workspace: ws0 }));
      rows.push({
        name: 'pipeline_next_action, same action again, no past pipelines',
        samples: await time(N, () => c0.call('pipeline_next_action', { workspace: ws0 })),
      });
    } finally {
      await c0.close();
    }

    // A full step: report phase-1 (artifact check, state write, index row, events) and hand out phase-2.
    const steps = Math.max(10, Math.floor(N / 5));
    const workspaces: string[] = [];
    for (let i = 0; i < steps; i++) {
      const w = await newPipeline(c, `Bench pipeline ${i}: cache the search results per user`);
      await c.call('pipeline_next_action', { workspace: w });
      fs.writeFileSync(path.join(repo, w, 'analysis.md'), `# Analysis ${i}\n`);
      workspaces.push(w);
    }
    rows.push({
      name: 'pipeline_next_action with previous_action_complete (report + advance + next prompt)',
      samples: await time(steps, (i) =>
        c.call('pipeline_next_action', {
          workspace: workspaces[i],
          previous_action_complete: true,
          previous_tokens: 1000,
          previous_duration_ms: 10,
        }),
      ),
    });

    // Last: rewriting a 1 MB file dirties the page cache, which slows the fsyncs of whatever runs next.
    const indexFile = path.join(repo, '.specs', 'index.json');
    const indexText = fs.readFileSync(indexFile, 'utf8');
    rows.push({
      name: `pipeline_next_action after index.json changed (re-index ${PAST}, re-merge findings)`,
      samples: await time(
        Math.max(10, Math.floor(N / 10)),
        () => c.call('pipeline_next_action', { workspace: ws }),
        (i) => fs.writeFileSync(indexFile, indexText.replace('"updated_at":"', `"updated_at":"${i}`)),
      ),
    });

    const base = pct(rows[0].samples, 50);
    const lines = [
      `pipeline_next_action — ${PAST} past pipelines in .specs/index.json, 200 source folders, one server process (stdio), node ${process.version}`,
      '',
      '| operation | n | p50 ms | p95 ms | mean ms | p50 × baseline |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows.map((r) => {
        const mean = r.samples.reduce((a, b) => a + b, 0) / r.samples.length;
        return `| ${r.name} | ${r.samples.length} | ${pct(r.samples, 50).toFixed(2)} | ${pct(r.samples, 95).toFixed(2)} | ${mean.toFixed(2)} | ${(pct(r.samples, 50) / base).toFixed(1)}× |`;
      }),
      '',
      `total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await c.close();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
