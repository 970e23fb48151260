import { LedgerError } from '../errors';
import type { NextActionResponse } from './engine/actions';
import type { PipelineNextActionInput, PipelineReportResultInput, ReportResult } from './pipelineContracts';
import { displayMessage, toAction } from './engine/actions';
import type { DecisionInput } from './engine/checkpointDecisions';
import { applyDecision, parseUserResponse } from './engine/checkpointDecisions';
import type { FlowTemplate } from './engine/flowTemplate';
import type { Flywheel } from './prompt/flywheel';
import type { PipelineLedger } from './pipelineLedger';
import type { DecisionRecord, PipelineState } from './engine/pipelineState';
import type { PipelineStateStore } from './pipelineStateStore';
import { buildPrompt } from './prompt/promptBuilder';
import type { RepoProfile } from './prompt/repoProfile';
import type { PipelineResources } from './files/flowFiles';
import type { PipelineDir } from './files/specsFiles';
import { fingerprint, fingerprintText, readArtifact, readState, resolvePipelineDir } from './files/specsFiles';
import type { Step } from './engine/nextStep';
import { nextStep, stepTasks } from './engine/nextStep';
import type { ArtifactFact } from './engine/phaseReport';
import { applyReport, markIssued, stepOutputs } from './engine/phaseReport';

export interface RunnerOptions {
  /** Accept `user_response` from the agent for checkpoints and human gates (off by default: a person decides). */
  allowAgentCheckpoints: boolean;
}

/**
 * pipeline_next_action and pipeline_report_result: read state.json, let the engine decide,
 * record what was handed out, and assemble the 4-layer prompt. The orchestrating agent never
 * picks a phase; it executes the action and reports back.
 */
export class PipelineRunner {
  constructor(
    private readonly root: string,
    private readonly resources: PipelineResources,
    private readonly states: PipelineStateStore,
    private readonly ledger: PipelineLedger,
    private readonly flywheel: Flywheel,
    private readonly profile: () => RepoProfile | null,
    readonly options: RunnerOptions,
  ) {}

  async nextAction(input: PipelineNextActionInput): Promise<NextActionResponse> {
    const dir = resolvePipelineDir(this.root, input.workspace);
    const flow = this.resources.flow();
    let state = readState(dir);
    const warnings: string[] = [];
    let reportResult: ReportResult | null = null;
    if (input.previous_action_complete) {
      if (state.pending) {
        const reported = await this.report(
          dir,
          flow,
          state,
          {
            phase: state.pending.phase,
            tokens: input.previous_tokens,
            durationMs: input.previous_duration_ms,
            model: input.previous_model,
            setupOnly: input.previous_setup_only,
          },
          warnings,
        );
        state = reported.state;
        reportResult = reported.result;
      } else {
        warnings.push(
          `previous_action_complete ignored: no agent, exec or write_file action was pending (the pipeline is at ${state.current_phase})`,
        );
      }
    }
    if (input.user_response !== undefined && input.user_response.trim() !== '') {
      state = await this.agentDecision(dir, flow, state, input.user_response, warnings);
    }
    state = await this.ledger.completeFinished(dir, flow, state, warnings);
    state = await this.autoApprove(dir, flow, state);

    let step = nextStep(state, flow);
    const toStart = step.type === 'spawn_agent' ? stepTasks(state, step).filter((t) => !t.ledger_task_id) : [];
    const ledgerIds = toStart.length ? await this.ledger.start(state, toStart, warnings) : {};
    if (step.type !== 'done' && (markIssued(state, step, '', {}) !== state || Object.keys(ledgerIds).length)) {
      state = await this.states.update(dir, flow, null, (current, now) => {
        // Decide again on the state inside the lock: another process may have moved it.
        const fresh = nextStep(current, flow);
        const withIds = Object.keys(ledgerIds).length ? structuredClone(current) : current;
        for (const t of withIds.tasks) if (ledgerIds[t.id] && !t.ledger_task_id) t.ledger_task_id = ledgerIds[t.id];
        const prints = Object.fromEntries(stepOutputs(fresh).map((name) => [name, fingerprint(dir, name)]));
        return { state: markIssued(withIds, fresh, now, prints) };
      });
      step = nextStep(state, flow);
    }
    if (state.waiting)
      warnings.push(
        `waiting for a person to decide ${state.waiting.name}: show present_to_user, then call pipeline_next_action again once they decided`,
      );
    const prompt = step.type === 'spawn_agent' ? this.prompt(state, step) : '';
    return {
      ...toAction(step, state.workspace, prompt),
      warning: warnings.join('; '),
      display_message: displayMessage(step),
      report_result: reportResult,
    };
  }

  async reportResult(input: PipelineReportResultInput): Promise<ReportResult> {
    const dir = resolvePipelineDir(this.root, input.workspace);
    const flow = this.resources.flow();
    const warnings: string[] = [];
    const state = readState(dir);
    const reported = await this.report(
      dir,
      flow,
      state,
      {
        phase: input.phase,
        tokens: input.tokens_used,
        durationMs: input.duration_ms,
        model: input.model,
        setupOnly: input.setup_only,
      },
      warnings,
    );
    await this.ledger.completeFinished(dir, flow, reported.state, warnings);
    return { ...reported.result, warning: [reported.result.warning, ...warnings].filter(Boolean).join('; ') };
  }

