import * as path from 'node:path';
import type { FlowTemplate } from '../core/pipelines/engine/flowTemplate';
import type { PipelineDetail } from '../core/pipelines/pipelineQueries';
import type { Services } from '../app/services';
import type { PipelineArtifact, PipelineModel, PipelineWaiting } from '../shared/protocol';
import { checkpointTitle, lastDecision } from './pipelineText';

/**
 * What the pipeline webview shows, from `PipelineService.detail` and the flow the engine runs
 * (for what a checkpoint presents and where a rejection sends the pipeline). Pure: no `vscode`,
 * and only types from the flow module, which would otherwise pull its YAML and zod parsers into
 * the extension bundle.
 */
export function pipelineModel(
  detail: PipelineDetail,
  folder: { name: string; root: string },
  flow: FlowTemplate | undefined,
): PipelineModel {
  const labelOf = (id: string): string | undefined =>
    detail.phases.find((p) => p.id === id)?.label ?? flow?.phases.find((p) => p.id === id)?.label;
  const artifactAt = (name: string): PipelineArtifact => {
    const file = path.join(detail.folder, name);
    return { name, path: file, exists: detail.artifacts.some((a) => a.path === file) };
  };
  const waitingTask = detail.waiting?.kind === 'human_gate' ? detail.waiting.name.replace(/^task-/, '') : null;
  return {
    folder: folder.root,
    folderName: folder.name,
    workspace: detail.workspace,
    title: detail.title,
    status: detail.status,
    effort: detail.effort,
    flowTemplate: detail.flowTemplate,
    branch: detail.branch,
    source: { type: detail.source.type, url: detail.source.url },
    currentPhase: detail.currentPhase,
    currentLabel: labelOf(detail.currentPhase) ?? detail.currentPhase,
    totals: detail.totals,
    models: perModel(detail),
    waiting: waiting(detail, flow, labelOf, artifactAt),
    phases: detail.phases.map((p) => {
      const decision = p.kind === 'checkpoint' ? lastDecision(detail.decisions, p.id) : undefined;
      return {
        ...p,
        waiting: detail.waiting?.phase === p.id,
        decision: decision ? { decision: decision.decision, by: decision.decided_by, at: decision.decided_at } : null,
      };
    }),
    tasks: detail.tasks.map((t) => ({ ...t, waiting: t.id === waitingTask })),
    decisions: detail.decisions.map((d) => ({
      name: d.name,
      label: checkpointTitle(d.name, labelOf),
      kind: d.kind,
      decision: d.decision,
      comment: d.comment,
      by: d.decided_by,
      via: d.via,
      at: d.decided_at,
    })),
    artifacts: detail.artifacts.map((a) => ({ ...a, exists: true })),
    createdAt: detail.createdAt,
    updatedAt: detail.updatedAt,
    completedAt: detail.completedAt,
  };
}

function waiting(
  detail: PipelineDetail,
  flow: FlowTemplate | undefined,
  labelOf: (id: string) => string | undefined,
  artifactAt: (name: string) => PipelineArtifact,
): PipelineWaiting | null {
  const w = detail.waiting;
  if (!w) return null;
  const retryLimit = w.name.endsWith('-retry-limit');
  const def = flow?.phases.find((p) => p.id === w.phase);
  // A revision limit presents the reviewed work; an ordinary checkpoint what its flow entry lists.
  const present = retryLimit
    ? [def?.output].filter((n): n is string => !!n && !n.includes('{task_id}'))
    : w.kind === 'checkpoint'
      ? (def?.present ?? [])
      : [];
  return {
    kind: w.kind,
    name: w.name,
    label: checkpointTitle(w.name, labelOf),
    phase: w.phase,
    options: w.options,
    presentToUser: w.presentToUser,
    requestedAt: w.requestedAt,
    retryLimit,
    rejectTo: w.kind === 'checkpoint' && !retryLimit && def?.revises ? (labelOf(def.revises) ?? def.revises) : null,
    present: present.map(artifactAt).filter((a) => a.exists),
  };
}

/** Tokens and time per model over the phases (a phase counts under the model of its last run). */
function perModel(detail: PipelineDetail): PipelineModel['models'] {
  const byModel = new Map<string, { model: string; tokens: number; durationMs: number; runs: number }>();
  for (const p of detail.phases) {
    if (!p.model || p.runs === 0) continue;
    const m = byModel.get(p.model) ?? { model: p.model, tokens: 0, durationMs: 0, runs: 0 };
    m.tokens += p.tokens;
    m.durationMs += p.durationMs;
    m.runs += p.runs;
    byModel.set(p.model, m);
  }
  return [...byModel.values()].sort((a, b) => b.tokens - a.tokens);
}

/** The flow the engine runs; undefined when a repository override is broken (the detail still shows). */
export function readFlow(services: Services): FlowTemplate | undefined {
  try {
    return services.pipelines.resources.flow();
  } catch {
    return undefined;
  }
}
