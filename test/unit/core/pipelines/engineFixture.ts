import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Effort, FlowTemplate } from '../../../../src/core/pipelines/engine/flowTemplate';
import { forTask } from '../../../../src/core/pipelines/engine/flowTemplate';
import { parseFlow } from '../../../../src/core/pipelines/engine/flowParse';
import type { PipelineState } from '../../../../src/core/pipelines/engine/pipelineState';
import { initialState } from '../../../../src/core/pipelines/engine/pipelineState';
import type { Step } from '../../../../src/core/pipelines/engine/nextStep';
import { nextStep } from '../../../../src/core/pipelines/engine/nextStep';
import type { ArtifactFact, ReportOutcome } from '../../../../src/core/pipelines/engine/phaseReport';
import { applyReport, markIssued, stepOutputs } from '../../../../src/core/pipelines/engine/phaseReport';
import { applyDecision } from '../../../../src/core/pipelines/engine/checkpointDecisions';

/** The engine alone, with no disk: artifacts live in a map, time is a counter. */
export const defaultFlow: FlowTemplate = parseFlow(
  fs.readFileSync(path.join(__dirname, '../../../../resources/pipeline/flow.yaml'), 'utf8'),
  'flow.yaml',
);

export function newState(
  effort: Effort,
  opts: { createBranch?: boolean; skipPr?: boolean; flow?: FlowTemplate } = {},
): PipelineState {
  return initialState(opts.flow ?? defaultFlow, {
    workspace: '.specs/20260401-x',
    specName: 'x',
    title: 'X',
    source: { type: 'text', url: null, id: null, core_text: 'x' },
    effort,
    flags: {
      auto: false,
      skip_pr: opts.skipPr === true,
      debug: false,
      discuss: false,
      effort_override: null,
      current_branch: 'main',
    },
    branch: opts.createBranch ? 'feature/x' : 'main',
    createBranch: opts.createBranch === true,
    workflowId: null,
    now: '2026-04-01T00:00:00.000Z',
  });
}

export interface Script {
  tasks?: string;
  verdicts?: Record<string, string[]>;
  decisions?: Record<string, string[]>;
}

export interface Run {
  state: PipelineState;
  trace: string[];
  outcomes: ReportOutcome[];
  steps: Step[];
}

/** Plays the orchestrator against the pure engine until done (or `limit` steps). */
export function play(state: PipelineState, script: Script, flow: FlowTemplate = defaultFlow, limit = 200): Run {
  const files = new Map<string, string>();
  const counts = new Map<string, number>();
  const trace: string[] = [];
  const outcomes: ReportOutcome[] = [];
  const steps: Step[] = [];
  let s = state;
  let clock = 0;
  const now = (): string => new Date(Date.UTC(2026, 3, 1, 0, 0, clock++)).toISOString();
  for (let i = 0; i < limit; i++) {
    const step = nextStep(s, flow);
    steps.push(step);
    if (step.type === 'done') {
      trace.push('done');
      return { state: s, trace, outcomes, steps };
    }
    const where =
      step.type === 'checkpoint' || step.type === 'human_gate'
        ? step.name
        : step.type === 'spawn_agent' && step.taskIds.length
          ? `${step.phase}[${step.taskIds.join(',')}]`
          : step.phase;
    trace.push(where);
    const prints: Record<string, string | null> = {};
    for (const name of stepOutputs(step)) prints[name] = files.get(name) ?? null;
    s = markIssued(s, step, now(), prints);
    if (step.type === 'checkpoint' || step.type === 'human_gate') {
      const k = counts.get(step.name) ?? 0;
      counts.set(step.name, k + 1);
      const option = script.decisions?.[step.name]?.[k] ?? 'approve';
      s = applyDecision(s, flow, {
        option,
        comment: option === 'reject' ? 'please change' : null,
        decidedBy: 'tester',
        via: 'test',
        now: now(),
      }).state;
      continue;
    }
    const artifacts: Record<string, ArtifactFact> = {};
    for (const name of stepOutputs(step)) {
      const run = (counts.get(name) ?? 0) + 1;
      counts.set(name, run);
      const text = step.type === 'write_file' ? step.content : content(name, run, script);
      artifacts[name] = { text, changed: text !== files.get(name) };
      files.set(name, text);
    }
    const phase = step.phase;
    const r = applyReport(s, flow, {
      phase,
      tokens: 10,
      durationMs: 100,
      model: 'sonnet',
      setupOnly: false,
      artifacts,
      now: now(),
    });
    s = r.state;
    outcomes.push(r.outcome);
  }
  return { state: s, trace, outcomes, steps };
}

function content(name: string, run: number, script: Script): string {
  if (name === 'tasks.md') return script.tasks ?? '## Task 1: One\nmode: sequential\n';
  const review = name === 'review-design.md' || name === 'review-tasks.md';
  const code = /^review-\d+\.md$/.test(name);
  if (review || code) {
    const v = script.verdicts?.[name]?.[run - 1] ?? (review ? 'APPROVE' : 'PASS');
    return `run ${run}\n- [MINOR] a note on ${name}\n## Verdict: ${v}\n`;
  }
  return `${name} run ${run}\n`;
}

export { forTask };
