import type { Task, TimelineEntry } from '../../core/tasks/taskModel';
import type { TaskAnswer } from '../../core/tasks/taskAnswer';
import { duration, style } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { formatCostSummary, plural } from '../../core/format';
import type { TaskCost } from '../../core/costs/costContracts';

/** One character for a task's state, coloured. */
export function statusMark(t: Pick<Task, 'status' | 'result'>): string {
  switch (t.status) {
    case 'in_progress':
      return style.cyan('●');
    case 'done':
      return t.result === 'partial_success' ? style.yellow('◐') : style.green('✓');
    case 'failed':
      return style.red('✗');
    case 'cancelled':
      return style.dim('–');
    default:
      return style.dim('○');
  }
}

/** The terminal rendering of `task get`: task_get's one answer, nothing read again. */
export function formatTaskDetail(task: TaskAnswer): string[] {
  const state = task.result ? `${task.status} (${task.result})` : task.status;
  const lines = [
    `${statusMark(task)} ${style.bold(task.key)}  ${style.bold(visible(task.title))}  ${style.dim(state)}`,
  ];
  const where = [
    task.workflowId !== null ? `workflow ${task.workflowId}` : null,
    task.parentTaskId !== null ? `parent ${task.parentTaskId}` : null,
    task.startedAt ? `started ${task.startedAt}` : `created ${task.createdAt}`,
    task.durationSeconds !== null ? `took ${duration(task.durationSeconds)}` : null,
    `priority ${task.priority}`,
    task.assigneeName ? `assignee ${visible(task.assigneeName)}` : null,
  ].filter(Boolean);
  lines.push(style.dim(`  ${where.join(' · ')}`));
  // Why it does not move, first: a person's hold, open dependencies of a running task, the runner's reason.
  if (task.hold)
    lines.push(
      `  ${style.yellow('held')}: stopped by ${visible(task.hold.by)} at ${task.hold.at} — agent-ledger task resume ${task.key} lets it run`,
    );
  const open = task.dependencies.depends_on.filter((d) => !d.done);
  if (task.status === 'in_progress' && open.length)
    lines.push(
      `  ${style.yellow('in progress with open dependencies')}: ${open.map((d) => `${d.id} (${d.status})`).join(', ')}`,
    );
  if (task.waiting && !task.hold)
    lines.push(`  ${style.yellow(`waiting (${task.waiting.reason})`)}: ${visible(task.waiting.detail)}`);
  if (task.goal) lines.push(`  ${style.bold('Goal')}: ${visible(task.goal)}`);
  if (task.description) lines.push(...indented(task.description));
  if (task.areas.length) lines.push(`  ${style.bold('Areas')}: ${task.areas.map(visible).join(', ')}`);
  if (task.labels.length) lines.push(`  ${style.bold('Labels')}: ${task.labels.map(visible).join(', ')}`);
  if (task.status === 'in_progress')
    lines.push(
      `  ${style.bold('Progress')}: ${task.progress ?? 0}%${task.lastMilestone ? ` — ${visible(task.lastMilestone)}` : ''}`,
    );
  lines.push(...costLines(task.cost));
  if (task.snapshot)
    lines.push(
      style.dim(
        `  snapshot ${task.snapshot.type} ${task.snapshot.id.slice(0, 12)}${task.endSnapshotId ? ` → ${task.endSnapshotId.slice(0, 12)}` : ''}`,
      ),
    );

  if (task.outcome) {
    lines.push('', style.bold('Outcome'), ...indented(task.outcome.summary));
    for (const a of task.outcome.achievements ?? []) lines.push(`  ${style.green('+')} ${visible(a)}`);
    for (const l of task.outcome.limitations ?? []) lines.push(`  ${style.yellow('-')} ${visible(l)}`);
    for (const n of task.outcome.next_steps ?? []) lines.push(`  ${style.dim('→')} ${visible(n)}`);
    if (task.outcome.manual_review_needed)
      lines.push(`  ${manualReviewLine(task.outcome.manual_review_reason, task.completionReview)}`);
  }

  if (task.filesChanged) {
    const f = task.filesChanged;
    const total = f.added.length + f.modified.length + f.deleted.length + f.renamed.length;
    lines.push('', style.bold(`Files changed (${total})`));
    const shared = new Map(task.alsoChangedBy.map((s) => [s.path, s.tasks]));
    const also = (p: string) => {
      const others = shared.get(p);
      return others ? ` ${style.yellow(`(also changed by ${others.join(', ')})`)}` : '';
    };
    for (const p of f.added) lines.push(`  ${style.green('A')} ${visible(p)}${also(p)}`);
    for (const p of f.modified) lines.push(`  ${style.yellow('M')} ${visible(p)}${also(p)}`);
    for (const p of f.deleted) lines.push(`  ${style.red('D')} ${visible(p)}${also(p)}`);
    for (const r of f.renamed) lines.push(`  ${style.cyan('R')} ${visible(r.from)} → ${visible(r.to)}${also(r.to)}`);
    if (task.verification) {
      lines.push(
        task.verification.scope_match
          ? `  ${style.green('✓')} all files within the declared areas`
          : `  ${style.yellow(task.verification.warnings.map(visible).join('; '))}: ${task.verification.unexpected_files.map(visible).join(', ')}`,
      );
    }
  }
  if (task.landing) {
    const l = task.landing;
    lines.push(
      '',
      l.pullRequest
        ? `${style.bold('Pull request')} ${visible(l.pullRequest)} ${style.dim(`(${visible(l.branch)} → ${visible(l.onto)}, opened by ${visible(l.by)} ${l.at.slice(0, 16).replace('T', ' ')})`)}`
        : `${style.bold('Landed')} on ${visible(l.onto)} ${style.dim(`(${l.method}${l.commit ? `, ${l.commit.slice(0, 8)}` : ''}) by ${visible(l.by)} ${l.at.slice(0, 16).replace('T', ' ')}`)}`,
    );
  }
  if (task.commits?.length) {
    lines.push('', style.bold(`Commits (${task.commits.length})`));
    for (const c of task.commits)
      lines.push(`  ${style.dim(c.sha.slice(0, 8))} ${visible(c.subject)} ${style.dim(`(${visible(c.author)})`)}`);
  }
  lines.push(...contextLines(task.contexts));
  if (task.subTasks.length) {
    lines.push('', style.bold(`Sub-tasks (${task.subTasks.length})`));
    for (const c of task.subTasks) lines.push(`  ${statusMark(c)} ${c.key}  ${visible(c.title)}`);
  }
  const { counts } = task;
  lines.push(
    '',
    style.bold(
      `Timeline (${plural(counts.decisions, 'decision')}, ${plural(counts.issues, 'issue')}, ${plural(counts.milestones, 'milestone')})`,
    ),
  );
  if (task.timeline.length === 0) lines.push(style.dim('  nothing logged'));
  for (const e of task.timeline) lines.push(`  ${style.dim(e.createdAt.slice(11, 19))} ${timelineLine(e)}`);
  return lines;
}

