// The README's first unattended agent, as a person gets it, with each real client (Claude Code,
// Codex, Gemini CLI) standing on the scripted model: pick the built-in coder, queue a task for it,
// `agent-ledger runner --once` launches the client in the task's worktree, the agent logs in with
// the runner's ticket (no passkey), takes its task, fixes a bug with its own edit tool in the folder
// the prompt and get_my_task name, runs the project's `npm test` and commits with its own shell, and
// reports; the person reads the runner's lines, `run list`, `task get` (exactly the file it
// changed) and lands it with `task land`. Then what goes wrong: a run that fails (its reason on the
// runner's ended line and in `run show`), a client that is not installed, a client without its key
// — each said by the runner, nothing launched. Only what a person sees is asserted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentCliHome, installedCli, skipUnlessInstalled } from '../helpers/agentClis';
import type { Ran } from '../helpers/firstAgent';
import { fixTheBug, promptValue, runAsPerson, tinyProject as project } from '../helpers/firstAgent';
import { cliPath } from '../helpers/mcpClient';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import { git } from '../helpers/tmp';

/** `agent-ledger …` as a person runs it in the repository, with the clients' environment. */
function ledger(repo: string, env: Record<string, string>, args: string[]): Promise<Ran> {
  return runAsPerson(process.execPath, [cliPath, ...args], repo, env);
}

