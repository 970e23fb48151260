import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { cli, cliJson } from '../helpers/cli';
import type { CliResult } from '../helpers/cli';
import { tempRepo, writeFiles } from '../helpers/tmp';

/** What an agent can write into the ledger: retitle the terminal, clear it, break a table row. */
const hostile = 'E\x1b]0;HACKED\x07\x1b[2J\nsecond line\r\x9b31m\u202eevil';
const shown = 'E␛]0;HACKED␇␛[2J⏎second line␍\\u009b31m\\u202eevil';
/** Control characters a terminal acts on (tab and newline are layout, and ours). */
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every human-readable command that prints ledger text shows control characters instead of sending them; --json stays exact. */
describe('terminal output is data, not control', () => {
  let repo: string;
  let c: LedgerClient;
  let taskId: number;
  let trackedKey: string;
  let workflowKey: string;
  const run = (...args: string[]): CliResult => cli([...args, '--workspace', repo]);

  function inert(r: CliResult, what: string): string {
    assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    for (const [stream, text] of [
      ['stdout', r.stdout],
      ['stderr', r.stderr],
    ] as const) {
      const found = controls.exec(text);
      assert.equal(
        found,
        null,
        `${what} sent a raw control character U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} on ${stream}: ${JSON.stringify(text)}`,
      );
    }
    return r.stdout;
  }

  before(async () => {
    repo = tempRepo({ 'src/a.ts': 'a\n' });
    writeFiles(repo, {
      '.agent-ledger/agents/evil.yaml': `name: "\u202eevil"\nclient: codex\ndescription: "${hostile.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\x1b/g, '\\e').replace(/\x07/g, '\\a').replace(/\x9b/g, '\\x9b')}"\nscope:\n  read: ["**"]\n  write: ["src/**"]\n  exclude: []\npromptContent: "${hostile.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\x1b/g, '\\e').replace(/\x07/g, '\\a').replace(/\x9b/g, '\\x9b')}"\n`,
    });
    c = await connect(repo);
    taskId = cliJson<{ id: number }>([
      'task',
      'create',
      hostile,
      '--description',
      hostile,
      '--assignee',
      hostile,
      '--labels',
      `a,${hostile}`,
      '--workspace',
      repo,
    ]).id;
    workflowKey = (
      await c.call<{ workflow_id: string }>('start_workflow', {
        name: hostile,
        description: hostile,
        plan: [{ step: hostile, goal: hostile }],
      })
    ).workflow_id;
    trackedKey = (
      await c.call<{ task_id: string }>('start_task', {
        workflow_id: workflowKey,
        name: hostile,
        goal: hostile,
        areas: [hostile],
      })
    ).task_id;
    await c.call('log_decision', {
      task_id: trackedKey,
      category: 'architecture',
      question: hostile,
      chosen: hostile,
      reasoning: hostile,
      trade_offs: hostile,
    });
    await c.call('log_issue', { task_id: trackedKey, type: 'other', description: hostile, resolution: hostile });
    await c.call('log_milestone', { task_id: trackedKey, message: hostile, progress: 50 });
    writeFiles(repo, { [`src/${hostile.replace(/[\n\r]/g, '')}.ts`]: 'x\n' });
    await c.call('complete_task', {
      task_id: trackedKey,
      status: 'success',
      outcome: {
        summary: hostile,
        achievements: [hostile],
        limitations: [hostile],
        next_steps: [hostile],
        manual_review_needed: true,
        manual_review_reason: hostile,
      },
    });
  });
  after(() => c.close());

  test('task create, list, get and update show the escapes; rows stay one line each', () => {
    assert.match(
      inert(run('task', 'create', hostile), 'task create'),
      /created task-\d+ {2}E␛\]0;HACKED␇␛\[2J⏎second line/,
    );
    const list = inert(run('task', 'list'), 'task list');
    assert.ok(list.includes(shown), list);
    assert.equal(list.trimEnd().split('\n').length, 1 + 3, 'a header and one row per task');
    const detail = inert(run('task', 'get', String(taskId)), 'task get');
    assert.ok(detail.includes(`task-${taskId}  ${shown}`), detail);
    assert.match(detail, /assignee E␛\]0;HACKED␇/);
    inert(run('task', 'get', trackedKey), 'task get (tracked, with outcome, files and timeline)');
    inert(run('task', 'update', String(taskId), '--priority', 'high'), 'task update');
  });

  test('--json stays exact', () => {
    const json = cliJson<{ title: string; description: string }>(['task', 'get', String(taskId), '--workspace', repo]);
    assert.equal(json.title, hostile.trim());
    assert.equal(json.description, hostile);
  });

  test('workflow list and show', () => {
    const list = inert(run('workflow', 'list'), 'workflow list');
    assert.equal(list.trimEnd().split('\n').length, 2, 'a header and one row');
    inert(run('workflow', 'show', workflowKey), 'workflow show');
  });

  test('agents, sessions and workers: an agent’s name, description and prompt', () => {
    inert(run('agent', 'list'), 'agent list');
    assert.match(inert(run('agent', 'get', '\u202eevil'), 'agent get'), /\\u202eevil/);
    const started = cliJson<{ sessionId: number }>([
      'session',
      'start',
      String(taskId),
      '--agent',
      '\u202eevil',
      '--workspace',
      repo,
    ]);
    inert(run('session', 'list'), 'session list');
    inert(run('session', 'end', String(started.sessionId), '--exit-code', '0'), 'session end');
    const worker = run('worker', 'command', String(taskId), '--agent', '\u202eevil');
    assert.equal(worker.code, 0, worker.stderr);
    assert.equal(
      controls.exec(worker.stderr),
      null,
      `worker command's note on stderr: ${JSON.stringify(worker.stderr)}`,
    );
    assert.ok(worker.stdout.includes('HACKED\u0007'), 'piped for eval, the launch command is exact');
    inert(run('worker', 'cleanup', '--dry-run', '--older-than-days', '0'), 'worker cleanup');
  });

  test('Memory Bank: add, list and preview', () => {
    inert(
      run(
        'memory',
        'add',
        'evil',
        '--category',
        'rule',
        '--title',
        hostile,
        '--summary',
        hostile,
        '--content',
        hostile,
      ),
      'memory add',
    );
    assert.match(inert(run('memory', 'list'), 'memory list'), /rule\/evil\s+active\s+E␛\]0;HACKED␇␛\[2J/);
    inert(run('memory', 'preview'), 'memory preview');
  });

  test('pipelines: init, list, status and next', () => {
    const init = cliJson<{ ready: { workspace: string } }>([
      'pipeline',
      'init',
      hostile.replace(/\n/g, ' '),
      '--workspace',
      repo,
    ]);
    inert(run('pipeline', 'list'), 'pipeline list');
    inert(run('pipeline', 'status', init.ready.workspace), 'pipeline status');
    inert(run('pipeline', 'next', init.ready.workspace), 'pipeline next');
  });

  test('error messages that quote ledger or typed text', () => {
    const r = run('agent', 'get', hostile);
    assert.equal(r.code, 5);
    assert.equal(controls.exec(r.stderr), null, JSON.stringify(r.stderr));
    assert.match(r.stderr, /HACKED/);
  });
});
