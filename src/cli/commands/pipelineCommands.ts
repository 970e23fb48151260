import * as os from 'node:os';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Services } from '../../app/services';
import { LedgerError } from '../../core/errors';
import type { Effort } from '../../core/pipelines/engine/flowTemplate';
import { efforts } from '../../core/pipelines/engine/flowTemplate';
import type { PipelineStatus } from '../../core/pipelines/engine/pipelineState';
import type { CommonOptions } from '../output';
import { printJson, printLines, style } from '../output';
import { visible } from '../terminalText';
import { withServices } from '../withServices';
import { ledgerSwitches } from '../../core/access/ledgerSwitches';
import { callTool, numberArg } from '../toolCommand';
import { positiveInt } from '../args';
import { formatAction, formatPipelineDetail, formatPipelineList, formatReport } from './pipelineFormat';

const statuses: PipelineStatus[] = ['running', 'awaiting_human', 'completed', 'abandoned'];

interface InitOptions {
  effort?: Effort;
  slug?: string;
  branch?: string;
  useCurrentBranch?: boolean;
  title?: string;
  body?: string;
  labels?: string;
  answers?: string;
}

interface MetricOptions {
  tokens?: string;
  durationMs?: string;
  model?: string;
  setupOnly?: boolean;
}

interface DecideOptions {
  comment?: string;
  by?: string;
  checkpoint?: string;
}

const json = (cmd: Command): boolean => cmd.optsWithGlobals<CommonOptions>().json === true;

