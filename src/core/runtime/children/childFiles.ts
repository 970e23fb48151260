import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogEntry } from '../../ports/processes';
import { scUri } from '../../coordination/resources/scUris';
import { checkOwnFiles, openOwnFileSync, writeFileConfined } from '../../files/confinedPath';
import { childError } from './childErrors';
import { toChildLogEntry } from './childLogs';
import type { ChildLogEntry } from './childLogs';
import type { ChildRow } from './childStore';
import { manifestOf } from './childView';

/**
 * A child's files on the machine where it runs: `<childrenDir>/<id>/` holds the supervisor's log
 * `<id>.log` (JSON Lines) and process record `<id>.proc.json`, and the manifest. Synchronous
 * reads serve the `sc://children/<id>/logs` resource (resource reads are synchronous).
 *
 * The folder comes with the workspace, so a cloned repository can plant links in it: every file
 * here is checked (the folder's real path inside the workspace, no link at the name) before it is
 * written or read, and opened without following a link.
 */

export function childDirOf(childrenDir: string, childId: string): string {
  return path.join(childrenDir, childId);
}

export function childLogPathOf(childrenDir: string, childId: string): string {
  return path.join(childDirOf(childrenDir, childId), `${childId}.log`);
}

/** The files a child's folder holds: what is checked before it starts. */
export function childFileNames(childId: string, manifestName: string): string[] {
  return [`${childId}.log`, `${childId}.proc.json`, manifestName];
}

/** The manifest file, a convenience copy of what the store holds (renamed over its name: a link there is replaced). */
export function writeManifestFile(workspace: string, row: ChildRow): void {
  const manifest = { ...manifestOf(row), log_path: row.log_path, log_uri: scUri.childLogs(row.child_id) };
  try {
    writeFileConfined(workspace, row.manifest_path, `${JSON.stringify(manifest, null, 2)}\n`, 0o600);
  } catch {
    // The store holds the truth; a manifest that cannot be written changes nothing for the tools.
  }
}

/** The last `limit` entries of a log (never read through a link at its name). */
export function tailChildLogSync(workspace: string, logFile: string, limit: number): LogEntry[] {
  let text: string;
  try {
    const fd = openOwnFileSync(workspace, logFile, fs.constants.O_RDONLY);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
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
  workspace: string,
  childrenDir: string,
  childId: string,
  limit: number,
): { childId: string; logs: ChildLogEntry[] } {
  const dir = childDirOf(childrenDir, childId);
  if (!fs.existsSync(dir) && !isLink(dir))
    throw childError('E-CHILD-NOT-FOUND', `No child ${childId} has run on this machine.`, { child_id: childId });
  // A folder leading outside, or a link at the log's or the record's name, is refused (named).
  checkOwnFiles(workspace, dir, [`${childId}.log`, `${childId}.proc.json`]);
  let labels: Record<string, string> = {};
  try {
    const fd = openOwnFileSync(workspace, path.join(dir, `${childId}.proc.json`), fs.constants.O_RDONLY);
    try {
      labels = (JSON.parse(fs.readFileSync(fd, 'utf8')) as { labels?: Record<string, string> }).labels ?? {};
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // No record yet (or a torn one): the entries without their correlation ids.
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
    logs: tailChildLogSync(workspace, childLogPathOf(childrenDir, childId), limit).map((e) => toChildLogEntry(e, corr)),
  };
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
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
