// Task Master AI 0.43.1 as the peer benchmark drives it: its MCP server (dist/mcp-server.js)
// with TASK_MASTER_TOOLS=standard (the default "core" set has no add_task), only tools that need
// no AI: add_task with manual fields (title + description: no model is called), get_tasks,
// get_task, set_task_status. No API key is set; the project is made by its own `init`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerAdapter } from './adapter';
import { peerHome, seedDescription, seedTitle, tempProject } from './adapter';
import { ensurePeer, packageDir } from './install';
import type { PeerPackage } from './install';
import type { Session } from './session';

/** The pinned package. */
export const taskMasterPackage: PeerPackage = {
  name: 'task-master-ai',
  version: '0.43.1',
  entry: 'dist/mcp-server.js',
};

let entry: string | undefined;

/** Its environment: a private HOME, the tool set with add_task, no update check. */
function env(): Record<string, string> {
  return { HOME: peerHome(), TASK_MASTER_TOOLS: 'standard', TASKMASTER_SKIP_AUTO_UPDATE: '1' };
}

/** `data` of a Task Master answer (its text is `{ data, version, tag }` as JSON). */
function data<T>(text: string): T {
  return (JSON.parse(text) as { data: T }).data;
}

async function allTasks(s: Session, project: string): Promise<{ id: number | string; title: string }[]> {
  return data<{ tasks: { id: number | string; title: string }[] }>(
    (await s.call('get_tasks', { projectRoot: project })).text,
  ).tasks;
}

/** The adapter for Task Master AI. */
export const taskMaster: ServerAdapter = {
  key: 'taskmaster',
  name: `Task Master AI ${taskMasterPackage.version}`,
  short: 'Task Master',
  tools: {
    spawn: 'TASK_MASTER_TOOLS=standard (14 tools)',
    seed: 'add_task {title, description} (manual, no AI), one per task (no non-AI batch tool)',
    get: 'get_task {id}',
    list: 'get_tasks {}',
    status: 'set_task_status {id, status: "in-progress"}',
    create: 'add_task {title, description} (manual fields: no AI)',
  },
  async prepare() {
    entry = ensurePeer(taskMasterPackage, (line) => console.log(`  ${line}`));
  },
  async newProject() {
    const project = tempProject('taskmaster');
    // Telemetry (Sentry) is on unless the project's config says otherwise, and the server reads
    // that config at start: opt out before anything runs. `init` keeps the existing setting.
    fs.mkdirSync(path.join(project, '.taskmaster'), { recursive: true });
    fs.writeFileSync(
      path.join(project, '.taskmaster', 'config.json'),
      JSON.stringify({ global: { anonymousTelemetry: false } }),
    );
    const cliPath = path.join(packageDir(taskMasterPackage), 'dist', 'task-master.js');
    execFileSync(
      process.execPath,
      [cliPath, 'init', '--yes', '--no-git', '--no-aliases', '--skip-install', '--no-git-tasks', '--rules', 'cursor'],
      {
        cwd: project,
        env: { PATH: process.env.PATH ?? '', ...env() },
        stdio: 'ignore',
        timeout: 120_000,
      },
    );
    return project;
  },
  launch(project) {
    if (!entry) throw new Error('Task Master is not installed');
    return { command: process.execPath, args: [entry], env: env(), cwd: project };
  },
  async create(s, project, title) {
    const answer = data<{ taskId?: number }>(
      (await s.call('add_task', { projectRoot: project, title, description: 'Created by the peer benchmark.' })).text,
    );
    if (typeof answer.taskId !== 'number') throw new Error(`add_task answered without a task id`);
  },
  async seed(s, project, from, count) {
    for (let i = from; i < from + count; i++) {
      await s.call(
        'add_task',
        { projectRoot: project, title: seedTitle(i), description: seedDescription(i), priority: 'medium' },
        120_000,
      );
    }
  },
  async ids(s, project) {
    return (await allTasks(s, project)).map((t) => String(t.id));
  },
  async titles(s, project) {
    return (await allTasks(s, project)).map((t) => t.title);
  },
  run: {
    get: (s, project, id) => s.call('get_task', { projectRoot: project, id }),
    list: (s, project) => s.call('get_tasks', { projectRoot: project }),
    status: (s, project, id) => s.call('set_task_status', { projectRoot: project, id, status: 'in-progress' }),
  },
};
