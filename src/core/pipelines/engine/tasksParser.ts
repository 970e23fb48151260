import type { PipelineTask, TaskMode } from './pipelineState';

export interface ParsedTask {
  id: string;
  title: string;
  mode: TaskMode;
  files: string[];
  body: string;
}

export interface ParsedTasks {
  tasks: ParsedTask[];
  /** Why the file cannot be used (duplicate ids, no tasks…); empty when it can. */
  problems: string[];
}

/** `## Task 1: Title`, `### Task 2 - Title`, `## Task 3. Title`, `## 4. Title`. */
const heading = /^#{2,4}\s+(?:task\s+)?(\d+)\s*[:.)\-—]\s*(.+?)\s*#*\s*$/i;
const modeLine = /^\s*(?:[-*]\s*)?(?:\*\*)?mode(?:\*\*)?\s*:\s*(?:\*\*)?\s*`?([a-z]+)`?/i;
const filesLine = /^\s*(?:[-*]\s*)?(?:\*\*)?(?:files|scope|areas)(?:\*\*)?\s*:\s*(.+)$/i;

/**
 * Reads the task list the task decomposer writes (see resources/pipeline/agents/task-decomposer.md).
 * Unknown modes count as sequential (the safe choice: nothing runs at the same time).
 */
export function parseTasks(text: string): ParsedTasks {
  const tasks: ParsedTask[] = [];
  let current: (ParsedTask & { lines: string[] }) | null = null;
  const flush = (): void => {
    if (!current) return;
    const { lines, ...task } = current;
    tasks.push({ ...task, body: lines.join('\n').trim() });
    current = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const h = heading.exec(line);
    if (h) {
      flush();
      current = {
        id: String(Number(h[1])),
        title: h[2].replace(/\*\*/g, '').trim(),
        mode: 'sequential',
        files: [],
        body: '',
        lines: [],
      };
      continue;
    }
    if (!current) continue;
    const task: ParsedTask & { lines: string[] } = current;
    const m = modeLine.exec(line);
    if (m) {
      const mode = m[1].toLowerCase();
      task.mode = mode === 'parallel' || mode === 'human' ? mode : 'sequential';
      continue;
    }
    const f = filesLine.exec(line);
    if (f && task.files.length === 0) {
      task.files = f[1]
        .split(/[,\s]+/)
        .map((s) => s.replace(/[`*]/g, '').trim())
        .filter((s) => s.length > 0);
      continue;
    }
    task.lines.push(line);
  }
  flush();
  const problems: string[] = [];
  if (tasks.length === 0) problems.push('no tasks found: write each task as a heading "## Task 1: Title"');
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) problems.push(`task ${t.id} appears twice`);
    seen.add(t.id);
  }
  if (tasks.length > 200) problems.push(`${tasks.length} tasks is too many (at most 200)`);
  return { tasks, problems };
}

/** The pipeline's view of freshly parsed tasks. */
export function toPipelineTasks(parsed: readonly ParsedTask[]): PipelineTask[] {
  return parsed.map((t) => ({
    ...t,
    status: 'pending',
    attempts: 0,
    verdict: null,
    findings: [],
    ledger_task_id: null,
    ledger_completed: false,
    files_changed: null,
  }));
}

/** What tasks.md holds when the flow has no decomposition phase: one task, the whole design. */
export function minimalTasksMarkdown(title: string): string {
  return `# Tasks\n\n## Task 1: ${title.replace(/\n/g, ' ')}\nmode: sequential\n\nImplement everything the design describes, as a single unit of work, with its tests.\n`;
}
