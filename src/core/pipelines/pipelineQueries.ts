import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LedgerEngine } from '../ports/store';
import type { PhaseKind } from './engine/flowTemplate';
import type { PipelineFilter, PipelineIndex } from './pipelineRepo';
import { getPipelineIndex, listPipelineIndex, pipelineDecisions } from './pipelineRepo';
import type {
  DecisionRecord,
  PhaseStatus,
  PipelineState,
  PipelineStatus,
  TaskMode,
  TaskStatus,
} from './engine/pipelineState';
import { COMPLETED_PHASE, SETUP_PHASE, totals } from './engine/pipelineState';
import type { PipelineResources } from './files/flowFiles';
import { readState, resolvePipelineDir } from './files/specsFiles';
import { isConfined } from '../files/confinedPath';
import { nextStep } from './engine/nextStep';
import type { Finding, Verdict } from './engine/verdict';

/**
 * The read side a view needs (the editor's Pipelines tree and pipeline webview, the CLI's
 * `status` and `list`): pipelines with the checkpoint they wait at, and one pipeline's phases
 * with state, duration, tokens, verdicts, findings, tasks, decisions and artifacts.
 */
export interface PipelineSummary extends PipelineIndex {
  /** The waiting checkpoint's text (what a person reads before deciding), when one waits. */
  presentToUser: string | null;
}

/** An artifact of a pipeline folder: `path` is absolute (for "open in editor"). */
export interface PipelineArtifactView {
  name: string;
  path: string;
  exists: boolean;
}

export interface PhaseView {
  id: string;
  label: string;
  /** The flow's phase kind (`agent`, `review`, `checkpoint`, `implementation`…) or `setup`. */
  kind: PhaseKind | 'setup';
  status: PhaseStatus;
  /** The engine is at this phase. */
  current: boolean;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number;
  tokens: number;
  model: string | null;
  runs: number;
  /** Times the phase was sent back and run again. */
  revision: number;
  verdict: Verdict | null;
  findings: Finding[];
  /** The artifact the phase writes. */
  artifact: PipelineArtifactView | null;
}

export interface TaskView {
  id: string;
  title: string;
  mode: TaskMode;
  status: TaskStatus;
  attempts: number;
  verdict: Verdict | null;
  findings: Finding[];
  /** The ledger task (`task-12`): its snapshot and exact files changed are in the Tasks view. */
  ledgerTaskId: string | null;
  filesChanged: number | null;
}

export interface PipelineDetail {
  workspace: string;
  /** Absolute folder of the pipeline. */
  folder: string;
  specName: string;
  title: string;
  status: PipelineStatus;
  effort: string;
  flowTemplate: string;
  flowSource: string;
  currentPhase: string;
  branch: string | null;
  source: PipelineState['source'];
  workflowId: string | null;
  totals: { tokens: number; durationMs: number };
  waiting: {
    kind: 'checkpoint' | 'human_gate';
    name: string;
    phase: string;
    options: string[];
    presentToUser: string;
    requestedAt: string | null;
  } | null;
  phases: PhaseView[];
  tasks: TaskView[];
  decisions: DecisionRecord[];
  /** Every Markdown file of the pipeline folder. */
  artifacts: { name: string; path: string }[];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export class PipelineQueries {
  constructor(
    private readonly db: LedgerEngine,
    private readonly root: string,
    private readonly resources: PipelineResources,
  ) {}

  async list(filter: PipelineFilter = {}): Promise<{ pipelines: PipelineSummary[]; total: number }> {
    const { pipelines, total } = await this.db.read((db) => listPipelineIndex(db, filter));
    const summaries: PipelineSummary[] = [];
    for (const p of pipelines)
      summaries.push({ ...p, presentToUser: p.waiting ? await this.presentToUser(p.workspace) : null });
    return { pipelines: summaries, total };
  }

  /** One pipeline, from its state.json (the truth) and the decisions the store recorded. */
  async detail(workspace: string): Promise<PipelineDetail> {
    const dir = resolvePipelineDir(this.root, workspace);
    const state = readState(dir);
    const flow = this.resources.flow();
    const step = nextStep(state, flow);
    const index = await this.db.read((db) => getPipelineIndex(db, dir.rel));
    const decisions = index ? await this.db.read((db) => pipelineDecisions(db, index.id)) : state.decisions;
    const artifact = (name: string | undefined): PhaseView['artifact'] => {
      if (!name || name.includes('{task_id}')) return null;
      const file = path.join(dir.abs, name);
      return { name, path: file, exists: fs.existsSync(file) && isConfined(this.root, file) };
    };
    const phase = (id: string, label: string, kind: PhaseView['kind'], output?: string): PhaseView => {
      const r = state.phases[id];
      return {
        id,
        label,
        kind,
        status: r?.status ?? 'pending',
        current: state.current_phase === id,
        startedAt: r?.started_at ?? null,
        completedAt: r?.completed_at ?? null,
        durationMs: r?.metrics.duration_ms ?? 0,
        tokens: r?.metrics.tokens ?? 0,
        model: r?.metrics.model ?? null,
        runs: r?.metrics.runs ?? 0,
        revision: r?.revision ?? 0,
        verdict: r?.verdict ?? null,
        findings: r?.findings ?? [],
        artifact: artifact(output),
      };
    };
    const phases = [
      ...(state.phases[SETUP_PHASE] ? [phase(SETUP_PHASE, 'Create branch', 'setup')] : []),
      ...flow.phases.map((p) => phase(p.id, p.label, p.kind, p.output)),
    ];
    const sum = totals(state);
    const waiting = step.type === 'checkpoint' || step.type === 'human_gate';
    return {
      workspace: state.workspace,
      folder: dir.abs,
      specName: state.spec_name,
      title: state.title,
      status: state.status,
      effort: state.effort,
      flowTemplate: state.flow_template,
      flowSource: state.flow_source,
      currentPhase: state.current_phase === COMPLETED_PHASE ? COMPLETED_PHASE : state.current_phase,
      branch: state.branch,
      source: state.source,
      workflowId: state.workflow_id,
      totals: { tokens: sum.tokens, durationMs: sum.duration_ms },
      waiting: waiting
        ? {
            kind: step.type,
            name: step.name,
            phase: step.phase,
            options: step.options,
            presentToUser: step.present,
            requestedAt: state.waiting?.requested_at ?? null,
          }
        : null,
      phases,
      tasks: state.tasks.map((t) => ({
        id: t.id,
        title: t.title,
        mode: t.mode,
        status: t.status,
        attempts: t.attempts,
        verdict: t.verdict,
        findings: t.findings,
        ledgerTaskId: t.ledger_task_id,
        filesChanged: t.files_changed,
      })),
      decisions,
      artifacts: listMarkdown(dir.abs),
      createdAt: state.created_at,
      updatedAt: state.updated_at,
      completedAt: state.completed_at,
    };
  }

  private async presentToUser(workspace: string): Promise<string | null> {
    try {
      return (await this.detail(workspace)).waiting?.presentToUser ?? null;
    } catch {
      return null; // the folder is gone or unreadable: the list still shows the row
    }
  }
}

function listMarkdown(folder: string): { name: string; path: string }[] {
  try {
    return fs
      .readdirSync(folder)
      .filter((n) => n.endsWith('.md') && isConfined(folder, n))
      .sort()
      .map((name) => ({ name, path: path.join(folder, name) }));
  } catch {
    return [];
  }
}
