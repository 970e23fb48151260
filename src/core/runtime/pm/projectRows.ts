import * as path from 'node:path';
import type { AsyncSqlReader, AsyncSqlWriter } from '../../ports/store';
import type { EventKind } from '../../events/eventKinds';
import type { AgentDefinition, AgentList } from '../../agents/agentModel';
import { LedgerError } from '../../errors';
import { pmIdOf, pmNotFound, projectKey } from '../../ids';
import type { ProjectOutput } from './projectContracts';
import { callerTokenId } from '../../caller';

/** The agent definitions the agent-PM services read (AgentRegistry: the files, never the store). */
export interface AgentDirectory {
  current(): AgentList;
  lookup(name: string): AgentDefinition;
}

export interface ProjectRow {
  id: number;
  name: string;
  description: string | null;
  working_directory: string;
  status: 'active' | 'archived';
  created_at: string;
  updated_at: string;
}

const columns = 'id, name, description, working_directory, status, created_at, updated_at';

/** The project `ref` names (an id shape or its name), or a NotFound error. */
export async function projectRowOf(
  db: AsyncSqlReader,
  ref: string | number,
  field = 'project_id',
): Promise<ProjectRow> {
  const id = pmIdOf('project', ref);
  const row =
    (id !== undefined ? await db.get<ProjectRow>(`SELECT ${columns} FROM projects WHERE id = ?`, [id]) : undefined) ??
    (typeof ref === 'string'
      ? await db.get<ProjectRow>(`SELECT ${columns} FROM projects WHERE name = ?`, [ref.trim()])
      : undefined);
  if (!row) throw pmNotFound('project', ref, field, 'list projects with list_projects or `agent-ledger project list`');
  return { ...row, id: Number(row.id) };
}

export async function projectRows(db: AsyncSqlReader, onlyActive = false): Promise<ProjectRow[]> {
  const rows = await db.all<ProjectRow>(
    `SELECT ${columns} FROM projects${onlyActive ? " WHERE status = 'active'" : ''} ORDER BY id`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Agent ids by project id. */
export async function agentsByProject(db: AsyncSqlReader): Promise<Map<number, string[]>> {
  const rows = await db.all<{ project_id: number; agent: string }>(
    'SELECT project_id, agent FROM project_agents ORDER BY project_id, agent',
  );
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(Number(r.project_id)) ?? [];
    list.push(r.agent);
    out.set(Number(r.project_id), list);
  }
  return out;
}

/** A project's folder as this process sees it: stored relative to the workspace, shown absolute. */
export function absoluteDirectory(workspace: string, stored: string): string {
  return path.resolve(workspace, stored);
}

export function projectView(workspace: string, row: ProjectRow, agents: readonly string[]): ProjectOutput {
  return {
    project_id: projectKey(row.id),
    name: row.name,
    description: row.description,
    working_directory: absoluteDirectory(workspace, row.working_directory),
    status: row.status,
    agents: [...agents],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The agent's definition, or AgentNotFound (with the contract's wording kept out of a login refusal). */
export function agentDefinition(agents: AgentDirectory, agentId: string): AgentDefinition {
  try {
    return agents.lookup(agentId);
  } catch (err) {
    if (LedgerError.is(err))
      throw new LedgerError('AgentNotFound', `Agent ${agentId} not found (list agents with list_agents)`, {
        agent_id: agentId,
      });
    throw err;
  }
}

/** The agent's definition when it has one, else null (a definition may be removed while rows name it). */
export function agentDefinitionOrNull(agents: AgentDirectory, agentId: string): AgentDefinition | null {
  return agents.current().agents.find((a) => a.name === agentId) ?? null;
}

/** Appends one event of the agent-PM tools in the write's transaction. */
export function appendPmEvent(
  tx: AsyncSqlWriter,
  e: {
    ts: string;
    kind: EventKind;
    taskId?: number | null;
    workflowId?: number | null;
    entity: string;
    entityId: string;
    payload?: Record<string, unknown>;
  },
): Promise<number> {
  return tx.insert(
    'INSERT INTO events (ts, kind, workflow_id, task_id, entity, entity_id, payload, token_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq',
    [
      e.ts,
      e.kind,
      e.workflowId ?? null,
      e.taskId ?? null,
      e.entity,
      e.entityId,
      JSON.stringify(e.payload ?? {}),
      callerTokenId(),
    ],
  );
}
