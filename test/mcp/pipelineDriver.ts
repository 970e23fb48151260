import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import type { LedgerClient } from '../helpers/mcpClient';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';

/**
 * A scripted orchestrator: it acts like the agent of seed 003's SKILL.md. It calls
 * pipeline_next_action, executes exactly the action it gets (writes the artifact asked for,
 * runs the exec, writes the file), reports back, and never chooses a phase. Every response is
 * checked against the seed's shapes.
 */
export type Action = Record<string, unknown> & {
  type: string;
  display_message: string;
  warning: string;
  report_result: Record<string, unknown> | null;
};

const wrapper = ['type', 'warning', 'display_message', 'report_result'];
export const actionKeys: Record<string, string[]> = {
  spawn_agent: [...wrapper, 'agent', 'prompt', 'model', 'phase', 'input_files', 'output_file', 'parallel_task_ids'],
  checkpoint: [...wrapper, 'name', 'present_to_user', 'options'],
  exec: [...wrapper, 'phase', 'commands', 'setup_only'],
  write_file: [...wrapper, 'phase', 'path', 'content'],
  human_gate: [...wrapper, 'phase', 'name', 'present_to_user', 'options'],
  done: [...wrapper, 'summary', 'summary_path'],
};
export const reportKeys = [
  'state_updated',
  'artifact_written',
  'verdict_parsed',
  'findings',
  'next_action_hint',
  'warning',
  'display_message',
];

export function assertActionShape(a: Action): void {
  const keys = actionKeys[a.type];
  assert.ok(keys, `unknown action type ${a.type}`);
  assert.deepEqual(Object.keys(a).sort(), [...keys].sort(), `${a.type} has exactly the seed's fields`);
  assert.equal(typeof a.warning, 'string');
  assert.equal(typeof a.display_message, 'string');
  if (a.report_result !== null) assertReportShape(a.report_result);
  if (a.type === 'spawn_agent') {
    assert.equal(typeof a.prompt, 'string');
    assert.ok(Array.isArray(a.input_files));
    assert.ok(a.parallel_task_ids === null || (Array.isArray(a.parallel_task_ids) && a.parallel_task_ids.length > 1));
  }
  if (a.type === 'exec')
    assert.ok(
      Array.isArray(a.commands) && (a.commands as unknown[]).every((c) => typeof c === 'string'),
      'exec commands are an argument array',
    );
  if (a.type === 'checkpoint' || a.type === 'human_gate')
    assert.ok(Array.isArray(a.options) && (a.options as unknown[]).length > 0);
}

export function assertReportShape(r: Record<string, unknown>): void {
  assert.deepEqual(Object.keys(r).sort(), [...reportKeys].sort(), 'report_result has exactly the seed fields');
  assert.ok(['proceed', 'revision_required', 'setup_continue'].includes(String(r.next_action_hint)));
  for (const f of r.findings as { severity: string; description: string }[]) {
    assert.deepEqual(Object.keys(f).sort(), ['description', 'severity']);
    assert.ok(['CRITICAL', 'MAJOR', 'MINOR', 'INFO'].includes(f.severity));
  }
}

export interface Scenario {
  tasksMd: string;
  /** Verdicts per review artifact ("review-design.md", "review-1.md"), one per run; default APPROVE / PASS. */
  verdicts?: Record<string, string[]>;
  /** Decisions per checkpoint or gate name, one per time it is reached; default "approve". */
  decisions?: Record<string, { decision: string; comment?: string }[]>;
  /** Called with every action before it is executed; may stop the drive (return 'stop'). */
  onAction?: (a: Action, c: LedgerClient) => Promise<'stop' | void> | 'stop' | void;
}

export interface TraceEntry {
  type: string;
  where: string;
  display: string;
  hint: string | null;
  verdict: string | null;
}

