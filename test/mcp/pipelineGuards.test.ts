import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempDir, tempRepo } from '../helpers/tmp';
import type { Action } from './pipelineDriver';
import { assertActionShape, assertReportShape, cli, start } from './pipelineDriver';

function stateOf(repo: string, workspace: string): { rev: number; current_phase: string; status: string } {
  return JSON.parse(fs.readFileSync(path.join(repo, workspace, 'state.json'), 'utf8')) as {
    rev: number;
    current_phase: string;
    status: string;
  };
}

/** A pipeline at phase-1 with its action handed out (no branch setup). */
async function atPhase1(
  c: LedgerClient,
  text = 'Add a health endpoint to the API',
): Promise<{ workspace: string; action: Action }> {
  const { workspace } = await start(c, text, { effort: 'M', use_current_branch: true });
  const action = await c.call<Action>('pipeline_next_action', { workspace });
  assert.equal(action.phase, 'phase-1');
  return { workspace, action };
}

describe('pipeline input errors and refusals', () => {
  test('pipeline_init: input errors in the seed shape, workspace detection, no side effects', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      assert.deepEqual(await c.call('pipeline_init', { arguments: 'ab' }), {
        errors: ['input too short: minimum 3 characters required'],
      });
      assert.deepEqual(await c.call('pipeline_init', { arguments: '--auto  ' }), {
        errors: ['input too short: minimum 3 characters required'],
      });
      const badEffort = await c.call<{ errors: string[] }>('pipeline_init', { arguments: 'do the thing --effort XL' });
      assert.deepEqual(badEffort.errors, ['--effort must be S, M or L (got "XL")']);
      const missing = await c.call<{ errors: string[] }>('pipeline_init', {
        arguments: 'resume .specs/20260101-nothing-here',
      });
      assert.match(missing.errors[0], /holds no pipeline/);
      const escape = await c.call<{ errors: string[] }>('pipeline_init', { arguments: '.specs/../../etc' });
      assert.match(escape.errors[0], /not a pipeline folder/);
      const jira = await c.call('pipeline_init', {
        arguments: 'https://acme.atlassian.net/browse/SOA-123 --effort=s --discuss',
      });
      assert.equal(jira.source_type, 'jira_issue');
      assert.equal(jira.source_id, 'SOA-123');
      assert.deepEqual((jira.flags as { effort_override: string; discuss: boolean }).effort_override, 'S');
      assert.equal((jira.fetch_needed as { type: string }).type, 'jira');
      assert.equal(fs.existsSync(path.join(repo, '.specs')), false, 'pipeline_init writes nothing');
    } finally {
      await c.close();
    }
  });

  test('pipeline_init_with_context: both discussion and confirmation is an error; --discuss asks first; paths stay inside .specs/', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      const init = await c.call('pipeline_init', { arguments: 'Improve the search ranking --discuss' });
      const base = { workspace: init.workspace, flags: init.flags, task_text: init.core_text };
      const both = await c.fail('pipeline_init_with_context', {
        ...base,
        discussion_answers: 'faster',
        user_confirmation: { effort: 'M' },
      });
      assert.equal(both.reason, 'ValidationError');
      assert.match(both.message, /ambiguous/);
      const discuss = await c.call<{ needs_discussion: { questions: string[]; message: string } }>(
        'pipeline_init_with_context',
        base,
      );
      assert.deepEqual(Object.keys(discuss), ['needs_discussion']);
      assert.equal(discuss.needs_discussion.questions.length, 3);
      const answered = await c.call<{ needs_user_confirmation: { enriched_request_body: string } }>(
        'pipeline_init_with_context',
        { ...base, discussion_answers: 'Rank exact title matches first.' },
      );
      assert.ok(answered.needs_user_confirmation.enriched_request_body.includes('## Discussion'));
      assert.ok(answered.needs_user_confirmation.enriched_request_body.includes('Rank exact title matches first.'));
      const outside = tempDir();
      for (const workspace of ['../escape', '.specs/../../escape', path.join(outside, 'x'), '.specs/a/b', 'src']) {
        const err = await c.fail('pipeline_init_with_context', {
          ...base,
          workspace,
          user_confirmation: { effort: 'S' },
        });
        assert.equal(err.reason, 'ValidationError', workspace);
      }
      assert.equal(fs.existsSync(path.join(repo, '..', 'escape')), false);
      assert.deepEqual(fs.readdirSync(outside), [], 'nothing written outside the workspace');
      const unknownEffort = await c.fail('pipeline_init_with_context', {
        ...base,
        user_confirmation: { effort: 'XL' },
      });
      assert.equal(unknownEffort.reason, 'ValidationError');
      // A repeated confirmation (a lost response) gets the same answer; nothing is created twice.
      const confirmed = await c.call('pipeline_init_with_context', { ...base, user_confirmation: { effort: 'S' } });
      assert.deepEqual(
        await c.call('pipeline_init_with_context', { ...base, user_confirmation: { effort: 'S' } }),
        confirmed,
      );
      const other = await c.fail('pipeline_init_with_context', { ...base, user_confirmation: { effort: 'L' } });
      assert.equal(other.reason, 'InvalidStatus');
    } finally {
      await c.close();
    }
  });

  test('reports: wrong phase, missing, empty, unchanged and verdict-less artifacts are refused and change nothing', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      const { workspace, action } = await atPhase1(c);
      assert.deepEqual(
        await c.call('pipeline_next_action', { workspace }),
        action,
        'asking again gives the same action (deterministic)',
      );
      const rev = stateOf(repo, workspace).rev;
      const wrong = await c.fail('pipeline_report_result', { workspace, phase: 'phase-3' });
      assert.equal(wrong.reason, 'ValidationError');
      assert.match(wrong.message, /action handed out is for phase-1/);
      const missing = await c.fail('pipeline_report_result', { workspace, phase: 'phase-1' });
      assert.match(missing.message, /analysis\.md, which does not exist/);
      fs.writeFileSync(path.join(repo, workspace, 'analysis.md'), '  \n');
      assert.match(
        (await c.fail('pipeline_next_action', { workspace, previous_action_complete: true })).message,
        /is empty/,
      );
      assert.equal(stateOf(repo, workspace).rev, rev, 'refused reports change nothing');

      fs.writeFileSync(path.join(repo, workspace, 'analysis.md'), '# Analysis\n');
      const report = await c.call('pipeline_report_result', {
        workspace,
        phase: 'phase-1',
        tokens_used: 1500,
        duration_ms: 900,
        model: 'sonnet',
      });
      assertReportShape(report);
      assert.equal(report.next_action_hint, 'proceed');
      assert.equal(report.artifact_written, 'analysis.md');
      const again = await c.fail('pipeline_report_result', { workspace, phase: 'phase-1' });
      assert.equal(again.reason, 'InvalidStatus', 'a phase is reported once');

      // phase-2, phase-3, then the design review without a verdict.
      for (const [phase, file] of [
        ['phase-2', 'investigation.md'],
        ['phase-3', 'design.md'],
      ]) {
        const a = await c.call<Action>('pipeline_next_action', { workspace });
        assert.equal(a.phase, phase);
        fs.writeFileSync(path.join(repo, workspace, file), `# ${file}\n`);
        await c.call('pipeline_report_result', { workspace, phase });
      }
      const review = await c.call<Action>('pipeline_next_action', { workspace });
      assert.equal(review.output_file, 'review-design.md');
      fs.writeFileSync(path.join(repo, workspace, 'review-design.md'), '# Review\n\nVerdict: PASS\n');
      const foreign = await c.fail('pipeline_report_result', { workspace, phase: 'phase-3b' });
      assert.match(foreign.message, /has no verdict \(it says PASS, which belongs to the other review table\)/);
      fs.writeFileSync(path.join(repo, workspace, 'review-design.md'), '# Review\n\nLooks fine.\n');
      assert.match(
        (await c.fail('pipeline_report_result', { workspace, phase: 'phase-3b' })).message,
        /## Verdict: APPROVE \| APPROVE_WITH_NOTES \| REVISE/,
      );
      fs.writeFileSync(path.join(repo, workspace, 'review-design.md'), '# Review\n\n## Verdict: REVISE\n');
      assert.equal(
        (await c.call('pipeline_report_result', { workspace, phase: 'phase-3b' })).next_action_hint,
        'revision_required',
      );
      // The architect runs again; writing nothing new is refused.
      const redo = await c.call<Action>('pipeline_next_action', { workspace });
      assert.equal(redo.phase, 'phase-3');
      const stale = await c.fail('pipeline_report_result', { workspace, phase: 'phase-3' });
      assert.match(stale.message, /was not rewritten since this action was handed out/);
      const unknown = await c.fail('pipeline_next_action', { workspace: '.specs/20200101-nope' });
      assert.equal(unknown.reason, 'NotFound');
    } finally {
      await c.close();
    }
  });

  test('checkpoints hold: the agent can neither answer nor report them; a person approves through the CLI', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      const info = await c.call<{ safety: Record<string, unknown> }>('mcp_info');
      assert.equal(info.safety.humanCheckpointsEnforced, true);
      assert.equal(info.safety.agentCheckpointDecisions, false);
      // --auto cannot pass a checkpoint on a server that leaves decisions to people.
      const { workspace } = await start(c, 'Fix the typo in the README --auto', {
        effort: 'S',
        use_current_branch: true,
      });
      assert.equal(
        cli(repo, 'pipeline', 'approve', workspace).status,
        6,
        'nothing waits yet: the CLI exits with the state code',
      );
      for (const [phase, file] of [
        ['phase-1', 'analysis.md'],
        ['phase-3', 'design.md'],
      ]) {
        const a = await c.call<Action>('pipeline_next_action', { workspace });
        assert.equal(a.phase, phase);
        fs.writeFileSync(path.join(repo, workspace, file), `# ${file}\n`);
        await c.call('pipeline_next_action', { workspace, previous_action_complete: true });
      }
      const checkpoint = await c.call<Action>('pipeline_next_action', { workspace });
      assertActionShape(checkpoint);
      assert.equal(checkpoint.type, 'checkpoint');
      assert.equal(checkpoint.name, 'checkpoint-a');
      assert.deepEqual(checkpoint.options, ['approve', 'reject']);
      assert.ok(String(checkpoint.present_to_user).includes(`agent-ledger pipeline approve ${workspace}`));
      assert.match(checkpoint.warning, /waiting for a person to decide checkpoint-a/);
      assert.equal(
        (await c.fail('pipeline_next_action', { workspace, user_response: 'approve' })).data?.reason,
        'human_decision_required',
      );
      assert.equal(
        (await c.fail('pipeline_report_result', { workspace, phase: 'checkpoint-a' })).reason,
        'InvalidStatus',
      );
      const ignored = await c.call<Action>('pipeline_next_action', { workspace, previous_action_complete: true });
      assert.equal(ignored.type, 'checkpoint', 'previous_action_complete does not pass a checkpoint');
      assert.equal(stateOf(repo, workspace).status, 'awaiting_human');
      const listed = JSON.parse(cli(repo, 'pipeline', 'list', '--json').stdout) as {
        pipelines: { workspace: string; waiting: { name: string } | null; presentToUser: string | null }[];
      };
      assert.equal(listed.pipelines[0].waiting?.name, 'checkpoint-a');
      assert.ok(listed.pipelines[0].presentToUser?.includes('## Human Reviews Design'));

      const stale = cli(repo, 'pipeline', 'approve', workspace, '--checkpoint', 'checkpoint-b');
      assert.equal(stale.status, 6, 'a decision for another checkpoint is refused');
      const approved = cli(repo, 'pipeline', 'approve', workspace, '--comment', 'Looks right', '--by', 'bob', '--json');
      assert.equal(approved.status, 0, approved.stderr);
      assert.equal(
        (JSON.parse(approved.stdout) as { decision: { decided_by: string; comment: string } }).decision.decided_by,
        'bob',
      );
      const next = await c.call<Action>('pipeline_next_action', { workspace });
      assert.equal(next.phase, 'phase-4');
      assert.equal(next.warning, '');
    } finally {
      await c.close();
    }
  });

  test('a server started with --allow-agent-checkpoints takes user_response, records it as the agent’s, and says so in mcp_info', async () => {
    const repo = tempRepo();
    const c = await connect(repo, ['--allow-agent-checkpoints']);
    try {
      const info = await c.call<{ safety: Record<string, unknown> }>('mcp_info');
      assert.equal(info.safety.humanCheckpointsEnforced, false);
      assert.equal(info.safety.agentCheckpointDecisions, true);
      const { workspace } = await start(c, 'Fix the typo in the README', { effort: 'S', use_current_branch: true });
      for (const file of ['analysis.md', 'design.md']) {
        await c.call('pipeline_next_action', { workspace });
        fs.writeFileSync(path.join(repo, workspace, file), `# ${file}\n`);
        await c.call('pipeline_next_action', { workspace, previous_action_complete: true });
      }
      const bad = await c.fail('pipeline_next_action', { workspace, user_response: 'maybe' });
      assert.match(bad.message, /answer one of "approve", "reject"/);
      const back = await c.call<Action>('pipeline_next_action', {
        workspace,
        user_response: 'reject: split the change in two',
      });
      assert.equal(back.phase, 'phase-3');
      assert.ok(String(back.prompt).includes('> split the change in two — agent (user_response)'));
      const detail = JSON.parse(cli(repo, 'pipeline', 'status', workspace, '--json').stdout) as {
        decisions: { via: string; decision: string }[];
      };
      assert.deepEqual(
        detail.decisions.map((d) => [d.decision, d.via]),
        [['reject', 'agent']],
      );

      // --auto passes ordinary checkpoints on such a server, and says so in the record.
      const auto = await start(c, 'Fix the typo in the docs --auto', { effort: 'S', use_current_branch: true });
      for (const file of ['analysis.md', 'design.md']) {
        await c.call('pipeline_next_action', { workspace: auto.workspace });
        fs.writeFileSync(path.join(repo, auto.workspace, file), `# ${file}\n`);
        await c.call('pipeline_next_action', { workspace: auto.workspace, previous_action_complete: true });
      }
      assert.equal(
        (await c.call<Action>('pipeline_next_action', { workspace: auto.workspace })).phase,
        'phase-4',
        'checkpoint-a passed by --auto',
      );
      const autoDetail = JSON.parse(cli(repo, 'pipeline', 'status', auto.workspace, '--json').stdout) as {
        decisions: { via: string; decided_by: string }[];
      };
      assert.deepEqual(
        autoDetail.decisions.map((d) => [d.decided_by, d.via]),
        [['auto', 'auto']],
      );
    } finally {
      await c.close();
    }
  });
});
