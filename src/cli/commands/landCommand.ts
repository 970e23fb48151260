import type { Command } from 'commander';
import type { LandResult } from '../../core/workers/taskLanding';
import type { CommonOptions } from '../output';
import { printJson, printLines, style } from '../output';
import { visible } from '../terminalText';
import { idArg } from '../toolCommand';
import { withServices } from '../withServices';

/**
 * `agent-ledger task land <id>`: a person lands a done task's branch on its base branch (or opens a
 * pull request). A CLI command and no MCP tool: landing is a person's decision, never an agent's.
 */
export function registerLandCommand(task: Command): void {
  task
    .command('land')
    .description(
      'Land a done task: merge its branch into the branch its worktree came from (fast-forward when it can), record who landed it, and remove its worktree; or open a pull request with --pr',
    )
    .argument('<id>', 'task id (12, task-12 or #12)')
    .option('--onto <branch>', 'land on this branch instead of the one the task started from')
    .option('--rebase', 'replay the task’s commits on it instead of a merge commit, when it cannot fast-forward')
    .option('--pr', 'push the branch and open a pull request with the GitHub CLI (gh) instead of landing here')
    .action((id: string, o: { onto?: string; rebase?: boolean; pr?: boolean }, cmd: Command) =>
      withServices(cmd, { readonly: false }, async (services) => {
        const result = await services.landing.land({
          taskId: idArg(id) ?? id,
          onto: o.onto,
          rebase: o.rebase === true,
          pullRequest: o.pr === true,
        });
        if (cmd.optsWithGlobals<CommonOptions>().json === true) printJson(result);
        else printLines(formatLanding(result));
      }),
    );
}

const short = (sha: string): string => sha.slice(0, 7);

export function formatLanding(r: LandResult): string[] {
  if (r.pullRequest)
    return [
      `${style.green('pull request opened')} for ${style.bold(r.taskId)}: ${visible(r.pullRequest.url)}`,
      style.dim(
        `  ${visible(r.branch)} pushed, to merge into ${visible(r.onto)}; its worktree stays for changes the review asks for`,
      ),
    ];
  const what =
    r.method === 'already'
      ? `already on ${visible(r.onto)}`
      : `on ${visible(r.onto)} (${r.method}, ${r.commits} commit${r.commits === 1 ? '' : 's'}, ${r.files.length} file${r.files.length === 1 ? '' : 's'})`;
  const lines = [`${style.green('landed')} ${style.bold(r.taskId)} ${what} by ${visible(r.by)}  ${visible(r.title)}`];
  if (r.method !== 'already')
    lines.push(
      style.dim(
        `  ${short(r.from)} → ${short(r.to)}  ${r.files.slice(0, 8).map(visible).join(', ')}${r.files.length > 8 ? ', …' : ''}`,
      ),
    );
  const gone = [
    r.worktreeRemoved ? 'worktree removed' : null,
    r.branchDeleted ? `branch ${visible(r.branch)} deleted` : null,
  ].filter(Boolean);
  if (gone.length > 0) lines.push(style.dim(`  ${gone.join(', ')}`));
  return lines;
}
