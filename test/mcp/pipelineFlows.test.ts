import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connect } from '../helpers/mcpClient';
import { git, tempRepo, writeFiles } from '../helpers/tmp';
import type { Action } from './pipelineDriver';
import { cli, drive, start, twoTasks } from './pipelineDriver';

const repoFiles = {
  'package.json': '{"scripts":{"build":"tsc -p .","test":"node --test"}}\n',
  'src/http.ts': 'export function get() {}\n',
  'README.md': '# demo\n',
};

function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

describe('pipelines driven by a scripted orchestrator', () => {
  test('effort S from text: the light flow, checkpoints passed by a person through the CLI, ledger tasks with exact files, to done', async () => {
    const repo = tempRepo(repoFiles);
    const c = await connect(repo);
    try {
      const { workspace, init, first, ready } = await start(c, 'Fix the typo in the README --nopr', {
        effort: 'S',
        use_current_branch: false,
      });
      assert.deepEqual(Object.keys(init).sort(), [
        'core_text',
        'fetch_needed',
        'flags',
        'source_id',
        'source_type',
        'source_url',
        'spec_name',
        'workspace',
      ]);
      assert.equal(init.source_type, 'text');
      assert.equal(init.fetch_needed, null);
      assert.deepEqual(init.flags, {
        auto: false,
        skip_pr: true,
        debug: false,
        discuss: false,
        effort_override: null,
        current_branch: 'main',
      });
      assert.match(String(init.workspace), /^\.specs\/\d{8}-fix-the-typo-in-the-readme$/);
      const confirm = first.needs_user_confirmation as Record<string, unknown>;
      assert.deepEqual(Object.keys(confirm).sort(), [
        'current_branch',
        'detected_effort',
        'effort_options',
        'enriched_request_body',
        'is_main_branch',
        'message',
      ]);
      assert.equal(confirm.detected_effort, 'S', 'a typo fix is small');
      assert.deepEqual(confirm.effort_options, {
        S: {
          skipped_phases: [
            { phase_id: 'phase-2', label: 'Investigation' },
            { phase_id: 'phase-3b', label: 'Design Review' },
          ],
          recommended: true,
        },
        M: {
          skipped_phases: [
            { phase_id: 'phase-4b', label: 'Tasks Review' },
            { phase_id: 'checkpoint-b', label: 'Human Reviews Tasks' },
          ],
          recommended: false,
        },
        L: { skipped_phases: [], recommended: false },
      });
      assert.equal(confirm.is_main_branch, true);
      assert.deepEqual(Object.keys(ready).sort(), [
        'branch',
        'create_branch',
        'effort',
        'flow_template',
        'ready',
        'request_md_content',
        'skipped_phases',
        'workspace',
      ]);
      assert.equal(ready.flow_template, 'light');
      assert.deepEqual(ready.skipped_phases, ['phase-2', 'phase-3b', 'pr-creation']);
      assert.equal(ready.branch, 'feature/fix-the-typo-in-the-readme');
      assert.equal(ready.create_branch, true);
      assert.match(String(ready.request_md_content), /^---\nsource_type: text\n/);

      let phase1Prompt = '';
      const { trace, last } = await drive(c, repo, workspace, {
        tasksMd: twoTasks,
        onAction: (a) => {
          if (a.phase === 'phase-1') phase1Prompt = String(a.prompt);
        },
      });
      assert.deepEqual(
        trace.map((t) => t.where),
        [
          'setup',
          'phase-1',
          'phase-3',
          'checkpoint-a',
          'phase-4',
          'phase-4b',
          'checkpoint-b',
          'phase-5',
          'phase-6',
          'phase-5',
          'phase-6',
          'final-verification',
          'improvement',
          'final-summary',
          '',
        ],
      );
      assert.equal(trace[1].hint, 'setup_continue', 'the branch setup reports setup_continue');
      assert.equal(trace[1].display, 'Phase 1: Situation Analysis');
      assert.match(String(last.summary), /^Pipeline completed: \d+ phases, 3 skipped$/);
      assert.equal(last.summary_path, `${workspace}/summary.md`);
      assert.ok(
        fs
          .readFileSync(path.join(repo, workspace, 'summary.md'), 'utf8')
          .includes('| Situation Analysis (phase-1) | completed |'),
      );
      assert.equal(
        git(repo, 'branch', '--show-current').trim(),
        'feature/fix-the-typo-in-the-readme',
        'the setup exec created the branch',
      );

      // Layer 1-3 of the prompt; no layer 4 without past pipelines.
      assert.ok(phase1Prompt.startsWith('# Situation Analyst'));
      assert.ok(
        phase1Prompt.includes(`## Input Files\n- ${workspace}/request.md\n## Output File\n- ${workspace}/analysis.md`),
      );
      assert.ok(
        phase1Prompt.includes(
          '## Repository Context\nLanguages: TypeScript (100%)\nBuild command: npm run build\nTest command: npm test',
        ),
      );
      assert.ok(!phase1Prompt.includes('## Similar Past Pipelines'));

      // Implementation tasks are ledger tasks with exactly their own files.
      const state = readJson<{
        status: string;
        tasks: { id: string; ledger_task_id: string; ledger_completed: boolean; files_changed: number }[];
        workflow_id: string;
      }>(path.join(repo, workspace, 'state.json'));
      assert.equal(state.status, 'completed');
      for (const t of state.tasks) {
        assert.ok(t.ledger_completed, `task ${t.id} has a completed ledger task`);
        const detail = JSON.parse(cli(repo, 'task', 'get', t.ledger_task_id, '--json').stdout) as {
          status: string;
          filesChanged: { added: string[] };
          workflowId: string;
          verification: { scope_match: boolean };
        };
        assert.equal(detail.status, 'done');
        assert.equal(detail.workflowId, state.workflow_id);
        assert.ok(detail.filesChanged.added.includes(`src/task-${t.id}.ts`));
        assert.ok(
          !detail.filesChanged.added.includes(`src/task-${t.id === '1' ? '2' : '1'}.ts`),
          'a sequential task does not get the next task’s files',
        );
        assert.equal(
          detail.verification.scope_match,
          true,
          'the declared files plus the pipeline folder (its report) are the scope',
        );
        assert.equal(t.files_changed, 1, 'the pipeline counts code files, not its own reports');
      }
      const wf = JSON.parse(cli(repo, 'workflow', 'show', state.workflow_id, '--json').stdout) as {
        kind: string;
        tasks: unknown[];
      };
      assert.equal(wf.kind, 'pipeline');
      assert.equal(wf.tasks.length, 2);

      // Every decision with who and when; the flywheel learned from this pipeline.
      const status = JSON.parse(cli(repo, 'pipeline', 'status', workspace, '--json').stdout) as {
        decisions: { name: string; decision: string; decided_by: string; via: string; decided_at: string }[];
      };
      assert.deepEqual(
        status.decisions.map((d) => [d.name, d.decision, d.decided_by, d.via]),
        [
          ['checkpoint-a', 'approve', 'alice', 'cli'],
          ['checkpoint-b', 'approve', 'alice', 'cli'],
        ],
      );
      assert.ok(status.decisions.every((d) => !Number.isNaN(Date.parse(d.decided_at))));
      const index = readJson<{ pipelines: { workspace: string; friction: string[]; status: string }[] }>(
        path.join(repo, '.specs', 'index.json'),
      );
      assert.equal(index.pipelines[0].workspace, workspace);
      assert.equal(index.pipelines[0].friction.length, 2);
    } finally {
      await c.close();
    }
  });

  test('effort M from a GitHub URL: design REVISE loop, a human rejection with a comment, parallel tasks, a FAIL code review, PR creation, to done', async () => {
    const repo = tempRepo(repoFiles);
    writeFiles(repo, { '.specs/index.json': JSON.stringify(pastIndex()) });
    const c = await connect(repo);
    try {
      const external = {
        github_labels: ['enhancement'],
        github_title: 'Add retry to the HTTP client',
        github_body: 'Requests fail on flaky networks; retry them with backoff.',
      };
      const { workspace, init, ready } = await start(
        c,
        'https://github.com/owner/repo/issues/42',
        { effort: 'M', workspace_slug: 'add-http-retry' },
        { external_context: external },
      );
      assert.equal(init.source_type, 'github_issue');
      assert.equal(init.source_id, '42');
      assert.deepEqual(init.fetch_needed, {
        type: 'github',
        fields: ['labels', 'title', 'body'],
        instruction: 'fetch github issue fields before calling pipeline_init_with_context',
      });
      assert.match(String(init.spec_name), /^https-github-com-owner-repo-issues-42$/);
      assert.match(workspace, /^\.specs\/\d{8}-42-add-http-retry$/);
      assert.deepEqual(ready.skipped_phases, ['phase-4b', 'checkpoint-b']);
      assert.equal(ready.branch, 'feature/42-add-http-retry');

      const actions: Action[] = [];
      const parallel =
        '# Tasks\n\n## Task 1: Retry loop\nmode: parallel\nfiles: src/task-1.ts\n\n## Task 2: Config option\nmode: parallel\nfiles: src/task-2.ts\n';
      const { trace } = await drive(c, repo, workspace, {
        tasksMd: parallel,
        verdicts: { 'review-design.md': ['REVISE', 'APPROVE_WITH_NOTES'], 'review-1.md': ['FAIL', 'PASS'] },
        decisions: {
          'checkpoint-a': [
            { decision: 'reject', comment: 'Use exponential backoff, not a fixed delay' },
            { decision: 'approve' },
          ],
        },
        onAction: (a) => void actions.push(a),
      });
      assert.deepEqual(
        trace.map((t) => t.where),
        [
          'setup',
          'phase-1',
          'phase-2',
          'phase-3',
          'phase-3b',
          'phase-3',
          'phase-3b',
          'checkpoint-a',
          'phase-3',
          'phase-3b',
          'checkpoint-a',
          'phase-4',
          'phase-5',
          'phase-6',
          'phase-5',
          'phase-6',
          'final-verification',
          'pr-creation',
          'improvement',
          'final-summary',
          '',
        ],
      );
      // The REVISE verdict came back in the report of the next call, with findings and severities.
      const afterRevise = actions[5];
      assert.deepEqual(afterRevise.report_result, {
        state_updated: true,
        artifact_written: 'review-design.md',
        verdict_parsed: 'REVISE',
        findings: [
          { severity: 'CRITICAL', description: 'The design does not say how retries are bounded' },
          { severity: 'MINOR', description: 'Name the config option' },
        ],
        next_action_hint: 'revision_required',
        warning: '',
        display_message: 'phase-3b recorded; next: Phase 3: Design (revision 1)',
      });
      assert.deepEqual(afterRevise.input_files, ['request.md', 'analysis.md', 'investigation.md', 'review-design.md']);
      assert.ok(String(afterRevise.prompt).includes('## Revision 1\nThis phase was sent back by phase-3b.'));
      // The rejection's comment reaches the architect.
      const afterReject = actions[8];
      assert.equal(afterReject.display_message, 'Phase 3: Design (revision 2)');
      assert.ok(String(afterReject.prompt).includes('> Use exponential backoff, not a fixed delay — alice'));
      // Parallel tasks: one action, one agent per task id.
      const impl = actions[12];
      assert.deepEqual(impl.parallel_task_ids, ['1', '2']);
      assert.equal(impl.output_file, 'impl-{task_id}.md');
      const failReport = actions[14].report_result as {
        verdict_parsed: string;
        next_action_hint: string;
        findings: { description: string }[];
      };
      assert.equal(failReport.verdict_parsed, 'FAIL');
      assert.equal(failReport.next_action_hint, 'revision_required');
      assert.deepEqual(
        failReport.findings.map((f) => f.description),
        ['Task 1: Missing error handling in the retry loop', 'Task 2: Looks good'],
      );
      assert.deepEqual(
        actions[14].input_files,
        ['design.md', 'tasks.md', 'review-1.md'],
        'only the failed task is implemented again, with its review',
      );
      assert.equal(actions[14].parallel_task_ids, null);
      const pr = actions[17];
      assert.equal(pr.commands && (pr.commands as string[])[0], 'gh');
      assert.deepEqual((pr.commands as string[]).slice(0, 4), ['gh', 'pr', 'create', '--title']);
      assert.equal((pr.commands as string[])[4], 'feat: Add retry to the HTTP client');

      // Layer 4: the similar past pipeline ranks first; past findings are merged.
      const phase1 = String(actions[1].prompt);
      const similar = phase1.slice(phase1.indexOf('## Similar Past Pipelines'));
      assert.ok(
        similar.startsWith(
          '## Similar Past Pipelines\n- .specs/20250101-retry-flaky-requests: Retry flaky HTTP requests',
        ),
        similar,
      );
      assert.ok(
        phase1.includes('## Past Review Patterns\n- [MAJOR] missing timeout on outgoing request (seen 2×)'),
        'the most recent wording of a merged pattern is kept',
      );
      assert.ok(phase1.includes('## AI Friction Points\n- Integration tests need a running proxy'));
    } finally {
      await c.close();
    }
  });

  test('effort L resumed after the server was killed mid-phase: same phase, same action, a human task gate, to done', async () => {
    const repo = tempRepo(repoFiles);
    let c = await connect(repo);
    const { workspace, first, ready } = await start(
      c,
      'Redesign the storage layer architecture for multi-tenant support',
      { effort: 'L', use_current_branch: true },
    );
    assert.equal((first.needs_user_confirmation as { detected_effort: string }).detected_effort, 'L');
    assert.equal(ready.create_branch, false);
    assert.equal(ready.branch, 'main');
    const tasks =
      '# Tasks\n\n## Task 1: Storage interface\nmode: sequential\n\n## Task 2: Merge the schema PR in repo-b\nmode: human\n\nA maintainer of repo-b merges PR #456.\n';
    let before: Action | undefined;
    const stopped = await drive(c, repo, workspace, {
      tasksMd: tasks,
      onAction: (a) => {
        if (a.phase !== 'phase-3') return;
        before = a;
        fs.writeFileSync(path.join(repo, workspace, 'design.md'), '# design.md (run 1)\n\nContent of design.md.\n');
        process.kill((c.client.transport as StdioClientTransport).pid as number, 'SIGKILL');
        return 'stop';
      },
    });
    assert.deepEqual(
      stopped.trace.map((t) => t.where),
      ['phase-1', 'phase-2', 'phase-3'],
      'no setup exec on the current branch',
    );
    await c.close().catch(() => undefined);

    c = await connect(repo);
    try {
      const resumed = await c.call('pipeline_init', { arguments: workspace });
      assert.deepEqual(resumed, { resume_mode: 'auto', workspace, instruction: 'call pipeline_next_action' });
      const again = await c.call<Action>('pipeline_next_action', { workspace });
      assert.deepEqual(
        { ...again, report_result: null },
        { ...before, report_result: null },
        'the restarted server hands out the very same action',
      );
      const { trace } = await drive(c, repo, workspace, { tasksMd: tasks }, again);
      assert.deepEqual(
        trace.map((t) => t.where),
        [
          'phase-3',
          'phase-3b',
          'checkpoint-a',
          'phase-4',
          'phase-4b',
          'checkpoint-b',
          'phase-5',
          'phase-6',
          'task-2',
          'final-verification',
          'pr-creation',
          'improvement',
          'final-summary',
          '',
        ],
      );
      const status = JSON.parse(cli(repo, 'pipeline', 'status', workspace, '--json').stdout) as {
        status: string;
        tasks: { id: string; status: string; ledgerTaskId: string | null }[];
        phases: { id: string; runs: number; tokens: number }[];
      };
      assert.equal(status.status, 'completed');
      assert.deepEqual(
        status.tasks.map((t) => [t.id, t.status, t.ledgerTaskId !== null]),
        [
          ['1', 'passed', true],
          ['2', 'passed', false],
        ],
      );
      const phase3 = status.phases.find((p) => p.id === 'phase-3');
      assert.equal(phase3?.runs, 1, 'the killed run was reported once, after the restart');
      assert.ok((phase3?.tokens ?? 0) > 0);
    } finally {
      await c.close();
    }
  });
});

