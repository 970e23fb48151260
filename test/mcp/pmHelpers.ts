import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath, connect } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';

/** Shared set-up of the agent-PM tests: a repository with two project folders, agents assigned, passkeys set by the CLI. */
export const PASSKEY = 'correct horse battery staple';

export interface PmWorld {
  repo: string;
  c: LedgerClient;
}

/** Creates projects `web` (packages/web: coder, reviewer) and `api` (packages/api: coder) with the CLI, and sets coder's and reviewer's passkeys. */
export async function pmWorld(env: Record<string, string> = {}): Promise<PmWorld> {
  const repo = tempRepo({ 'README.md': '# r\n', 'packages/web/index.js': 'web\n', 'packages/api/index.js': 'api\n' });
  cliJson(['project', 'create', 'web', '--dir', 'packages/web', '--workspace', repo]);
  cliJson(['project', 'create', 'api', '--dir', path.join(repo, 'packages/api'), '--workspace', repo]);
  cliJson(['project', 'add-agent', 'web', 'coder', '--workspace', repo]);
  cliJson(['project', 'add-agent', 'prj-1', 'reviewer', '--workspace', repo]);
  cliJson(['project', 'add-agent', 'api', 'coder', '--workspace', repo]);
  for (const agent of ['coder', 'reviewer']) {
    const r = cli(['agent', 'passkey', agent, '--workspace', repo], { input: `${PASSKEY}\n` });
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const c = await connect(repo, ['--enable-pm']);
    return { repo, c };
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
  }
}

/** A task made with task_create (the tasks family), assigned in a project and put in progress with the pm tools. */
export async function runningTask(c: LedgerClient, title: string, agent: string, project: string): Promise<string> {
  const t = await c.call<{ id: number }>('task_create', { title, description: `do ${title}` });
  const a = await c.call<{ task_id: string; project_id: string | null }>('assign_task', {
    task_id: t.id,
    assignee_id: agent,
    project_id: project,
  });
  await c.call('update_task_status', { task_id: a.task_id, status: 'in_progress' });
  return a.task_id;
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** Runs `agent-ledger runner --once --json [...extra]` in `repo` with `env` (the fakes on PATH); its exit code, events and stderr. */
export function runnerOnce(
  repo: string,
  env: Record<string, string>,
  extra: string[] = [],
  timeoutMs = 90_000,
): { code: number | null; events: Array<Record<string, unknown>>; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, 'runner', '--once', '--json', '--workspace', repo, ...extra], {
    env: { ...ledgerEnv(repo), ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  const events = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: r.status, events, stderr: r.stderr };
}