/** What agents saved about the task (save_context, report_completed), newest first. */
function contextLines(contexts: TaskAnswer['contexts']): string[] {
  if (contexts.total === 0) return [];
  const more = contexts.total > contexts.newest.length ? `, newest ${contexts.newest.length}` : '';
  const lines = ['', style.bold(`Context (${contexts.total} saved${more})`)];
  for (const c of contexts.newest) {
    lines.push(`  ${style.dim(c.savedAt.slice(0, 19).replace('T', ' '))} ${visible(c.agent ?? 'someone')}`);
    const fields: [string, string | null][] = [
      ['progress', c.progress],
      ['findings', c.findings],
      ['blockers', c.blockers],
      ['next', c.nextSteps],
    ];
    for (const [name, text] of fields) if (text) lines.push(`    ${style.dim(`${name}:`)} ${visible(text)}`);
  }
  return lines;
}

/** The completion asked for a person: still waiting (⚠), or answered by whom and how. */
function manualReviewLine(reason: string | undefined, review: TaskAnswer['completionReview']): string {
  if (!review) return `${style.yellow('⚠ manual review needed')}${reason ? `: ${visible(reason)}` : ''}`;
  const answer = `${style.green('✓')} review asked${reason ? ` (${visible(reason)})` : ''}: ${review.verdict} by ${visible(review.reviewedBy)} ${style.dim(review.reviewedAt)}`;
  return review.note ? `${answer} — ${visible(review.note)}` : answer;
}

/** `Cost: $0.0521 · 2 runs · …`, one line per agent when several ran, and the total with sub-tasks. */
function costLines(cost: TaskCost): string[] {
  if (cost.runs === 0 && !cost.withSubtasks?.runs) return [];
  const lines = [`  ${style.bold('Cost')}: ${formatCostSummary(cost)}`];
  if (cost.byAgent.length > 1)
    for (const a of cost.byAgent) lines.push(style.dim(`    ${visible(a.agent)}: ${formatCostSummary(a)}`));
  if (cost.withSubtasks) lines.push(`  ${style.bold('With sub-tasks')}: ${formatCostSummary(cost.withSubtasks)}`);
  return lines;
}

function timelineLine(e: TimelineEntry): string {
  switch (e.kind) {
    case 'decision':
      return `${style.cyan('◆ decision')} [${visible(e.category)}] ${visible(e.question)} → ${style.bold(visible(e.chosen))} — ${visible(e.reasoning)}${e.tradeOffs ? style.dim(` (trade-offs: ${visible(e.tradeOffs)})`) : ''}`;
    case 'issue':
      return `${style.yellow('! issue')} [${visible(e.type)}] ${visible(e.description)} → ${visible(e.resolution)}${e.requiresHumanReview ? style.yellow(' (needs human review)') : ''}`;
    case 'milestone':
      return `${style.dim('▸ milestone')} ${e.progress !== null ? `${e.progress}% ` : ''}${visible(e.message)}`;
  }
}

/** Multi-line ledger text, indented under its heading. */
function indented(text: string): string[] {
  return visibleBlock(text)
    .split('\n')
    .map((l) => `  ${l}`);
}