/** Two past pipelines: one about retrying HTTP requests, one unrelated. */
function pastIndex(): Record<string, unknown> {
  const entry = (
    workspace: string,
    title: string,
    request: string,
    findings: { phase: string; severity: string; description: string }[],
    friction: string[],
  ) => ({
    workspace,
    spec_name: workspace.slice(16),
    title,
    source_type: 'text',
    effort: 'M',
    flow_template: 'standard',
    status: 'completed',
    created_at: '2025-01-01T00:00:00.000Z',
    completed_at: '2025-01-01T01:00:00.000Z',
    request,
    findings,
    friction,
    revisions: 1,
    total_tokens: 1000,
    total_duration_ms: 1000,
  });
  return {
    version: 1,
    updated_at: '2025-01-02T00:00:00.000Z',
    pipelines: [
      entry(
        '.specs/20250101-retry-flaky-requests',
        'Retry flaky HTTP requests',
        'Retry HTTP requests of the client on network errors',
        [{ phase: 'phase-6', severity: 'MAJOR', description: 'Missing timeout on outgoing requests' }],
        ['Integration tests need a running proxy'],
      ),
      entry(
        '.specs/20250102-dark-mode',
        'Dark mode for the settings page',
        'Add a dark theme to the settings UI',
        [{ phase: 'phase-3b', severity: 'MAJOR', description: 'missing timeout on outgoing request' }],
        [],
      ),
    ],
  };
}