  /** A person's decision (CLI, editor), or the agent's when the server allows it. */
  async decide(
    workspace: string,
    input: Omit<DecisionInput, 'now'>,
  ): Promise<{ state: PipelineState; decision: DecisionRecord }> {
    const dir = resolvePipelineDir(this.root, workspace);
    const flow = this.resources.flow();
    let decision: DecisionRecord | undefined;
    let state = await this.states.update(dir, flow, null, (current, now) => {
      const result = applyDecision(current, flow, { ...input, now });
      decision = result.decision;
      return result;
    });
    state = await this.ledger.completeFinished(dir, flow, state, []);
    return { state, decision: decision as DecisionRecord };
  }

  private async report(
    dir: PipelineDir,
    flow: FlowTemplate,
    state: PipelineState,
    r: { phase: string; tokens?: number; durationMs?: number; model?: string; setupOnly?: boolean },
    warnings: string[],
  ): Promise<{ state: PipelineState; result: ReportResult }> {
    const artifacts: Record<string, ArtifactFact> = {};
    for (const name of state.pending?.outputs ?? []) {
      const text = readArtifact(dir, name);
      artifacts[name] = { text, changed: fingerprintText(text) !== (state.pending?.fingerprints[name] ?? null) };
    }
    let outcome: ReturnType<typeof applyReport>['outcome'] | undefined;
    const next = await this.states.update(dir, flow, state.rev, (current, now) => {
      const result = applyReport(current, flow, {
        phase: r.phase,
        tokens: r.tokens ?? 0,
        durationMs: r.durationMs ?? 0,
        model: r.model ?? null,
        setupOnly: r.setupOnly === true,
        artifacts,
        now,
      });
      outcome = result.outcome;
      return { state: result.state };
    });
    const o = outcome as NonNullable<typeof outcome>;
    if (o.warning) warnings.push(o.warning);
    const after = nextStep(next, flow);
    return {
      state: next,
      result: { state_updated: true, ...o, display_message: `${r.phase} recorded; next: ${displayMessage(after)}` },
    };
  }

  private async agentDecision(
    dir: PipelineDir,
    flow: FlowTemplate,
    state: PipelineState,
    response: string,
    warnings: string[],
  ): Promise<PipelineState> {
    const waiting = nextStep(state, flow);
    const name = waiting.type === 'checkpoint' || waiting.type === 'human_gate' ? waiting.name : null;
    if (!this.options.allowAgentCheckpoints) {
      throw new LedgerError(
        'InvalidStatus',
        `user_response refused: ${name ? `${name} waits for a person's decision` : 'decisions belong to a person'}, and this server does not accept them from the agent. ` +
          `A person approves or rejects in VS Code (Agent Ledger → Pipelines) or with \`agent-ledger pipeline approve|reject ${state.workspace} [--comment TEXT]\`; ` +
          'then call pipeline_next_action again. (A server started with --allow-agent-checkpoints lets the agent relay decisions.)',
        { workspace: state.workspace, checkpoint: name, reason: 'human_decision_required' },
      );
    }
    const { option, comment } = parseUserResponse(response);
    const decided = await this.decide(dir.rel, {
      option,
      comment,
      decidedBy: 'agent (user_response)',
      via: 'agent',
      expected: name,
    });
    warnings.push(`${decided.decision.name}: ${decided.decision.decision} recorded from the agent's user_response`);
    return decided.state;
  }

  /** The --auto flag passes ordinary checkpoints, but only on a server that lets agents decide. */
  private async autoApprove(dir: PipelineDir, flow: FlowTemplate, state: PipelineState): Promise<PipelineState> {
    let current = state;
    for (let i = 0; i < 10 && current.flags.auto && this.options.allowAgentCheckpoints && !current.escalation; i++) {
      const step = nextStep(current, flow);
      if (step.type !== 'checkpoint') break;
      current = (
        await this.decide(dir.rel, {
          option: 'approve',
          comment: '--auto',
          decidedBy: 'auto',
          via: 'auto',
          expected: step.name,
        })
      ).state;
    }
    return current;
  }

  private prompt(state: PipelineState, step: Extract<Step, { type: 'spawn_agent' }>): string {
    // BM25 ranks on the request itself: for an issue, core_text is only its URL.
    const request = readArtifact(resolvePipelineDir(this.root, state.workspace), 'request.md') ?? '';
    const query = `${state.title}\n${state.source.core_text}\n${request.replace(/^---\n[\s\S]*?\n---\n/, '').slice(0, 2000)}`;
    return buildPrompt({
      instructions: this.resources.agentInstructions(step.agent),
      workspace: state.workspace,
      step,
      tasks: stepTasks(state, step).map((t) => ({ id: t.id, title: t.title, files: t.files })),
      profile: this.profile(),
      flywheel: this.flywheel.data(query, state.workspace),
    });
  }
}
