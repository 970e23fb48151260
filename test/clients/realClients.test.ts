// The real Claude Code, Codex and Gemini CLI (pinned in scripts/agentClis.mjs), each run
// non-interactively in a task's worktree of a temporary Git repository against a scripted model
// endpoint on loopback, wired to our MCP server the way the runner wires it. The scripted model makes the client call
// our tools (the ledger must really change), its own edit tool (the file must change) and its own
// shell tool under the permissions it was given (a commit must land; a refused command must be
// refused), and the test checks what the client passed on to the model.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentCliName } from '../helpers/agentClis';
import { installedCli, ledgerServer, runAgentCli, skipUnlessInstalled } from '../helpers/agentClis';
import { cliJson } from '../helpers/cli';
import type { Conversation } from '../helpers/scriptedModel/conversation';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import type { Step } from '../helpers/scriptedModel/script';
import { git, tempDir, tempRepo } from '../helpers/tmp';

/** The server's `instructions` (src/mcp/server.ts): each client shows them to the model somewhere. */
const instructionsStart = 'Agent Ledger is the shared ledger of the work done in this workspace';

interface TaskRow {
  id: number;
  title: string;
  status: string;
}

function ledgerTasks(repo: string): TaskRow[] {
  return cliJson<{ tasks: TaskRow[] }>(['task', 'list', '--workspace', repo]).tasks;
}

/** The ids in a task_list answer, as the model read it. */
function listedIds(conversation: Conversation): number[] {
  return conversation.resultJson<{ tasks: { id: number }[] }>('task_list').tasks.map((t) => t.id);
}

for (const name of ['claude', 'codex', 'gemini'] as const satisfies readonly AgentCliName[]) {
  describe(
    `${name} (the real CLI, ${installedCli(name)?.version ?? 'not installed'})`,
    { skip: skipUnlessInstalled(name) },
    () => {
      test('calls our MCP tools, edits with its own tool, runs allowed commands and is refused the others', async () => {
        const repo = tempRepo({ 'README.md': '# demo\n', 'notes.txt': 'status: draft\nowner: nobody\n' });
        // A remote on disk: a push that were allowed would land there.
        const remote = tempDir('agent-ledger-remote-');
        git(remote, 'init', '-q', '--bare');
        git(repo, 'remote', 'add', 'origin', remote);
        // The agent works in a task's worktree, as the runner launches it; the ledger is the main checkout's.
        const worktree = path.join(tempDir('agent-ledger-worktree-'), 'task-1');
        git(repo, 'worktree', 'add', '-q', '-b', 'task-1', worktree);
        const notes = path.join(worktree, 'notes.txt');
        const title = `Written by ${name}`;
        let createdId: number | undefined;
        const steps: Step[] = [
          { callTool: 'task_create', args: { title, priority: 'high' } },
          (conversation) => {
            createdId = conversation.resultJson<{ id: number }>('task_create').id;
            return { callTool: 'task_list', args: { status: 'open' } };
          },
          { editFile: notes, oldText: 'status: draft', newText: `status: reviewed by ${name}` },
          { shell: 'git status --short' },
          { shell: `git commit -q -am "notes: reviewed by ${name}"` },
          { shell: 'git push origin task-1' },
          { say: 'All done.' },
        ];
        const model = await startScriptedModel(steps);
        const run = await runAgentCli(name, {
          cwd: worktree,
          prompt: 'Record a task, review notes.txt and commit it.',
          modelUrl: model.url,
          mcpServers: [ledgerServer(repo, ['--enable-pm'])],
          permissions: { edit: true, commands: ['git status', 'git commit'], deniedCommands: ['git push'] },
        });
        const context = `exit ${run.code} after ${run.durationMs} ms\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}`;
        assert.deepEqual(model.errors, [], context);
        assert.equal(run.code, 0, context);
        assert.ok(model.finished, `the client took every step of the script\n${context}`);

        // (a) Our MCP tools: the ledger really changed, and the model read the same task back.
        const tasks = ledgerTasks(repo);
        const created = tasks.find((t) => t.title === title);
        assert.ok(created, `task_create reached the ledger: ${JSON.stringify(tasks)}`);
        assert.equal(created.id, createdId, 'the model read the id the ledger gave');
        const last = model.conversations().at(-1)!;
        assert.deepEqual(listedIds(last), [created.id], 'task_list, as the model read it, lists the new task');

        // (c) Its own edit tool changed the file; (b) its shell ran git status and the commit.
        assert.equal(fs.readFileSync(notes, 'utf8'), `status: reviewed by ${name}\nowner: nobody\n`);
        const status = last.results.find((r) => r.text.includes('notes.txt') && /\bM\b/.test(r.text));
        assert.ok(
          status,
          `git status's output reached the model: ${last.results.map((r) => r.text.slice(0, 200)).join(' | ')}`,
        );
        assert.equal(
          git(worktree, 'log', '-1', '--format=%s %an').trim(),
          `notes: reviewed by ${name} Agent`,
          'committed on the task branch',
        );
        assert.equal(git(worktree, 'status', '--porcelain', '--', 'notes.txt'), '', 'the edit is committed');
        assert.equal(git(repo, 'log', '-1', '--format=%s', 'main').trim(), 'initial', 'main is untouched');
        assert.equal(fs.readFileSync(path.join(repo, 'notes.txt'), 'utf8'), 'status: draft\nowner: nobody\n');

        // The refused command did not run, and the model was told so.
        assert.equal(git(remote, 'branch', '--list').trim(), '', 'nothing was pushed');
        const push = last.results.at(-1)!;
        assert.match(
          push.text,
          /denied|not allowed|forbidden|rejected|blocked|policy|permission/i,
          `the model was told git push was refused: ${push.text.slice(0, 300)}`,
        );

        // What the model was shown: our tools (by whatever name the client gives them) and the server's instructions.
        const first = model.conversations()[0];
        const offered = [...first.tools.map((t) => t.name), ...first.deferred];
        assert.ok(
          offered.some((t) => t.includes('agent') && t.includes('ledger')),
          `our server's tools were offered: ${offered.join(', ')}`,
        );
        const seen = model
          .conversations()
          .map((c) => `${c.text}\n${c.results.map((r) => r.text).join('\n')}`)
          .join('\n');
        assert.ok(seen.includes(instructionsStart), "the server's instructions reached the model");
      });
    },
  );
}
