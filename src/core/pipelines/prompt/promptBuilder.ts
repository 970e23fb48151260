import type { FlywheelData } from './flywheel';
import type { RepoProfile } from './repoProfile';
import type { Step } from '../engine/nextStep';

/**
 * The `prompt` of a spawn_agent action, in the pipeline contract's four layers:
 *   1. the agent's instructions (agents/<name>.md)
 *   2. input and output artifact paths (paths only: the agent reads the files itself), plus the
 *      task(s) it works on and, on a revision, what to address
 *   3. the repository profile                       — only when there is one
 *   4. the data flywheel (similar past pipelines,    — only when there is data,
 *      past review patterns, AI friction points)       each layer under its own budget
 */
export interface PromptInput {
  instructions: string;
  /** `.specs/<name>` */
  workspace: string;
  step: Extract<Step, { type: 'spawn_agent' }>;
  tasks: { id: string; title: string; files: string[] }[];
  profile: RepoProfile | null;
  flywheel: FlywheelData | null;
  budget?: PromptBudget;
}

export interface PromptBudget {
  /** Characters of layer 3 at most. */
  profile: number;
  /** Characters of layer 4 at most (all three sections together). */
  flywheel: number;
  /** Items per layer-4 section at most. */
  items: number;
}

export const defaultBudget: PromptBudget = { profile: 800, flywheel: 2400, items: 5 };

export function buildPrompt(input: PromptInput): string {
  const budget = input.budget ?? defaultBudget;
  const layers = [input.instructions.trim(), artifactsLayer(input)];
  const profile = input.profile ? profileLayer(input.profile, budget.profile) : '';
  if (profile) layers.push(profile);
  const flywheel = input.flywheel ? flywheelLayer(input.flywheel, budget) : '';
  if (flywheel) layers.push(flywheel);
  return `${layers.join('\n\n')}\n`;
}

function artifactsLayer({ workspace, step, tasks }: PromptInput): string {
  const lines = [
    '## Input Files',
    ...step.inputs.map((f) => `- ${workspace}/${f}`),
    '## Output File',
    `- ${workspace}/${step.output}`,
  ];
  if (step.taskIds.length > 1) {
    lines.push(
      '',
      `Several agents run at once, one per task id (${step.taskIds.join(', ')}). Do only the task you were started for, and replace {task_id} in the paths above with its id.`,
    );
  }
  if (tasks.length) {
    lines.push('', step.taskIds.length > 1 ? '## Tasks' : '## Task');
    for (const t of tasks)
      lines.push(`- Task ${t.id}: ${t.title}${t.files.length ? ` (scope: ${t.files.join(', ')})` : ''}`);
    lines.push(`The full task text is in ${workspace}/tasks.md.`);
  }
  if (step.revision) {
    lines.push(
      '',
      `## Revision ${step.revision.round}`,
      `This phase was sent back by ${step.revision.by}. Address every finding in the review input above${step.revision.comments.length ? ' and the human feedback below' : ''}.`,
    );
    for (const c of step.revision.comments) lines.push(`> ${c.replace(/\n/g, '\n> ')}`);
  }
  return lines.join('\n');
}

function profileLayer(profile: RepoProfile, max: number): string {
  const lines: string[] = [];
  if (profile.languages.length)
    lines.push(`Languages: ${profile.languages.map((l) => `${l.name} (${l.percent}%)`).join(', ')}`);
  if (profile.build) lines.push(`Build command: ${profile.build}`);
  if (profile.test) lines.push(`Test command: ${profile.test}`);
  if (lines.length === 0) return '';
  return fit(['## Repository Context'], lines, max);
}

function flywheelLayer(data: FlywheelData, budget: PromptBudget): string {
  const sections: string[] = [];
  let left = budget.flywheel;
  const add = (heading: string, items: string[]): void => {
    if (items.length === 0 || left <= heading.length + 20) return;
    const text = fit([heading], items.slice(0, budget.items), left);
    if (!text) return;
    sections.push(text);
    left -= text.length + 2;
  };
  add(
    '## Similar Past Pipelines',
    data.similar.map(
      (p) =>
        `- ${p.workspace}: ${p.title} (effort ${p.effort}, ${p.status}${p.revisions ? `, ${p.revisions} revision(s)` : ''})`,
    ),
  );
  add(
    '## Past Review Patterns',
    data.patterns.map((p) => `- [${p.severity}] ${p.description}${p.count > 1 ? ` (seen ${p.count}×)` : ''}`),
  );
  add(
    '## AI Friction Points',
    data.friction.map((p) => `- ${p.description}${p.count > 1 ? ` (seen ${p.count}×)` : ''}`),
  );
  return sections.join('\n\n');
}

/** The heading and as many whole lines as fit in `max` characters (a line is cut only if it alone is too long). */
function fit(head: string[], lines: string[], max: number): string {
  const out = [...head];
  let size = head.join('\n').length;
  for (const line of lines) {
    const room = max - size - 1;
    if (room <= 0) break;
    if (line.length <= room) {
      out.push(line);
      size += line.length + 1;
    } else {
      if (out.length === head.length && room > 20) out.push(`${line.slice(0, room - 1)}…`);
      break;
    }
  }
  return out.length > head.length ? out.join('\n') : '';
}