/** `agent-ledger pipeline …`: the same engine the pipeline_* tools drive, for scripts and people. */
export function registerPipelineCommands(pipeline: Command): void {
  pipeline
    .command('init')
    .description(
      'Start a pipeline from text, a GitHub/Jira issue URL (or resume a pipeline folder under .specs/), confirming the effort in one go',
    )
    .argument('<request...>', 'what to do, or an issue URL, with optional flags (--auto, --nopr, --discuss)')
    .option('--effort <level>', 'effort S, M or L (default: the detected one)', parseEffort)
    .option('--slug <slug>', "the pipeline folder's slug, .specs/<date>-<slug> (default: from the request)")
    .option('--branch <name>', 'current branch (default: asked from git)')
    .option('--use-current-branch', 'work on the current branch instead of creating one')
    .option('--title <text>', 'issue title (GitHub/Jira sources)')
    .option('--body <text>', 'issue body (GitHub/Jira sources)')
    .option('--labels <list>', 'comma-separated issue labels (GitHub sources)')
    .option('--answers <text>', 'answers to the discussion questions (with --discuss)')
    .allowUnknownOption(true)
    .action((request: string[], opts: InitOptions, cmd: Command) =>
      withServices(cmd, { readonly: false }, (s) => init(s, request.join(' '), opts, json(cmd))),
    );

  pipeline
    .command('next')
    .description('Print the next action of a pipeline (records it as handed out)')
    .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>")
    .option('--complete', 'the previous action finished: validate and record it first')
    .option('--tokens <n>', 'tokens the previous action used')
    .option('--duration-ms <n>', 'duration of the previous action (ms)')
    .option('--model <name>', 'model the previous action used')
    .option('--setup-only', 'the previous exec was setup-only')
    .action((folder: string, opts: MetricOptions & { complete?: boolean }, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (s) => {
        // Through the tool itself, so a bad value is refused with the contract's words, as over MCP.
        const action = (await callTool(s, 'pipeline_next_action', {
          workspace: folder,
          previous_action_complete: opts.complete === true,
          previous_tokens: numberArg(opts.tokens),
          previous_duration_ms: numberArg(opts.durationMs),
          previous_model: opts.model,
          previous_setup_only: opts.setupOnly,
        })) as Awaited<ReturnType<Services['pipelines']['nextAction']>>;
        if (json(cmd)) printJson(action);
        else printLines(formatAction(action));
      }),
    );

  pipeline
    .command('client-gates')
    .description(
      "Ask each checkpoint of this ledger's pipelines in the waiting agent's own client (MCP elicitation: Claude Code's prompt), answered as the person at it; off by default",
    )
    .argument('[state]', 'on, off, or nothing to show the setting')
    .action((state: string | undefined, _o: unknown, cmd: Command) =>
      withServices(cmd, { readonly: state === undefined }, async (s) => {
        if (state !== undefined) {
          if (state !== 'on' && state !== 'off') throw new InvalidArgumentError('expected on or off');
          await s.settings.set(ledgerSwitches.clientGates, state);
        }
        const on = await s.settings.isOn(ledgerSwitches.clientGates);
        if (json(cmd)) printJson({ clientGates: on });
        else
          printLines([
            on
              ? `${style.green('on')}: a client that can ask its user (elicitation) is asked at each checkpoint; agent tokens and runner-launched agents never are`
              : `${style.dim('off')}: checkpoints are decided in VS Code, with \`agent-ledger pipeline approve|reject\`, or on the board`,
          ]);
      }),
    );

  pipeline
    .command('report')
    .description('Record the result of the running phase (artifact validation, verdict parsing)')
    .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>")
    .requiredOption('--phase <id>', 'phase id of the action being reported')
    .option('--tokens <n>', 'tokens used')
    .option('--duration-ms <n>', 'duration (ms)')
    .option('--model <name>', 'model used')
    .option('--setup-only', 'the exec was setup-only')
    .action((folder: string, opts: MetricOptions & { phase: string }, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (s) => {
        const result = (await callTool(s, 'pipeline_report_result', {
          workspace: folder,
          phase: opts.phase,
          tokens_used: numberArg(opts.tokens),
          duration_ms: numberArg(opts.durationMs),
          model: opts.model,
          setup_only: opts.setupOnly,
        })) as Awaited<ReturnType<Services['pipelines']['reportResult']>>;
        if (json(cmd)) printJson(result);
        else printLines(formatReport(result));
      }),
    );

  pipeline
    .command('status')
    .alias('show')
    .description(
      'Show a pipeline: phases with state, duration, tokens, verdicts; tasks; decisions; the waiting checkpoint',
    )
    .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>")
    .action((folder: string, _opts: CommonOptions, cmd: Command) =>
      withServices(cmd, { readonly: true }, async (s) => {
        const detail = await s.pipelines.detail(folder);
        if (json(cmd)) printJson(detail);
        else printLines(formatPipelineDetail(detail));
      }),
    );

  pipeline
    .command('list')
    .description('List pipelines; those waiting for a person first')
    .option('--status <status>', `only pipelines in this state (${statuses.join(', ')})`, parseStatus)
    .option('--limit <n>', 'how many to show', positiveInt, 50)
    .action((opts: { status?: PipelineStatus; limit: number }, cmd: Command) =>
      withServices(cmd, { readonly: true }, async (s) => {
        const { pipelines, total } = await s.pipelines.list({ status: opts.status, limit: opts.limit });
        if (json(cmd)) printJson({ pipelines, total });
        else printLines(formatPipelineList(pipelines, total));
      }),
    );

  const decideOptions = (c: Command): Command =>
    c
      .option('--comment <text>', 'why (shown to the agents when the pipeline goes back)')
      .option('--by <name>', 'who decides (default: your user name)')
      .option('--checkpoint <name>', 'only decide if this checkpoint is the one waiting');
  decideOptions(
    pipeline
      .command('approve')
      .description('Approve the checkpoint (or mark the human gate done) a pipeline waits at')
      .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>"),
  ).action((folder: string, opts: DecideOptions, cmd: Command) =>
    withServices(cmd, { readonly: false }, (s) => decide(s, folder, 'approve', opts, json(cmd))),
  );
  decideOptions(
    pipeline
      .command('reject')
      .description(
        'Reject the checkpoint (the pipeline goes back to revise), or abandon at a human gate or retry limit',
      )
      .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>"),
  ).action((folder: string, opts: DecideOptions, cmd: Command) =>
    withServices(cmd, { readonly: false }, (s) => decide(s, folder, 'reject', opts, json(cmd))),
  );
  decideOptions(
    pipeline
      .command('decide')
      .description('Answer a checkpoint or human gate with any of its options (e.g. skip)')
      .argument('<pipeline>', "the pipeline's folder: .specs/<name> or <name>")
      .argument('<option>', 'one of the options the waiting action lists'),
  ).action((folder: string, option: string, opts: DecideOptions, cmd: Command) =>
    withServices(cmd, { readonly: false }, (s) => decide(s, folder, option, opts, json(cmd))),
  );
}

