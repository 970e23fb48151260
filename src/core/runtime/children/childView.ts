import * as path from 'node:path';
import { scUri } from '../../coordination/resources/scUris';
import { confinedPath, isConfined } from '../../files/confinedPath';
import type { ChildLimits, ChildManifest, ChildOutput, ChildRuntimeStatus } from './childContracts';
import type { ChildRow } from './childStore';

/** What the child tools return, built from a row of the children table. */

/** The manifest of a row. */
export function manifestOf(row: ChildRow): ChildManifest {
  return {
    child_id: row.child_id,
    kind: row.kind,
    command: row.program,
    args: JSON.parse(row.args) as string[],
    workdir: row.workdir,
    role: row.role,
    limits: JSON.parse(row.limits) as ChildLimits,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    created_at: row.created_at,
    attached_at: row.attached_at,
    run_id: row.run_id,
    op_id: row.op_id,
    job_id: row.job_id,
    graph_id: row.graph_id,
    node_id: row.node_id,
  };
}

/** The runtime status of a row as recorded. */
export function recordedStatus(row: ChildRow): ChildRuntimeStatus {
  return {
    state: row.state,
    pid: row.pid,
    started_at: row.started_at,
    ended_at: row.ended_at,
    exit_code: row.exit_code,
    signal: row.signal,
    limit: row.limit_hit,
    stopped: row.stopped === 1,
    messages_sent: row.messages_sent,
    owner_pid: row.owner_pid,
    owner_host: row.owner_host,
    error: row.error,
  };
}

/** The correlation ids of a result: the child's, with this call's operation id. */
export function correlationOf(
  row: ChildRow,
  opId: string,
): { run_id: string | null; op_id: string; job_id: string | null; graph_id: string | null; node_id: string | null } {
  return { run_id: row.run_id, op_id: opId, job_id: row.job_id, graph_id: row.graph_id, node_id: row.node_id };
}

/** The result of every single-child tool. */
export function childView(row: ChildRow, opId: string): ChildOutput {
  const manifest = manifestOf(row);
  return {
    ...correlationOf(row, opId),
    child_id: row.child_id,
    runtime_status: recordedStatus(row),
    manifest,
    role: row.role,
    limits: manifest.limits,
    attached_at: row.attached_at,
    started_at: row.started_at,
    workdir: row.workdir,
    manifest_path: row.manifest_path,
    log_path: row.log_path,
    log_uri: scUri.childLogs(row.child_id),
  };
}

/**
 * A child's working folder: inside the workspace by its real path, or (given as an absolute path)
 * inside the task worktrees' folder the user chose; and as the manifest shows it.
 */
export function workdirOf(
  workspace: string,
  cwd: string | undefined,
  worktreesDir?: string,
): { cwd: string; workdir: string } {
  if (worktreesDir !== undefined && cwd !== undefined && path.isAbsolute(cwd) && !isConfined(workspace, cwd)) {
    if (isConfined(worktreesDir, cwd)) return { cwd: confinedPath(worktreesDir, cwd), workdir: cwd };
  }
  const abs = confinedPath(workspace, cwd ?? '.');
  const rel = path.relative(confinedPath(workspace, '.'), abs);
  return { cwd: abs, workdir: rel === '' ? '.' : rel.split(path.sep).join('/') };
}
