// The first unattended agent, timed the way a person runs it: the runner in-process (as
// `agent-ledger runner` builds it), the real Claude Code on the tests' scripted model, a tiny
// repository whose npm test fails. Two spans per run (targets ≤ 1 s each):
//  - queue → launched: from the poll that finds the queued task (the poll interval excluded) to
//    the runner's "launched" event: the task's worktree, the checks, the claim, the client spawned;
//  - report_completed → ended: from the moment report_completed has answered the agent (its
//    result reaches the model) to the runner's "ended" event: the client's last turn and exit, the
//    leftover commit check, the run's end recorded.
// Baseline: `claude --version` (the client's own start, which the launch pays once).
// Usage: node --import tsx bench/firstAgent.bench.ts [--runs N]  (needs node scripts/agentClis.mjs)
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { createServices } from '../src/app/services';
import { createRunner } from '../src/app/runner/createRunner';
import { agentCliHome, installedCli } from '../test/helpers/agentClis';
import { fixTheBug, tinyProject } from '../test/helpers/firstAgent';
import { startScriptedModel } from '../test/helpers/scriptedModel/scriptedModel';
import type { Step } from '../test/helpers/scriptedModel/script';
import { measure, ms, percentile, printTable, ratio, verdict } from './lib/report';

const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 5);
const cliJs = path.resolve(__dirname, '../dist/cli.js');

async function oneRun(): Promise<{ launch: number; end: number }> {
  const repo = tinyProject();
  let reportedAt = 0;
  const steps: Step[] = fixTheBug('claude');
  // The last step is reached when report_completed's answer is in the model's hands.
  const last = steps[steps.length - 1];
  steps[steps.length - 1] = (c) => {
    reportedAt = performance.now();
    return typeof last === 'function' ? last(c) : last;
  };
  const model = await startScriptedModel(steps);
  const { env } = agentCliHome('claude', model.url);
  execFileSync(process.execPath, [cliJs, 'task', 'create', 'Make npm test pass', '--agent', 'coder'], {
    cwd: repo,
    env: { ...env, NO_COLOR: '1' },
    stdio: 'ignore',
  });
  const services = await createServices({ workspace: repo });
  const { runner, dispose } = createRunner(services, { cliCommand: [process.execPath, cliJs], env });
  let launchedAt = 0;
  let endedAt = 0;
  let failure: string | null = null;
  const events = runner.onDidChange((e) => {
    if (e.kind === 'launched') launchedAt = performance.now();
    if (e.kind === 'ended') {
      endedAt = performance.now();
      failure = e.failure;
    }
  });
  try {
    const t0 = performance.now();
    await runner.poll();
    await runner.settled();
    if (!launchedAt || !endedAt || !reportedAt || failure !== null || model.errors.length > 0)
      throw new Error(`the run did not go through: ${failure ?? ''} ${model.errors.join('; ')}`);
    return { launch: launchedAt - t0, end: endedAt - reportedAt };
  } finally {
    events.dispose();
    await dispose();
    await services.dispose();
    await model.close();
  }
}

async function main(): Promise<void> {
  const claude = installedCli('claude');
  if (!claude) {
    console.log('claude is not installed (node scripts/agentClis.mjs): skipped');
    return;
  }
  const baseline = await measure(3, () => {
    const r = spawnSync(claude.bin, ['--version'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error('claude --version failed');
  });
  const launches: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { launch, end } = await oneRun();
    launches.push(launch);
    ends.push(end);
  }
  const base = percentile(baseline, 50);
  const row = (what: string, samples: number[]): (string | number)[] => {
    const p50 = percentile(samples, 50);
    return [what, ms(p50), ms(percentile(samples, 95)), ratio(p50, base), '≤ 1000', verdict(p50 <= 1000)];
  };
  printTable(
    `The first unattended agent with claude ${claude.version} on the scripted model (${runs} runs)`,
    ['what', 'p50', 'p95', '× claude --version', 'target ms', ''],
    [
      row('queue → launched', launches),
      row('report_completed → ended', ends),
      ['claude --version', ms(base), '', '1.00×', '', ''],
    ],
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
