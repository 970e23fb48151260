import * as path from 'node:path';
import type { AsyncSqlWriter, LedgerEngine } from '../ports/store';
import { stateError } from '../errors';
import { parseId, workflowKey } from '../ids';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { getWorkflow, insertWorkflow } from '../workflows/workflowRepo';
import type { FlowTemplate } from './engine/flowTemplate';
import type { DecisionRecord, PipelineState } from './engine/pipelineState';
import { isFinal } from './engine/pipelineState';
import { insertPipelineDecision, upsertPipeline } from './pipelineRepo';
import type { PipelineDir } from './files/specsFiles';
import { readArtifact, readState, writeState } from './files/specsFiles';
import { writeFileConfined } from '../files/confinedPath';
import { indexEntry, upsertSpecsIndex } from './files/specsIndex';

export interface StateChange {
  state: PipelineState;
  decision?: DecisionRecord;
}

/**
 * Every change of a pipeline's state goes through here, inside the store's cross-process
 * write lock: read state.json, apply the change, index it (row, decision, events), and write
 * state.json last — atomically — so a failure before that leaves the file as it was. Two
 * processes (an MCP server and the CLI approving a checkpoint) therefore take turns on the
 * file, and every process sees the change through the journal.
 */
export class PipelineStateStore {
  constructor(
    private readonly db: LedgerEngine,
    private readonly clock: Clock,
    private readonly root: string,
  ) {}

  now(): string {
    return iso(this.clock.now());
  }

  /** Writes a new pipeline: its workflow (kind 'pipeline'), its row, request.md and state.json. */
  create(dir: PipelineDir, state: PipelineState, flow: FlowTemplate, requestMd: string): Promise<PipelineState> {
    return this.db.write(async (tx) => {
      if (readArtifact(dir, 'state.json') !== null)
        throw stateError(`${dir.rel} already holds a pipeline; resume it with pipeline_next_action`, {
          workspace: dir.rel,
        });
      const s: PipelineState = { ...state };
      const workflowId = await this.newWorkflow(tx, s, flow);
      s.workflow_id = workflowKey(workflowId);
      const id = await upsertPipeline(tx, s, workflowId);
      await appendEvent(tx, {
        ts: s.created_at,
        kind: 'pipeline.started',
        workflowId,
        entity: 'pipeline',
        entityId: String(id),
        payload: { workspace: s.workspace, effort: s.effort, phase: s.current_phase },
      });
      writeFileConfined(dir.root, path.join(dir.abs, 'request.md'), requestMd);
      writeState(dir, s);
      return s;
    });
  }

  /**
   * Applies `change` to the current state.json. `expectedRev` (when given) refuses the change
   * if another process moved the pipeline since the caller read it.
   */
  update(
    dir: PipelineDir,
    flow: FlowTemplate,
    expectedRev: number | null,
    change: (current: PipelineState, now: string) => StateChange | null,
  ): Promise<PipelineState> {
    return this.db.write(async (tx) => {
      const current = readState(dir);
      if (expectedRev !== null && current.rev !== expectedRev) {
        throw stateError(
          `${dir.rel} changed while this call was handled (rev ${expectedRev} → ${current.rev}); call pipeline_next_action to see where it is now`,
          { workspace: dir.rel },
        );
      }
      const now = this.now();
      const result = change(current, now);
      if (!result || result.state === current) return current;
      const next: PipelineState = { ...result.state, rev: current.rev + 1, updated_at: now };
      const workflowId = await this.ensureWorkflow(tx, next, flow);
      const id = await upsertPipeline(tx, next, workflowId);
      const event = { ts: now, workflowId, entity: 'pipeline', entityId: String(id) };
      if (result.decision) {
        await insertPipelineDecision(tx, id, result.decision);
        const d = result.decision;
        await appendEvent(tx, {
          ...event,
          kind: 'pipeline.decided',
          payload: {
            workspace: next.workspace,
            checkpoint: d.name,
            decision: d.decision,
            by: d.decided_by,
            via: d.via,
          },
        });
      }
      if (next.status === 'awaiting_human' && current.status !== 'awaiting_human') {
        await appendEvent(tx, {
          ...event,
          kind: 'pipeline.waiting',
          payload: { workspace: next.workspace, checkpoint: next.waiting?.name, phase: next.waiting?.phase },
        });
      }
      if (isFinal(next) && !isFinal(current)) {
        await appendEvent(tx, { ...event, kind: `pipeline.${next.status}`, payload: { workspace: next.workspace } });
        // The flywheel learns from every finished pipeline, this one included.
        upsertSpecsIndex(
          this.root,
          indexEntry(next, flow, readArtifact(dir, 'request.md') ?? '', readArtifact(dir, 'improvement.md')),
          now,
        );
      }
      await appendEvent(tx, {
        ...event,
        kind: 'pipeline.updated',
        payload: { workspace: next.workspace, status: next.status, phase: next.current_phase, rev: next.rev },
      });
      writeState(dir, next);
      return next;
    });
  }

  private async newWorkflow(tx: AsyncSqlWriter, s: PipelineState, flow: FlowTemplate): Promise<number> {
    const plan = flow.phases
      .filter((p) => !s.skipped_phases.includes(p.id))
      .map((p) => ({ step: p.id, goal: p.label }));
    const id = await insertWorkflow(tx, {
      name: `Pipeline: ${s.title}`.slice(0, 500),
      description: `${s.workspace} (effort ${s.effort}, ${s.flow_template} flow)`,
      plan,
      kind: 'pipeline',
      createdAt: s.created_at,
    });
    await appendEvent(tx, {
      ts: s.created_at,
      kind: 'workflow.started',
      workflowId: id,
      payload: { name: `Pipeline: ${s.title}`, kind: 'pipeline' },
    });
    return id;
  }

  /** The workflow of a pipeline, recreated when state.json outlived the store (e.g. a fresh clone). */
  private async ensureWorkflow(tx: AsyncSqlWriter, s: PipelineState, flow: FlowTemplate): Promise<number> {
    if (s.workflow_id) {
      let id: number | undefined;
      try {
        id = parseId('workflow', s.workflow_id);
      } catch {
        /* unreadable id: make a new workflow */
      }
      if (id !== undefined && (await getWorkflow(tx, id))) return id;
    }
    const id = await this.newWorkflow(tx, s, flow);
    s.workflow_id = workflowKey(id);
    return id;
  }
}
