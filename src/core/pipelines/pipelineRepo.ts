import type { AsyncSqlReader, AsyncSqlWriter } from '../ports/store';
import { fromJson, toJson } from '../json';
import type { DecisionRecord, PipelineState, PipelineStatus, WaitingDecision } from './engine/pipelineState';
import { totals } from './engine/pipelineState';

/** The `pipelines` and `pipeline_decisions` tables (v3): the store's index of state.json files. */
export interface PipelineRow {
  id: number;
  workspace: string;
  spec_name: string;
  title: string;
  workflow_id: number | null;
  source_type: string;
  source_url: string | null;
  effort: string;
  flow_template: string;
  status: PipelineStatus;
  current_phase: string;
  waiting: string | null;
  total_tokens: number;
  total_duration_ms: number;
  rev: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface PipelineIndex {
  id: number;
  workspace: string;
  specName: string;
  title: string;
  workflowId: number | null;
  sourceType: string;
  sourceUrl: string | null;
  effort: string;
  flowTemplate: string;
  status: PipelineStatus;
  currentPhase: string;
  waiting: WaitingDecision | null;
  totalTokens: number;
  totalDurationMs: number;
  rev: number;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

function toIndex(r: PipelineRow): PipelineIndex {
  return {
    id: r.id,
    workspace: r.workspace,
    specName: r.spec_name,
    title: r.title,
    workflowId: r.workflow_id,
    sourceType: r.source_type,
    sourceUrl: r.source_url,
    effort: r.effort,
    flowTemplate: r.flow_template,
    status: r.status,
    currentPhase: r.current_phase,
    waiting: fromJson<WaitingDecision | null>(r.waiting, null),
    totalTokens: r.total_tokens,
    totalDurationMs: r.total_duration_ms,
    rev: r.rev,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

/** Inserts or refreshes the row of `state`; returns its id. */
export async function upsertPipeline(
  tx: AsyncSqlWriter,
  state: PipelineState,
  workflowId: number | null,
): Promise<number> {
  const sum = totals(state);
  const values = [
    state.spec_name,
    state.title,
    workflowId,
    state.source.type,
    state.source.url,
    state.effort,
    state.flow_template,
    state.status,
    state.current_phase,
    toJson(state.waiting),
    sum.tokens,
    sum.duration_ms,
    state.rev,
    state.updated_at,
    state.completed_at,
  ];
  const existing = await tx.get<{ id: number }>('SELECT id FROM pipelines WHERE workspace = ?', [state.workspace]);
  if (existing) {
    await tx.run(
      `UPDATE pipelines SET spec_name = ?, title = ?, workflow_id = ?, source_type = ?, source_url = ?, effort = ?, flow_template = ?, status = ?,
        current_phase = ?, waiting = ?, total_tokens = ?, total_duration_ms = ?, rev = ?, updated_at = ?, completed_at = ? WHERE id = ?`,
      [...values, existing.id],
    );
    return existing.id;
  }
  return tx.insert(
    `INSERT INTO pipelines (spec_name, title, workflow_id, source_type, source_url, effort, flow_template, status, current_phase, waiting,
      total_tokens, total_duration_ms, rev, updated_at, completed_at, workspace, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [...values, state.workspace, state.created_at],
  );
}

export async function getPipelineIndex(db: AsyncSqlReader, workspace: string): Promise<PipelineIndex | undefined> {
  const row = await db.get<PipelineRow>('SELECT * FROM pipelines WHERE workspace = ?', [workspace]);
  return row && toIndex(row);
}

export interface PipelineFilter {
  status?: PipelineStatus;
  limit?: number;
  offset?: number;
}

/** Pipelines, most recently active first; those waiting for a person come first. */
export async function listPipelineIndex(
  db: AsyncSqlReader,
  filter: PipelineFilter = {},
): Promise<{ pipelines: PipelineIndex[]; total: number }> {
  const where = filter.status ? 'WHERE status = ?' : '';
  const params = filter.status ? [filter.status] : [];
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pipelines ${where}`, params))?.n ?? 0;
  const rows = await db.all<PipelineRow>(
    `SELECT * FROM pipelines ${where} ORDER BY (status = 'awaiting_human') DESC, updated_at DESC, id DESC LIMIT ? OFFSET ?`,
    [...params, filter.limit ?? 50, filter.offset ?? 0],
  );
  return { pipelines: rows.map(toIndex), total };
}

export function insertPipelineDecision(tx: AsyncSqlWriter, pipelineId: number, d: DecisionRecord): Promise<number> {
  return tx.insert(
    'INSERT INTO pipeline_decisions (pipeline_id, name, phase, kind, decision, comment, decided_by, via, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [pipelineId, d.name, d.phase, d.kind, d.decision, d.comment, d.decided_by, d.via, d.decided_at],
  );
}

export function pipelineDecisions(
  db: AsyncSqlReader,
  pipelineId: number,
): Promise<(DecisionRecord & { id: number })[]> {
  return db.all<DecisionRecord & { id: number }>(
    'SELECT id, name, phase, kind, decision, comment, decided_by, via, decided_at FROM pipeline_decisions WHERE pipeline_id = ? ORDER BY id',
    [pipelineId],
  );
}
