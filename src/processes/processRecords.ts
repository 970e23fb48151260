/**
 * Records of started processes, one small JSON file next to each log (`<id>.proc.json`), written
 * at start and rewritten with the exit. They outlive the supervisor: a restarted runner lists
 * them, asks whether each unfinished one still runs (same pid *and* same start time), and can
 * stop one it finds still running instead of launching a second instance.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openOwnFile } from '../core/files/confinedPath';
import { checkLiveness } from '../core/runtime/liveness';
import type { Liveness, ProcessRecord } from '../core/ports/processes';
import { groupAlive, signalGroup } from './processGroup';
import { probeProcess } from './processIdentity';

const suffix = '.proc.json';

export function logFileOf(logDir: string, id: string): string {
  return path.join(logDir, `${id}.log`);
}

export function recordFileOf(logDir: string, id: string): string {
  return path.join(logDir, `${id}${suffix}`);
}

/**
 * Writes a record atomically (temp file + rename): a reader never sees half of one. The temp file
 * is created exclusively under a random name and renamed over the record's, so a link planted at
 * either name is replaced, never written through.
 */
export function writeRecord(logDir: string, record: ProcessRecord): void {
  const file = recordFileOf(logDir, record.id);
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** The record of `id` in `logDir`, or undefined when there is none (or it is unreadable). */
export async function readRecord(logDir: string, id: string): Promise<ProcessRecord | undefined> {
  try {
    // Never through a link planted at the record's name: it is no record of ours.
    const handle = await openOwnFile(logDir, recordFileOf(logDir, id), fs.constants.O_RDONLY);
    let text: string;
    try {
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    const value = JSON.parse(text) as ProcessRecord;
    return typeof value.pid === 'number' && typeof value.id === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Every record of `logDir`, oldest start first. */
export async function listRecords(logDir: string): Promise<ProcessRecord[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(logDir);
  } catch {
    return [];
  }
  const records = await Promise.all(
    names.filter((n) => n.endsWith(suffix)).map((n) => readRecord(logDir, n.slice(0, -suffix.length))),
  );
  return records
    .filter((r): r is ProcessRecord => r !== undefined)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Whether the process a record names is still that process. A record with an exit is 'gone'. */
export async function checkRecord(record: ProcessRecord): Promise<Liveness> {
  if (record.exit) return 'gone';
  return checkLiveness(record, await probeProcess(record.pid));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the process group of a record left by another supervisor, only after proving the pid
 * is still the recorded process (a reused pid belongs to someone else and is never signalled).
 */
export async function stopRecorded(record: ProcessRecord, graceMs = 2000): Promise<Liveness> {
  const liveness = await checkRecord(record);
  if (liveness !== 'running') return liveness;
  signalGroup(record.pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(record.pgid)) await sleep(25);
  if (groupAlive(record.pgid)) signalGroup(record.pgid, 'SIGKILL');
  return liveness;
}
