// The product's own launch plans (src/core/runtime/launch/) run with the real Claude Code, Codex
// and Gemini CLI against the scripted model, in a task's worktree, at the default permission level
// (commit): the ledger's tools answer (an error reads as its reason, never as broken structured
// content; Gemini's wait_for_previous is accepted), the client edits, runs the project's test
// command and commits with its own tools, and is refused a push. What each docs/agent-clients.md
// problem became.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentCliName } from '../helpers/agentClis';
import { agentCliHome, installedCli, ledgerServer, skipUnlessInstalled } from '../helpers/agentClis';
import { cliJson } from '../helpers/cli';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import type { Step } from '../helpers/scriptedModel/script';
import { git, tempDir, tempRepo } from '../helpers/tmp';
import { buildLaunchPlan } from '../../src/core/runtime/launch/clients';
import { resolvePermissions } from '../../src/core/agents/agentPermissions';
import { readWorkspaceSettings } from '../../src/core/workers/workspaceSettings';
import { writePlanFiles } from '../../src/processes/launchClient';
import { gitDirsOf } from '../../src/git/worktrees';

function run(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

for (const name of ['claude', 'codex', 'gemini'] as const satisfies readonly AgentCliName[]) {
  describe(`${name} launched by the product's plan`, { skip: skipUnlessInstalled(name) }, () => {
    test('ledger tools (an error named, wait_for_previous accepted), edit, npm test, commit; push refused', async () => {
      const repo = tempRepo({
        'package.json': JSON.stringify({ name: 'tiny', private: true, scripts: { test: 'node --test' } }, null, 2),
        'sum.js': 'exports.sum = (a, b) => a - b;\n',
        'sum.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('./sum.js');\ntest('sum', () => assert.equal(sum(2, 3), 5));\n",
      });
      const remote = tempDir('agent-ledger-remote-');
      git(remote, 'init', '-q', '--bare');
      git(repo, 'remote', 'add', 'origin', remote);
      const worktree = path.join(tempDir('agent-ledger-worktree-'), 'task-1');
      git(repo, 'worktree', 'add', '-q', '-b', 'task-1-s1', worktree);
      // Gemini adds wait_for_previous to every call it makes; so does this script for it.
      const extra = name === 'gemini' ? { wait_for_previous: true } : {};
      const steps: Step[] = [
        { callTool: 'task_get', args: { id: 99999, ...extra } },
        { callTool: 'task_create', args: { title: `Fix sum (${name})`, ...extra } },
        { editFile: path.join(worktree, 'sum.js'), oldText: 'a - b', newText: 'a + b' },
        { shell: 'npm test' },
        { shell: 'git commit -qam "sum adds"' },
        { shell: 'git push origin task-1-s1' },
        { say: 'Done.' },
      ];
      const model = await startScriptedModel(steps);
      const home = agentCliHome(name, model.url);
      const dirs = await gitDirsOf(worktree);
      const plan = buildLaunchPlan(name, {
        prompt: 'Fix sum.js so that npm test passes, and commit.',
        cwd: worktree,
        configDir: path.join(tempDir('agent-ledger-run-'), 'exec-1.d'),
        mcpServers: [{ ...ledgerServer(repo, ['--enable-pm']), forwardEnv: [] }],
        env: home.env,
        permissions: {
          ...resolvePermissions({ level: 'commit', commands: [], never: [] }, readWorkspaceSettings(repo).commands),
          gitDirs: [dirs.common, dirs.own],
        },
      });
      await writePlanFiles(plan);
      const program = installedCli(name)!.bin;
      const result = await run(program, plan.args, plan.cwd, { ...home.env, ...plan.env });
      const context = `exit ${result.code}\nargs: ${plan.args.join(' ').slice(0, 600)}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}`;
      assert.deepEqual(model.errors, [], context);
      assert.ok(model.finished, `every step was taken\n${context}`);
      assert.equal(result.code, 0, context);

      const last = model.conversations().at(-1)!;
      const texts = last.results.map((r) => r.text);
      const taskGet = last.results.find((r) => r.name.endsWith('task_get'))?.text ?? '(no task_get result)';
      // The refusal reached the model as what it is, not as "structured content does not match".
      assert.match(taskGet, /TaskNotFound \(-32001\): Task task-99999 not found/, taskGet);
      assert.doesNotMatch(texts.join('\n'), /Structured content does not match|unknown field "wait_for_previous"/);
      const created = cliJson<{ tasks: { title: string }[] }>(['task', 'list', '--workspace', repo]).tasks;
      assert.deepEqual(
        created.map((t) => t.title),
        [`Fix sum (${name})`],
      );
      assert.ok(
        texts.some((t) => /# pass 1\b/.test(t)),
        `npm test ran and passed: ${texts.map((t) => t.slice(0, 300)).join(' || ')}`,
      );
      assert.equal(git(worktree, 'log', '-1', '--format=%s').trim(), 'sum adds', 'committed on the task branch');
      assert.equal(git(worktree, 'status', '--porcelain'), '');
      assert.equal(fs.readFileSync(path.join(repo, 'sum.js'), 'utf8'), 'exports.sum = (a, b) => a - b;\n');
      assert.equal(git(remote, 'branch', '--list').trim(), '', 'nothing was pushed');
      // Refused by the run's own rule, in each client's words.
      const refusal = {
        claude: /Permission to use Bash with command git push origin task-1-s1 has been denied/,
        codex: /rejected: Agent Ledger: this agent may never run git push/,
        gemini: /Tool execution denied by policy/,
      }[name];
      assert.match(texts.at(-1)!, refusal, texts.at(-1)!.slice(0, 300));
    });
  });
}
