// Shrimp Task Manager 1.0.21 (npm mcp-shrimp-task-manager) as the peer benchmark drives it: its
// MCP server (dist/index.js). None of its tools calls a model (they return prompts for the
// client's own model), so it needs no key. Its store is DATA_DIR/tasks.json; a relative DATA_DIR
// is taken under the first root the client lists (the project folder here).
import type { ServerAdapter } from './adapter';
import { peerHome, seedDescription, seedTitle, tempProject } from './adapter';
import { ensurePeer } from './install';
import type { PeerPackage } from './install';
import type { Session } from './session';

/** The pinned package. */
export const shrimpPackage: PeerPackage = {
  name: 'mcp-shrimp-task-manager',
  version: '1.0.21',
  entry: 'dist/index.js',
};

let entry: string | undefined;

/** Tasks of a list_tasks answer, in its order: `### name` then `**ID:** \`uuid\``. */
function parseList(text: string): { id: string; name: string }[] {
  return [...text.matchAll(/^### (.+)\n\n\*\*ID:\*\* `([0-9a-f-]{36})`/gm)].map((m) => ({ name: m[1], id: m[2] }));
}

/** The tasksRaw argument of split_tasks for `tasks`. */
function tasksRawOf(tasks: { name: string; description: string }[]): string {
  return JSON.stringify(tasks.map((t) => ({ ...t, implementationGuide: 'Follow the description.' })));
}

/** split_tasks in append mode: its only way to add tasks (one or many per call). */
async function append(s: Session, tasks: { name: string; description: string }[], timeoutMs?: number): Promise<string> {
  const tasksRaw = tasksRawOf(tasks);
  const { text } = await s.call('split_tasks', { updateMode: 'append', tasksRaw }, timeoutMs);
  // Shrimp reports a refused or failed batch as ordinary text (no isError; a failed write is an
  // empty "Task List"): the created tasks' names must be in the answer to count as acknowledged.
  for (const t of tasks) {
    if (!text.includes(t.name))
      throw new Error(`split_tasks answered without "${t.name}" in its task list (how it reports a failed write)`);
  }
  return text;
}

/** Fails on Shrimp's "not found" answers, which are plain text too. */
function expectFound(text: string): void {
  if (/找不到|not found/i.test(text.slice(0, 400))) throw new Error(`Shrimp: ${text.slice(0, 200)}`);
}

/** The adapter for Shrimp Task Manager. */
export const shrimp: ServerAdapter = {
  key: 'shrimp',
  name: `Shrimp ${shrimpPackage.version}`,
  short: 'Shrimp',
  tools: {
    spawn: 'all 15 tools (no switch)',
    seed: 'split_tasks {updateMode: "append", tasksRaw: ≤ 5,000 characters (~20 tasks) per call}',
    get: 'get_task_detail {taskId}',
    list: 'list_tasks {status: "all"}',
    status: 'execute_task {taskId} (pending → in_progress)',
    create: 'split_tasks {updateMode: "append", tasksRaw: [one task]}',
  },
  async prepare() {
    entry = ensurePeer(shrimpPackage, (line) => console.log(`  ${line}`));
  },
  async newProject() {
    return tempProject('shrimp');
  },
  launch(project) {
    if (!entry) throw new Error('Shrimp is not installed');
    return {
      command: process.execPath,
      args: [entry],
      env: { HOME: peerHome(), DATA_DIR: 'shrimp-data', TEMPLATES_USE: 'en', ENABLE_GUI: 'false' },
      cwd: project,
    };
  },
  async create(s, _project, title) {
    await append(s, [{ name: title, description: 'Created by the peer benchmark.' }]);
  },
  async seed(s, _project, from, count) {
    // Batches as large as its documentation allows: "each time you call split_tasks, the
    // parameters you pass cannot exceed 5000 characters" (about 20 of these tasks).
    let batch: { name: string; description: string }[] = [];
    for (let i = from; i < from + count; i++) {
      const next = { name: seedTitle(i), description: seedDescription(i) };
      if (batch.length && tasksRawOf([...batch, next]).length > 5000) {
        await append(s, batch, 120_000);
        batch = [];
      }
      batch.push(next);
    }
    if (batch.length) await append(s, batch, 120_000);
  },
  async ids(s) {
    // Pending tasks only, oldest first: the status change (execute_task) acts on pending tasks.
    return parseList((await s.call('list_tasks', { status: 'pending' })).text).map((t) => t.id);
  },
  async titles(s) {
    const { text } = await s.call('list_tasks', { status: 'all' });
    if (/no .*tasks in the system/i.test(text.slice(0, 300))) return [];
    // A store it cannot read is answered in plain text too: never count that as "no tasks".
    if (!text.startsWith('# Task Management Dashboard')) throw new Error(`list_tasks: ${text.slice(0, 200)}`);
    return parseList(text).map((t) => t.name);
  },
  run: {
    get: async (s, _project, id) => expectFound((await s.call('get_task_detail', { taskId: id })).text),
    list: (s) => s.call('list_tasks', { status: 'all' }),
    status: async (s, _project, id) => expectFound((await s.call('execute_task', { taskId: id })).text),
  },
};
