import type { Task } from '../tasks/taskModel';
import type { AgentDefinition } from '../agents/agentModel';

export interface WorkerPromptInput {
  agent: AgentDefinition;
  task: Task;
  branch: string;
  /** Workspace-relative worktree. */
  worktree: string;
  /** memory_preview's context ('' when the bank has no active entry). */
  memoryContext: string;
  /** Absolute Memory Bank folder of the main workspace (entries not yet committed are only there). */
  memoryFolder: string;
  /** The branch the task's work lands on, when known. */
  baseBranch?: string | null;
}

/**
 * Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN); the prompt is one argument,
 * so the task description is shortened to keep the whole prompt under this many bytes.
 */
export const maxPromptBytes = 100_000;

/** The prompt a worker starts with: who it is, the task, its scope, its instructions, the Memory Bank. */
export function workerPrompt(i: WorkerPromptInput): string {
  const { agent, task } = i;
  const details = [
    `Type: ${task.type}`,
    `Priority: ${task.priority}`,
    ...(task.labels.length ? [`Labels: ${task.labels.join(', ')}`] : []),
  ].join(' · ');
  const scope = agent.scope.write.length
    ? [`You may change: ${agent.scope.write.join(', ')}`]
    : ['You are read-only: do not modify, create or delete files.'];
  if (agent.scope.exclude.length) scope.push(`Never read or change: ${agent.scope.exclude.join(', ')}`);
  const head = [
    `# Worker: ${agent.name}`,
    ...(agent.description ? [agent.description] : []),
    '',
    `## Task #${task.id}: ${task.title.replace(/\s+/g, ' ')}`,
    details,
    `Branch: ${i.branch} (worktree ${i.worktree})`,
    '',
  ];
  const tail = [
    '',
    '## Scope',
    ...scope,
    '',
    ...(agent.promptContent.trim() ? ['## Agent instructions', agent.promptContent.trim(), ''] : []),
    ...(i.memoryContext ? [i.memoryContext, `(Memory Bank files of the main workspace: ${i.memoryFolder})`, ''] : []),
    '## When you are done',
    `Commit your work on branch ${i.branch}. Do not push, merge or switch branches: a person reads what the task changed and lands the branch on ${i.baseBranch ?? 'its base branch'} (agent-ledger task land), or sends it back. Whatever you leave uncommitted is committed on the branch for you when your run ends.`,
  ];
  const body =
    [task.description, task.goal && task.goal !== task.description ? `Goal: ${task.goal}` : null]
      .filter(Boolean)
      .join('\n\n') || '(no description)';
  const fixed = `${head.join('\n')}\n${tail.join('\n')}\n`;
  const room = maxPromptBytes - Buffer.byteLength(fixed) - 100;
  return withoutNul(`${head.join('\n')}\n${shorten(body, room)}\n${tail.join('\n')}\n`);
}

function shorten(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = Buffer.from(text).subarray(0, Math.max(0, maxBytes)).toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  return `${cut}\n… (description shortened; read the whole task with task_get)`;
}

/** A NUL byte cannot be passed in an argument; nothing legitimate contains one. */
function withoutNul(text: string): string {
  return text.replace(/\u0000/g, '');
}
