import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogEntry } from '../../ports/processes';
import { scUri } from '../../coordination/resources/scUris';
import { childError } from './childErrors';
import { toChildLogEntry } from './childLogs';
import type { ChildLogEntry } from './childLogs';
import type { ChildRow } from './childStore';
import { manifestOf } from './childView';

/**
 * A child's files on the machine where it runs: `<childrenDir>/<id>/` holds the supervisor's log
 * `<id>.log` (JSON Lines) and process record `<id>.proc.json`, and the manifest. Synchronous
 * reads serve the `sc://children/<id>/logs` resource (resource reads are synchronous).
 */

export function childDirOf(childrenDir: string, childId: string): string {
  return path.join(childrenDir, childId);
}

export function childLogPathOf(childrenDir: string, childId: string): string {
  return path.join(childDirOf(childrenDir, childId), `${childId}.log`);
}

/** The manifest file, a convenience copy of what the store holds. */
export async function writeManifestFile(row: ChildRow): Promise<void> {
  const manifest = { ...manifestOf(row), log_path: row.log_path, log_uri: scUri.childLogs(row.child_id) };
  try {
    await fs.promises.mkdir(path.dirname(row.manifest_path), { recursive: true, mode: 0o700 });
    await fs.promises.writeFile(row.manifest_path, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  } catch {
    // The store holds the truth; a manifest that cannot be written changes nothing for the tools.
  }
}

/** The last `limit` entries of a log. */
export function tailChildLogSync(logFile: string, limit: number): LogEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(logFile, 'utf8');
  } catch (ex) {
    if ((ex as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ex;
  }
  const entries: LogEntry[] = [];
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const value = JSON.parse(line) as LogEntry;
      if (typeof value.seq === 'number' && typeof value.message === 'string') entries.push(value);
    } catch {
      // a torn or foreign line
    }
  }
  return entries.slice(-limit);
}

/** The `sc://children/<id>/logs` payload: the last `limit` entries, with the ids the process record labels. */
export function readLogResourceSync(
  childrenDir: string,
  childId: string,
  limit: number,
): { childId: string; logs: ChildLogEntry[] } {
  const dir = childDirOf(childrenDir, childId);
  let labels: Record<string, string> = {};
  try {
    labels =
      (
        JSON.parse(fs.readFileSync(path.join(dir, `${childId}.proc.json`), 'utf8')) as {
          labels?: Record<string, string>;
        }
      ).labels ?? {};
  } catch {
    if (!fs.existsSync(dir))
      throw childError('E-CHILD-NOT-FOUND', `No child ${childId} has run on this machine.`, { child_id: childId });
  }
  const corr = {
    child_id: childId,
    run_id: labels.run_id ?? null,
    op_id: labels.op_id ?? null,
    job_id: labels.job_id ?? null,
    graph_id: labels.graph_id ?? null,
    node_id: labels.node_id ?? null,
  };
  return {
    childId,
    logs: tailChildLogSync(childLogPathOf(childrenDir, childId), limit).map((e) => toChildLogEntry(e, corr)),
  };
}

/** Ids of the children whose files are on this machine, most recently changed first. */
export function listChildDirsSync(childrenDir: string, limit: number): string[] {
  try {
    return fs
      .readdirSync(childrenDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => ({ id: d.name, at: fs.statSync(path.join(childrenDir, d.name)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(0, limit)
      .map((d) => d.id);
  } catch {
    return [];
  }
}
