import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LedgerEngine } from '../../ports/store';
import { LedgerError, validationError } from '../../errors';
import { confinedPath, realPathOf } from '../../files/confinedPath';
import type { AgentDirectory, ProjectRow } from './projectRows';
import {
  absoluteDirectory,
  agentDefinition,
  agentsByProject,
  appendPmEvent,
  projectRowOf,
  projectRows,
  projectView,
} from './projectRows';
import { projectKey } from '../../ids';
import type { ProjectOutput } from './projectContracts';

export interface NewProject {
  name: string;
  /** Absolute, or relative to the workspace; must be a folder inside it. */
  workingDirectory: string;
  description?: string | null;
}

export interface ActiveProject {
  project_id: string;
  project_name: string;
  working_directory: string;
  agents: string[];
}

/**
 * Projects of the agent PM, over the asynchronous store port. A project is a folder of this
 * workspace (the workspace itself or a subfolder, such as a package of a monorepo) with agents
 * assigned to it; it is a row of the workspace's ledger, so its tasks and agents are the
 * ledger's own. The folder is stored relative to the workspace and shown absolute.
 */
export class ProjectService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly workspace: string,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: NewProject): Promise<ProjectOutput> {
    const name = input.name.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$/.test(name) || /^\d+$/.test(name) || /^prj[-_:#]?\d+$/i.test(name)) {
      throw validationError(
        `project name ${JSON.stringify(input.name)}: use 1–100 letters, digits, ".", "_", "-" or spaces, not a bare number or an id shape like "prj-3"`,
        { name: input.name },
      );
    }
    if (name.toLowerCase() === 'memory')
      throw validationError('project name "memory" is taken: project://memory is the Memory Bank resource', {
        name: input.name,
      });
    const stored = this.storedDirectory(input.workingDirectory);
    const ts = this.now().toISOString();
    const row = await this.engine.write(async (tx) => {
      const taken = await tx.get<{ id: number }>('SELECT id FROM projects WHERE name = ?', [name]);
      if (taken)
        throw new LedgerError(
          'ValidationError',
          `a project named ${name} already exists (${projectKey(Number(taken.id))})`,
          { name },
        );
      const id = await tx.insert(
        'INSERT INTO projects (name, description, working_directory, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        [name, input.description ?? null, stored, 'active', ts, ts],
      );
      await appendPmEvent(tx, {
        ts,
        kind: 'project.created',
        entity: 'project',
        entityId: String(id),
        payload: { name, working_directory: stored },
      });
      return {
        id,
        name,
        description: input.description ?? null,
        working_directory: stored,
        status: 'active',
        created_at: ts,
        updated_at: ts,
      } satisfies ProjectRow;
    });
    return projectView(this.workspace, row, []);
  }

  /** Assigns an agent (it must have a definition) to a project; assigning twice changes nothing. */
  async addAgent(projectRef: string | number, agentId: string): Promise<ProjectOutput> {
    agentDefinition(this.agents, agentId);
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const row = await projectRowOf(tx, projectRef);
      const added = await tx.run(
        'INSERT INTO project_agents (project_id, agent, assigned_at) VALUES (?, ?, ?) ON CONFLICT (project_id, agent) DO NOTHING',
        [row.id, agentId, ts],
      );
      if (added.changes > 0) {
        await appendPmEvent(tx, {
          ts,
          kind: 'project.agent_added',
          entity: 'project',
          entityId: String(row.id),
          payload: { agent: agentId },
        });
      }
      const agents = (await agentsByProject(tx)).get(row.id) ?? [];
      return projectView(this.workspace, row, agents);
    });
  }

  async removeAgent(projectRef: string | number, agentId: string): Promise<ProjectOutput> {
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const row = await projectRowOf(tx, projectRef);
      const removed = await tx.run('DELETE FROM project_agents WHERE project_id = ? AND agent = ?', [row.id, agentId]);
      if (removed.changes > 0) {
        await appendPmEvent(tx, {
          ts,
          kind: 'project.agent_removed',
          entity: 'project',
          entityId: String(row.id),
          payload: { agent: agentId },
        });
      }
      return projectView(this.workspace, row, (await agentsByProject(tx)).get(row.id) ?? []);
    });
  }

  async setStatus(projectRef: string | number, status: 'active' | 'archived'): Promise<ProjectOutput> {
    const ts = this.now().toISOString();
    return this.engine.write(async (tx) => {
      const row = await projectRowOf(tx, projectRef);
      if (row.status !== status) {
        await tx.run('UPDATE projects SET status = ?, updated_at = ? WHERE id = ?', [status, ts, row.id]);
        await appendPmEvent(tx, {
          ts,
          kind: 'project.updated',
          entity: 'project',
          entityId: String(row.id),
          payload: { status },
        });
      }
      return projectView(
        this.workspace,
        { ...row, status, updated_at: row.status !== status ? ts : row.updated_at },
        (await agentsByProject(tx)).get(row.id) ?? [],
      );
    });
  }

  async list(): Promise<ProjectOutput[]> {
    return this.engine.read(async (db) => {
      const agents = await agentsByProject(db);
      return (await projectRows(db)).map((r) => projectView(this.workspace, r, agents.get(r.id) ?? []));
    });
  }

  async get(projectRef: string | number): Promise<ProjectOutput & { task_counts: Record<string, number> }> {
    return this.engine.read(async (db) => {
      const row = await projectRowOf(db, projectRef);
      const agents = (await agentsByProject(db)).get(row.id) ?? [];
      const counts = await db.all<{ status: string; n: number }>(
        'SELECT status, COUNT(*) AS n FROM tasks WHERE project_id = ? GROUP BY status',
        [row.id],
      );
      return {
        ...projectView(this.workspace, row, agents),
        task_counts: Object.fromEntries(counts.map((c) => [c.status, Number(c.n)])),
      };
    });
  }

  /**
   * The runner's view: active projects with the agents assigned to them that still have a
   * definition. One read; callable in-process by the runner.
   */
  async activeWithAgents(): Promise<ActiveProject[]> {
    const defined = new Set(this.agents.current().agents.map((a) => a.name));
    return this.engine.read(async (db) => {
      const agents = await agentsByProject(db);
      return (await projectRows(db, true)).map((r) => ({
        project_id: projectKey(r.id),
        project_name: r.name,
        working_directory: absoluteDirectory(this.workspace, r.working_directory),
        agents: (agents.get(r.id) ?? []).filter((a) => defined.has(a)),
      }));
    });
  }

  /** The folder relative to the workspace's real path ("." for the workspace itself), or a refusal. */
  private storedDirectory(given: string): string {
    if (!given.trim())
      throw validationError('working directory: give a folder inside the workspace ("." for the workspace itself)');
    const real = confinedPath(this.workspace, given.trim());
    if (!fs.existsSync(real) || !fs.statSync(real).isDirectory()) {
      throw validationError(`working directory ${given} is not a folder`, { working_directory: given });
    }
    const rel = path.relative(realPathOf(this.workspace), real);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }
}