async function init(s: Services, request: string, opts: InitOptions, asJson: boolean): Promise<void> {
  const p = s.pipelines;
  const detected = p.init({
    arguments: request,
    current_branch: opts.branch ?? (await s.currentBranch()) ?? undefined,
  });
  if (Array.isArray(detected.errors))
    throw new LedgerError('ValidationError', (detected.errors as string[]).join('; '));
  if (detected.resume_mode) {
    if (asJson) printJson({ init: detected });
    else
      printLines([
        `Resume ${style.bold(visible(String(detected.workspace)))}: run \`agent-ledger pipeline next ${visible(String(detected.workspace))}\``,
      ]);
    return;
  }
  const external =
    opts.title || opts.body || opts.labels
      ? {
          github_title: opts.title,
          github_body: opts.body,
          github_labels: opts.labels
            ?.split(',')
            .map((l) => l.trim())
            .filter(Boolean),
          jira_summary: opts.title,
          jira_description: opts.body,
        }
      : undefined;
  const base = {
    workspace: String(detected.workspace),
    source_id: detected.source_id as string | null,
    source_url: detected.source_url as string | null,
    flags: detected.flags as Record<string, unknown>,
    task_text: detected.source_type === 'text' ? String(detected.core_text) : null,
    external_context: external,
  };
  let first = await p.initWithContext(base);
  if (first.needs_discussion) {
    if (!opts.answers) {
      const questions = (first.needs_discussion as { questions: string[] }).questions;
      if (asJson) printJson({ init: detected, discussion: first });
      else
        printLines(['Answer these, then run again with --answers "…":', ...questions.map((q) => `  - ${visible(q)}`)]);
      return;
    }
    first = await p.initWithContext({ ...base, discussion_answers: opts.answers });
  }
  const confirm = first.needs_user_confirmation as { detected_effort: Effort; enriched_request_body: string };
  const ready = await p.initWithContext({
    ...base,
    user_confirmation: {
      effort: opts.effort ?? confirm.detected_effort,
      workspace_slug: opts.slug ?? null,
      use_current_branch: opts.useCurrentBranch === true,
      enriched_request_body: confirm.enriched_request_body,
    },
  });
  if (asJson) {
    printJson({ init: detected, detection: first, ready });
    return;
  }
  printLines(
    [
      `${style.green('✓')} Pipeline ${style.bold(visible(String(ready.workspace)))} created (effort ${String(ready.effort)}, ${visible(String(ready.flow_template))} flow${(ready.skipped_phases as string[]).length ? `, skipping ${(ready.skipped_phases as string[]).map(visible).join(', ')}` : ''})`,
      ready.branch
        ? `  branch: ${visible(String(ready.branch))}${ready.create_branch ? ' (created by the first action)' : ''}`
        : '',
      `  next: agent-ledger pipeline next ${visible(String(ready.workspace))}   (or let an agent drive it with pipeline_next_action)`,
    ].filter(Boolean),
  );
}

async function decide(
  s: Services,
  folder: string,
  decision: string,
  opts: DecideOptions,
  asJson: boolean,
): Promise<void> {
  const result = await s.pipelines.decide(folder, {
    decision,
    comment: opts.comment ?? null,
    by: opts.by ?? userName(),
    via: 'cli',
    checkpoint: opts.checkpoint ?? null,
  });
  if (asJson) {
    printJson(result);
    return;
  }
  const d = result.decision;
  printLines([
    `${style.green('✓')} ${visible(d.name)}: ${visible(d.decision)} by ${visible(d.decided_by)}${d.comment ? ` — ${visible(d.comment)}` : ''}`,
    `  ${visible(result.pipeline.workspace)} is now ${result.pipeline.status} at ${visible(result.pipeline.currentPhase)}`,
  ]);
}

function userName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

function parseEffort(value: string): Effort {
  const upper = value.toUpperCase();
  if (!(efforts as readonly string[]).includes(upper)) throw new InvalidArgumentError('expected S, M or L');
  return upper as Effort;
}

function parseStatus(value: string): PipelineStatus {
  if (!(statuses as string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${statuses.join(', ')}`);
  return value as PipelineStatus;
}