async function ok(pending: Promise<Ran>, what: string): Promise<string> {
  const r = await pending;
  assert.equal(r.code, 0, `${what}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The line of `text` that starts with `start` (a runner line: `launched `, `ended `, `held `). */
function lineStarting(text: string, start: string): string {
  const line = text.split('\n').find((l) => l.startsWith(start));
  assert.ok(line, `no "${start}" line in:\n${text}`);
  return line;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const client of ['claude', 'codex', 'gemini'] as const) {
  describe(
    `the first unattended agent with ${client} (${installedCli(client)?.version ?? 'not installed'})`,
    { skip: skipUnlessInstalled(client) },
    () => {
      test('coder → task create --agent → runner --once → fixed, tested, committed in its worktree → run list, task get → task land', async () => {
        const repo = project();
        const seen: { folder?: string } = {};
        const model = await startScriptedModel(fixTheBug(client, seen));
        const { env } = agentCliHome(client, model.url);

        // 1. The agent: the built-in coder, with what it may do unattended.
        const coder = await ok(ledger(repo, env, ['agent', 'show', 'coder']), 'agent show coder');
        assert.match(coder, /^name: coder$/m);
        assert.match(coder, /^permissions:\n {2}level: commit$/m, coder);

        // 2. Queue a task for it (on another client than its own: --client).
        const asked = client === 'claude' ? [] : ['--client', client];
        const queued = await ok(
          ledger(repo, env, ['task', 'create', 'Make npm test pass', '--agent', 'coder', ...asked]),
          'task create --agent',
        );
        const taskId = /\b(task-\d+)\b/.exec(queued)?.[1];
        assert.ok(taskId, queued);
        assert.match(queued, /coder/);

        // 3. The runner launches it, waits for it, and says what it launched and how it ended.
        const run = await ledger(repo, env, ['runner', '--once']);
        const context = `runner exit ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}\nmodel errors: ${model.errors.join('; ')}`;
        assert.equal(run.code, 0, context);
        const launched = lineStarting(run.stdout, 'launched ');
        const launchedParts = new RegExp(
          `^launched coder · ${taskId} · (prj-\\d+) · ${client} · (exec-\\d+) · pid \\d+ · log (.+)$`,
        ).exec(launched);
        assert.ok(launchedParts, launched);
        const [, projectId, executionId, logFile] = launchedParts;
        assert.ok(fs.existsSync(logFile), `the log the line names exists: ${logFile}`);
        const ended = lineStarting(run.stdout, 'ended ');
        assert.match(
          ended,
          new RegExp(
            `^ended coder · ${taskId} · ${projectId} · ${executionId}: completed \\(success\\) · exit 0 after [\\d.]+ s`,
          ),
          context,
        );
        assert.deepEqual(model.errors, [], context);
        assert.ok(model.finished, `the client took every step\n${context}`);

        // 4. One folder: the prompt, get_my_task and the run name the same, the project in the task's
        // worktree, and the agent's commit is on that worktree's branch.
        const first = model.conversations()[0];
        const folder = promptValue(first, 'working_directory');
        assert.equal(seen.folder, folder, 'get_my_task names the folder the prompt names');
        const worktrees = git(repo, 'worktree', 'list', '--porcelain');
        assert.ok(
          worktrees.split('\n').includes(`worktree ${fs.realpathSync(folder)}`) ||
            worktrees.split('\n').includes(`worktree ${folder}`),
          `${folder} is a worktree of the repository:\n${worktrees}`,
        );
        assert.notEqual(fs.realpathSync(folder), fs.realpathSync(repo));
        assert.equal(git(folder, 'log', '-1', '--format=%s').trim(), 'sum adds');
        const last = model.conversations().at(-1)!;
        assert.ok(
          last.results.some((r) => /# pass 1\b/.test(r.text)),
          `npm test ran in the worktree and passed: ${last.results.map((r) => `${r.name}: ${r.text.slice(0, 400)}`).join('\n---\n')}`,
        );
        const shown = await ok(ledger(repo, env, ['run', 'show', executionId]), 'run show');
        assert.match(shown, new RegExp(`^  folder: ${escape(folder)}$`, 'm'), shown);
        assert.match(shown, /^ {2}summary: sum adds; npm test passes$/m, shown);

        // 5. What a person reads: the run, and exactly what the task changed.
        const runs = await ok(ledger(repo, env, ['run', 'list']), 'run list');
        const row = runs.split('\n').find((l) => l.startsWith(`${executionId} `));
        assert.ok(row, runs);
        assert.match(row, new RegExp(`^${executionId} +completed +coder +${taskId} +${projectId} +${client} `), row);
        const task = await ok(ledger(repo, env, ['task', 'get', taskId]), 'task get');
        const files = task.split('\n\n').find((block) => block.startsWith('Files changed'));
        assert.equal(files, 'Files changed (1)\n  M sum.js', task);
        assert.match(task, /^Commits \(1\)\n {2}[0-9a-f]{8} sum adds \(Agent\)$/m, task);
        assert.equal(fs.readFileSync(path.join(repo, 'sum.js'), 'utf8'), 'exports.sum = (a, b) => a - b;\n');

        // 6. The person lands it on their branch; the worktree goes.
        const landed = await ok(ledger(repo, env, ['task', 'land', taskId]), 'task land');
        assert.match(
          landed,
          new RegExp(
            `^landed ${taskId} on main \\(fast-forward, 1 commit, 1 file\\) by .+ {2}Make npm test pass$`,
            'm',
          ),
          landed,
        );
        assert.match(landed, /worktree removed/);
        assert.equal(fs.readFileSync(path.join(repo, 'sum.js'), 'utf8'), 'exports.sum = (a, b) => a + b;\n');
        assert.equal(git(repo, 'log', '-1', '--format=%s').trim(), 'sum adds');
        assert.equal(fs.existsSync(folder), false, 'the worktree is gone');
        assert.match(
          await ok(ledger(repo, env, ['task', 'get', taskId]), 'task get after landing'),
          /^Landed on main /m,
        );
        const npmTest = await runAsPerson('npm', ['test'], repo, {});
        assert.equal(npmTest.code, 0, `main passes its tests now:\n${npmTest.stdout}`);
        assert.match(npmTest.stdout, /# pass 1\b/);
      });
    },
  );
}

describe('what the runner says when the journey cannot go on', { skip: skipUnlessInstalled('claude') }, () => {
  test('a run that fails: its reason on the ended line and in run show; the task waits for the next run', async () => {
    const repo = project();
    // The client runs but never reaches the ledger (as when its MCP server failed to start), and exits 0.
    const model = await startScriptedModel([{ say: 'I do not see any task tools, so I am done.' }]);
    const { env } = agentCliHome('claude', model.url);
    await ok(ledger(repo, env, ['task', 'create', 'Make npm test pass', '--agent', 'coder']), 'queue');
    const run = await ledger(repo, env, ['runner', '--once']);
    assert.equal(run.code, 0, run.stderr);
    const ended = lineStarting(run.stdout, 'ended ');
    assert.match(ended, /: failed · exit 0 after [\d.]+ s/, ended);
    assert.match(ended, /the agent never called get_my_task: its client exited without using the ledger's tools/);
    assert.match(ended, /· log \S+exec-1\.log$/);
    const shown = await ok(ledger(repo, env, ['run', 'show', 'exec-1']), 'run show');
    assert.match(shown, /why: the agent never called get_my_task/);
    const task = await ok(ledger(repo, env, ['task', 'list']), 'task list');
    assert.match(task, /Make npm test pass/);
    assert.match(
      await ok(ledger(repo, env, ['task', 'get', '1', '--json']), 'task get'),
      /"status": "in_progress"/,
      'the task waits for the next run',
    );
  });

  test('a client that is not installed, and one without its key: held, saying what is missing, nothing launched', async () => {
    const repo = project();
    const model = await startScriptedModel([{ say: 'never asked' }]);
    const { env } = agentCliHome('claude', model.url);
    await ok(ledger(repo, env, ['task', 'create', 'Make npm test pass', '--agent', 'coder']), 'queue');

    const claudeBin = installedCli('claude')!.binDir;
    const noClaude = {
      ...env,
      PATH: env.PATH.split(path.delimiter)
        .filter((d) => d !== claudeBin)
        .join(path.delimiter),
    };
    let run = await ledger(repo, noClaude, ['runner', '--once']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^held coder · task-1 · prj-1: claude is not installed: it is not on the runner's PATH \(npm install -g @anthropic-ai\/claude-code\)$/m,
      run.stdout,
    );

    const { ANTHROPIC_API_KEY: _key, ...noKey } = env;
    run = await ledger(repo, noKey, ['runner', '--once']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^held coder · task-1 · prj-1: claude needs ANTHROPIC_API_KEY or a login \(claude auth login\)$/m,
      run.stdout,
    );
    assert.equal(model.requests.length, 0, 'no client was started');
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'no worktree was made');
  });
});
