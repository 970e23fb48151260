// Agent login under guessing, through real MCP servers (dist/cli.js, the SDK client over stdio),
// as the outside probe of issue 23 measured it:
// - wrong passkeys one connection gets checked per second, for --seconds: the build before the
//   throttle (the baseline, built in this run from --baseline, default the commit before it) and
//   this one at the default limits;
// - the answer time (p50, p95) of a refused login for an unknown agent, a wrong passkey and an
//   agent without a passkey, on both builds, interleaved: they must stay alike (the probe: 62–68 ms
//   p50 before the throttle); this build with the thresholds out of reach, so the throttle's read
//   and write are on the path but nothing is refused early;
// - the agent's own login from another connection while a guesser goes on.
// Usage: npm run bench -- --only loginThrottle  (or node --import tsx bench/loginThrottle.bench.ts [--seconds 20] [--runs 60] [--baseline REF])
import { spawnSync } from 'node:child_process';
import { cliPath, connect } from '../test/helpers/mcpClient';
import type { LedgerClient } from '../test/helpers/mcpClient';
import { ledgerEnv } from '../test/helpers/testLedger';
import { tempRepo } from '../test/helpers/tmp';
import { ms, percentile, printTable, ratio } from './lib/report';
import { buildBaseline, commitBefore } from './lib/baselineBuild';
import type { BaselineBuild } from './lib/baselineBuild';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const seconds = Number(arg('--seconds', '20'));
const runs = Number(arg('--runs', '60'));
const passkey = 'correct horse battery staple';
const unthrottled = 'loginSourceFreeFailures=1000000,loginAgentFreeFailures=1000000';

/**
 * A repository with project `web`, coder (with a passkey) and reviewer (without) assigned, set up
 * by `cli` (the baseline's own CLI for the baseline: its schema is older).
 */
function world(cli: string = cliPath): string {
  const repo = tempRepo({ 'README.md': '# r\n' });
  const run = (args: string[], input?: string): void => {
    const r = spawnSync(process.execPath, [cli, ...args, '--workspace', repo], {
      input,
      encoding: 'utf8',
      env: ledgerEnv(repo),
    });
    if (r.status !== 0) throw new Error(`agent-ledger ${args.join(' ')}: ${r.stderr}`);
  };
  run(['project', 'create', 'web', '--dir', '.']);
  for (const agent of ['coder', 'reviewer']) run(['project', 'add-agent', 'web', agent]);
  run(['agent', 'passkey', 'coder'], `${passkey}\n`);
  return repo;
}

function server(repo: string, limits?: string, cli?: string): Promise<LedgerClient> {
  const env = { ...ledgerEnv(repo), ...(limits ? { AGENT_LEDGER_LIMITS: limits } : {}) };
  return connect(repo, ['--enable-pm'], { env, cli });
}

function baselineRef(): string {
  if (process.argv.includes('--baseline')) return arg('--baseline', 'HEAD');
  try {
    return commitBefore('src/core/runtime/pm/loginThrottle.ts');
  } catch {
    return 'HEAD'; // not committed yet: HEAD is the code before it
  }
}

async function tryLogin(c: LedgerClient, agent: string, key: string): Promise<string> {
  const r = await c.client.callTool({
    name: 'authenticate',
    arguments: { agent_id: agent, passkey: key, project_id: 'web' },
  });
  if (!r.isError) return 'ok';
  return (JSON.parse((r.content as Array<{ text: string }>).at(-1)!.text) as { error: { reason: string } }).error
    .reason;
}

/** Wrong passkeys for `seconds` from one connection: how many were checked (Unauthorized) and throttled. */
async function guess(c: LedgerClient): Promise<{ checked: number; throttled: number; elapsed: number }> {
  let checked = 0;
  let throttled = 0;
  const start = performance.now();
  for (let i = 0; performance.now() - start < seconds * 1000; i++) {
    const reason = await tryLogin(c, 'coder', `wrong passkey ${i}`);
    if (reason === 'Unauthorized') checked++;
    else if (reason === 'Throttled') throttled++;
    else throw new Error(`unexpected answer ${reason}`);
  }
  return { checked, throttled, elapsed: (performance.now() - start) / 1000 };
}

async function main(): Promise<void> {
  const baseline: BaselineBuild = buildBaseline(baselineRef());
  try {
    await compare(baseline);
  } finally {
    baseline.dispose();
  }
}

async function compare(baseline: BaselineBuild): Promise<void> {
  const builds = [
    { label: `before (${baseline.commit.slice(0, 7)})`, cli: baseline.cli },
    { label: 'this build, default limits', cli: undefined },
  ];
  const rows: string[][] = [];
  for (const build of builds) {
    const c = await server(world(build.cli), undefined, build.cli);
    try {
      const g = await guess(c);
      rows.push([
        build.label,
        String(g.checked + g.throttled),
        String(g.checked),
        (g.checked / g.elapsed).toFixed(2),
        String(g.throttled),
      ]);
    } finally {
      await c.close();
    }
  }
  printTable(
    `wrong passkeys from one connection for ${seconds} s`,
    ['build', 'tries', 'passkeys checked', 'checked per s', 'refused Throttled'],
    rows,
  );

  // Answer times, both builds interleaved call by call.
  // One repository each: the baseline cannot open a ledger this build migrated.
  const clients = [await server(world(baseline.cli), undefined, baseline.cli), await server(world(), unthrottled)];
  try {
    const kinds: Array<[string, string, string]> = [
      ['unknown agent', 'ghost', 'some passkey 123'],
      ['wrong passkey', 'coder', 'some passkey 123'],
      ['agent without passkey', 'reviewer', 'some passkey 123'],
    ];
    const samples = clients.map(() => kinds.map(() => [] as number[]));
    for (let i = 0; i < runs + 3; i++)
      for (let k = 0; k < kinds.length; k++)
        for (let b = 0; b < clients.length; b++) {
          const start = performance.now();
          const reason = await tryLogin(clients[b], kinds[k][1], kinds[k][2]);
          if (reason !== 'Unauthorized') throw new Error(`${kinds[k][0]}: ${reason}`);
          if (i >= 3) samples[b][k].push(performance.now() - start);
        }
    printTable(
      `a refused login, by what was wrong (${runs} each, interleaved, one connection per build)`,
      ['what was wrong', 'before p50 ms', 'before p95 ms', 'now p50 ms', 'now p95 ms', 'p50 now/before'],
      kinds.map(([label], k) => {
        const [before, now] = [percentile(samples[0][k], 50), percentile(samples[1][k], 50)];
        return [
          label,
          ms(before),
          ms(percentile(samples[0][k], 95)),
          ms(now),
          ms(percentile(samples[1][k], 95)),
          ratio(now, before),
        ];
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }

  // The agent logs in from its own connection while a guesser hammers from another (default limits).
  const attacked = world();
  const guesser = await server(attacked);
  const agent = await server(attacked);
  try {
    let stop = false;
    const hammer = (async () => {
      for (let i = 0; !stop; i++) await tryLogin(guesser, 'coder', `wrong ${i}`);
    })();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const r = await agent.call<{ session_token: string }>('authenticate', {
        agent_id: 'coder',
        passkey,
        project_id: 'web',
      });
      times.push(performance.now() - start);
      await agent.call('logout', { session_token: r.session_token });
    }
    stop = true;
    await hammer;
    printTable(
      'the agent logs in from its own connection while another guesses (default limits)',
      ['logins', 'all succeeded', 'p50 ms', 'max ms'],
      [['5', 'yes', ms(percentile(times, 50)), ms(Math.max(...times))]],
    );
  } finally {
    await guesser.close();
    await agent.close();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
