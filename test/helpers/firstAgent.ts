/**
 * The README's first unattended agent, for the tests that walk it with a real client: a tiny
 * project whose `npm test` fails until its bug is fixed, the script of an agent that fixes it
 * (written once for Claude Code, Codex and Gemini CLI), and commands run as a person runs them —
 * asynchronously, since the scripted model the client talks to lives in the test process.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { AgentCliName } from './agentClis';
import type { Conversation } from './scriptedModel/conversation';
import type { Step } from './scriptedModel/script';
import { ledgerEnv } from './testLedger';
import { git, tempRepo } from './tmp';

/** A Git repository with a bug its test finds: `npm test` fails until sum adds. */
export function tinyProject(): string {
  const repo = tempRepo({
    'package.json': `${JSON.stringify({ name: 'tiny', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
    'sum.js': 'exports.sum = (a, b) => a - b;\n',
    'sum.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('./sum.js');\n\ntest('sum adds', () => assert.equal(sum(2, 3), 5));\n",
  });
  git(repo, 'config', 'user.name', 'Ann Person');
  git(repo, 'config', 'user.email', 'ann@example.com');
  return repo;
}

/** A line of the launch prompt the runner wrote (`project_id: prj-1`). */
export function promptValue(c: Conversation, key: string): string {
  const value = new RegExp(`^${key}: (.+)$`, 'm').exec(c.text)?.[1];
  if (!value) throw new Error(`the prompt has no ${key}: line`);
  return value.trim();
}

/**
 * What the agent does, the same for every client: log in with the runner's ticket, take its task,
 * fix the bug in the folder get_my_task names (kept in `seen.folder`), run `npm test`, commit,
 * report. Gemini also sends the wait_for_previous it adds to every call.
 */
export function fixTheBug(client: AgentCliName, seen: { folder?: string } = {}): Step[] {
  const extra = client === 'gemini' ? { wait_for_previous: true } : {};
  return [
    (c) => ({
      callTool: 'authenticate',
      args: { agent_id: promptValue(c, 'agent_id'), project_id: promptValue(c, 'project_id'), ...extra },
    }),
    { callTool: 'get_my_task', args: { ...extra } },
    (c) => {
      const task = c.resultJson<{ task: { task_id: string; working_directory: string } }>('get_my_task').task;
      seen.folder = task.working_directory;
      return {
        callTool: 'save_context',
        args: { task_id: task.task_id, progress: 'sum subtracts; fixing it', ...extra },
      };
    },
    () => ({ editFile: path.join(seen.folder!, 'sum.js'), oldText: 'a - b', newText: 'a + b' }),
    { shell: 'npm test' },
    { shell: 'git commit -qam "sum adds"' },
    { callTool: 'report_completed', args: { result: 'success', summary: 'sum adds; npm test passes', ...extra } },
    { say: 'Done: sum adds, tested and committed.' },
  ];
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `program` in `repo` as from a person's shell with `env` added: not the test runner's own
 * variables (NODE_TEST_CONTEXT would turn the agent's `node --test` into a no-op), the ledger's
 * database when the suite runs on PostgreSQL.
 */
export function runAsPerson(program: string, args: string[], repo: string, env: Record<string, string>): Promise<Ran> {
  const { NODE_TEST_CONTEXT: _testRunner, ...base } = ledgerEnv(repo);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: repo,
      env: { ...base, ...env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
