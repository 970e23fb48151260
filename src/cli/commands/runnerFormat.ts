import type { RunnerEvent } from '../../core/runtime/runner/runner';
import { style } from '../output';
import { visible } from '../terminalText';

/**
 * The runner's lines, one per event: what it launched (agent, task, project, client, run, log),
 * why a pair waits, and how each run ended (exit or signal, duration, tokens, cost, and for a run
 * that failed, why and where its log is). Ledger text goes through `visible`; the styling reaches
 * the terminal through printLines (styled in a terminal, plain in a pipe).
 */
export function runnerLine(e: RunnerEvent): string {
  switch (e.kind) {
    case 'launched': {
      const i = e.instance;
      return `${style.green('launched')} ${who(i.agentId, i.taskId, i.projectId)} · ${visible(i.client)} · ${i.executionId} · pid ${i.pid} · log ${visible(i.logFile)}`;
    }
    case 'adopted': {
      const i = e.instance;
      return `${style.yellow('adopted')} ${who(i.agentId, i.taskId, i.projectId)} · ${i.executionId}: still running from a previous runner`;
    }
    case 'ended':
      return endedLine(e);
    case 'held':
      return `${style.yellow(e.reason === 'noTask' ? 'idle' : 'held')} ${who(e.agentId, e.taskId, e.projectId)}: ${heldText(e)}`;
    case 'launchFailed':
      return `${style.red('not launched')} ${who(e.agentId, null, e.projectId)}: ${visible(e.message)} (tried again after ${clock(e.until)})`;
    case 'idle':
      return `${style.yellow('idle')} ${visible(e.detail)}; queue a task: agent-ledger task create "…" --agent coder`;
    case 'error':
      return `${style.red('runner error')}: ${visible(e.message)}`;
  }
}

function who(agentId: string, taskId: string | null, projectId: string): string {
  return [style.bold(visible(agentId)), ...(taskId ? [visible(taskId)] : []), visible(projectId)].join(' · ');
}

function heldText(e: Extract<RunnerEvent, { kind: 'held' }>): string {
  switch (e.reason) {
    case 'noTask':
      return `no task queued (queue one: agent-ledger task create "…" --agent ${visible(e.agentId)})`;
    case 'coolingDown':
      return `cooling down until ${e.until ? clock(e.until) : 'later'} after a failed run (${visible(e.detail)})`;
    default:
      return visible(e.detail);
  }
}

function endedLine(e: Extract<RunnerEvent, { kind: 'ended' }>): string {
  const { instance: i, exit, usage, outcome, failure } = e;
  const status =
    outcome?.status === 'completed'
      ? `completed${outcome.result ? ` (${outcome.result})` : ''}`
      : outcome?.status === 'stopped'
        ? visible(outcome.summary ?? 'stopped')
        : 'failed';
  const label = failure === null ? style.green('ended') : style.red('ended');
  const how = exit.signal ? `killed by ${exit.signal}` : `exit ${exit.exitCode ?? '?'}`;
  const parts = [
    `${failure === null ? status : style.red('failed')}`,
    `${how} after ${(exit.durationMs / 1000).toFixed(1)} s${exit.limit ? ` (${exit.limit} limit)` : ''}`,
  ];
  if (usage?.inputTokens != null || usage?.outputTokens != null)
    parts.push(`${count(usage.inputTokens)} in / ${count(usage.outputTokens)} out tokens`);
  if (usage?.costUsd != null) parts.push(`$${usage.costUsd.toFixed(4)}`);
  if (failure !== null) parts.push(visible(failure), `log ${visible(exit.logFile)}`);
  return `${label} ${who(i.agentId, i.taskId, i.projectId)} · ${i.executionId}: ${parts.join(' · ')}`;
}

function count(n: number | null | undefined): string {
  return n == null ? '-' : n.toLocaleString('en-US');
}

/** A time of today as the machine's clock shows it (HH:MM:SS). */
function clock(iso: string): string {
  return new Date(iso).toTimeString().slice(0, 8);
}