/** Runs `agent-ledger` like a person at a terminal would. */
export function cli(repo: string, ...args: string[]): { stdout: string; stderr: string; status: number } {
  const r = spawnSync(process.execPath, [cliPath, ...args, '--workspace', repo], {
    encoding: 'utf8',
    env: ledgerEnv(repo),
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? -1 };
}

export function artifactText(name: string, run: number, scenario: Scenario): string {
  const verdict = (fallback: string): string => scenario.verdicts?.[name]?.[run - 1] ?? fallback;
  if (name === 'tasks.md') return scenario.tasksMd;
  if (name === 'review-design.md' || name === 'review-tasks.md') {
    const v = verdict('APPROVE');
    const findings =
      v === 'REVISE'
        ? '**1. [CRITICAL] The design does not say how retries are bounded**\n**2. [MINOR] Name the config option**\n'
        : '**1. [MINOR] Consider adding error context to log lines**\n';
    return `# Review (run ${run})\n\n${findings}\n## Verdict: ${v}\n`;
  }
  const review = /^review-(\d+)\.md$/.exec(name);
  if (review) {
    const v = verdict('PASS');
    const findings = v === 'FAIL' ? '- [MAJOR] Missing error handling in the retry loop\n' : '- [INFO] Looks good\n';
    return `# Code review of task ${review[1]} (run ${run})\n\n${findings}\nVerdict: ${v}\n`;
  }
  if (name === 'improvement.md')
    return '## AI Friction Points\n- The test command takes two minutes; add a fast unit target\n- The HTTP client has no docs on timeouts\n';
  const impl = /^impl-(\d+)\.md$/.exec(name);
  if (impl)
    return `Implemented task ${impl[1]} (run ${run}) in src/task-${impl[1]}.ts with its test.\n\n## Files changed\n- src/task-${impl[1]}.ts\n`;
  return `# ${name} (run ${run})\n\nContent of ${name}.\n`;
}

/** Drives the pipeline from `first` (or a fresh pipeline_next_action) until `done` or a stop. */
export async function drive(
  c: LedgerClient,
  repo: string,
  workspace: string,
  scenario: Scenario,
  first?: Action,
  maxSteps = 120,
): Promise<{ trace: TraceEntry[]; last: Action; runs: Map<string, number> }> {
  const trace: TraceEntry[] = [];
  const runs = new Map<string, number>();
  const seen = new Map<string, number>();
  const next = (args: Record<string, unknown> = {}): Promise<Action> =>
    c.call<Action>('pipeline_next_action', { workspace, ...args });
  let action = first ?? (await next());
  for (let step = 0; step < maxSteps; step++) {
    assertActionShape(action);
    const report = action.report_result;
    trace.push({
      type: action.type,
      where: String(action.type === 'human_gate' ? action.name : (action.phase ?? action.name ?? '')),
      display: action.display_message,
      hint: report ? String(report.next_action_hint) : null,
      verdict: report ? (report.verdict_parsed as string | null) : null,
    });
    if ((await scenario.onAction?.(action, c)) === 'stop') return { trace, last: action, runs };
    const metrics = {
      previous_action_complete: true,
      previous_tokens: 1000 + step,
      previous_duration_ms: 2000,
      previous_model: String(action.model ?? 'none'),
    };
    switch (action.type) {
      case 'done':
        return { trace, last: action, runs };
      case 'spawn_agent': {
        const ids = (action.parallel_task_ids as string[] | null) ?? [null];
        for (const id of ids) {
          const name = id ? String(action.output_file).replace('{task_id}', id) : String(action.output_file);
          const run = (runs.get(name) ?? 0) + 1;
          runs.set(name, run);
          const impl = /^impl-(\d+)\.md$/.exec(name);
          if (impl)
            fs.writeFileSync(path.join(repo, 'src', `task-${impl[1]}.ts`), `export const run${impl[1]} = ${run};\n`);
          fs.writeFileSync(path.join(repo, workspace, name), artifactText(name, run, scenario));
        }
        action = await next(metrics);
        break;
      }
      case 'exec': {
        const [cmd, ...args] = action.commands as string[];
        if (cmd === 'git') execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
        // `gh` is not available in tests: the scripted agent pretends the PR was created.
        action = await next({ ...metrics, previous_setup_only: action.setup_only === true });
        break;
      }
      case 'write_file':
        fs.writeFileSync(path.join(repo, String(action.path)), String(action.content));
        action = await next(metrics);
        break;
      case 'checkpoint':
      case 'human_gate': {
        const name = String(action.name);
        // The agent cannot pass it: asking again returns it, answering for the user is refused.
        const again = await next();
        assert.equal(again.type, action.type, 'a checkpoint stays the next action until a person decides');
        assert.equal(again.name, name);
        const refused = await c.fail('pipeline_next_action', { workspace, user_response: 'approve' });
        assert.equal(refused.reason, 'InvalidStatus');
        assert.equal(refused.data?.reason, 'human_decision_required');
        const k = seen.get(name) ?? 0;
        seen.set(name, k + 1);
        const d = scenario.decisions?.[name]?.[k] ?? { decision: 'approve' };
        const verb = d.decision === 'approve' || d.decision === 'reject' ? [d.decision] : ['decide', d.decision];
        const r = cli(
          repo,
          'pipeline',
          ...verb.slice(0, 1),
          workspace,
          ...verb.slice(1),
          ...(d.comment ? ['--comment', d.comment] : []),
          '--by',
          'alice',
          '--json',
        );
        assert.equal(r.status, 0, `the CLI decision worked: ${r.stderr}`);
        action = await next();
        break;
      }
      default:
        assert.fail(`unexpected action ${action.type}`);
    }
  }
  throw new Error(
    `the pipeline did not finish in ${maxSteps} steps; trace: ${JSON.stringify(trace.map((t) => t.where))}`,
  );
}

/** Runs the seed's init handshake for a request; returns the workspace. */
export async function start(
  c: LedgerClient,
  request: string,
  confirmation: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{
  workspace: string;
  init: Record<string, unknown>;
  first: Record<string, unknown>;
  ready: Record<string, unknown>;
}> {
  const init = await c.call('pipeline_init', { arguments: request, current_branch: 'main' });
  assert.ok(!init.errors, `init accepted the input: ${JSON.stringify(init.errors)}`);
  const base = {
    workspace: init.workspace,
    source_id: init.source_id,
    source_url: init.source_url,
    flags: init.flags,
    task_text: init.source_type === 'text' ? init.core_text : undefined,
    ...extra,
  };
  const first = await c.call('pipeline_init_with_context', base);
  assert.ok(first.needs_user_confirmation, 'the first call asks for confirmation');
  const ready = await c.call('pipeline_init_with_context', { ...base, user_confirmation: confirmation });
  assert.equal(ready.ready, true);
  return { workspace: String(ready.workspace), init, first, ready };
}

export const twoTasks =
  '# Tasks\n\n## Task 1: Add the retry option\nmode: sequential\nfiles: src/task-1.ts\n\nAdd it.\n\n## Task 2: Document the option\nmode: sequential\nfiles: src/task-2.ts\n\nDocument it.\n';
