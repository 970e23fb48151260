import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurable } from '../files/durableWrite';
import { readFileConfined } from '../files/confinedPath';
import { writeNewFile } from '../files/writeNewFile';
import { agentsFolder } from '../ledgerFiles';
import type { AgentDefinition, AgentProblem } from './agentModel';
import { agentYaml, defaultAgents } from './agentFiles';
import { readWrittenRecord, recordWritten, sha256, writtenRecordKey } from './writtenRecord';

/**
 * The built-in agents (coder, reviewer) beside a person's own files. The ledger keeps a record of
 * the agent files it wrote itself, with the hash of what it wrote (`.agent-ledger/agents/.written/`,
 * see writtenRecord.ts), which tells three cases apart that the folder alone cannot:
 * - a built-in the ledger wrote and the person deleted: recorded, no file — stays deleted;
 * - a built-in the person edited: recorded, the file's hash differs — theirs, never rewritten
 *   (an unedited one follows the ledger's new version of it);
 * - a folder the person started with their own file: the built-ins were never written — they
 *   are written beside it (never over a file of that name), so `coder` stays available.
 */

/** The text the ledger writes for a built-in agent. */
export function builtInText(agent: (typeof defaultAgents)[number]): string {
  return agentYaml({ ...agent, file: '' }, Infinity);
}

const fileOf = (agent: (typeof defaultAgents)[number]): string => `${agent.name}.yaml`;
const builtInFiles = defaultAgents.map(fileOf);

/** The built-ins' files and the record, in a folder about to be renamed into place (first use). */
export function writeBuiltIns(workspace: string, staging: string): void {
  for (const agent of defaultAgents) {
    const text = builtInText(agent);
    writeNewFile(path.join(staging, fileOf(agent)), text);
    recordWritten(workspace, staging, fileOf(agent), text);
  }
}

/** What reconcileBuiltIns did: files it wrote (list again), built-ins a read-only process shows without writing, a damaged record. */
export interface BuiltInsOutcome {
  wrote: boolean;
  unwritten: AgentDefinition[];
  problems: AgentProblem[];
}

/**
 * Brings the folder in line with the record (see above). `names`: the agent-file names listed in
 * the folder; `taken`: the agent names the person's files define or try to (broken or linked-out
 * files included). Costs a few `stat`s when nothing is to do. Writes only the record's entries it
 * decides, so processes reconciling at the same moment never undo each other's.
 */
export function reconcileBuiltIns(
  workspace: string,
  folder: string,
  names: readonly string[],
  taken: ReadonlySet<string>,
  readonly: boolean,
): BuiltInsOutcome {
  const rel = (name: string) => `${agentsFolder}/${name}`;
  const present = new Set(names);
  const read = (name: string): string | undefined => {
    if (!present.has(name)) return undefined;
    try {
      return readFileConfined(workspace, path.join(folder, name));
    } catch {
      return undefined;
    }
  };
  const record = readWrittenRecord(workspace, folder, builtInFiles);
  // Damaged: kept as it is for a person to look at, and nothing is written on its word.
  if (record.kind === 'damaged') return { wrote: false, unwritten: [], problems: [record.problem] };
  const note = (name: string, text: string): void => {
    if (!readonly) recordWritten(workspace, folder, name, text);
  };
  const hashes = record.kind === 'present' ? record.hashes : new Map<string, string>();
  const outcome: BuiltInsOutcome = {
    wrote: false,
    unwritten: [],
    problems: record.kind === 'present' ? [...record.problems.values()] : [],
  };
  if (record.kind === 'absent' && defaultAgents.some((a) => read(fileOf(a)) === builtInText(a))) {
    // A folder from before the record: a built-in file exactly as the ledger writes it says the
    // ledger wrote the built-ins there — a missing one was deleted by the person.
    for (const a of defaultAgents) {
      hashes.set(fileOf(a), sha256(builtInText(a)));
      note(fileOf(a), builtInText(a));
    }
  }
  for (const agent of defaultAgents) {
    const name = fileOf(agent);
    const text = builtInText(agent);
    // A damaged entry: its file is left as it is, whatever it holds.
    if (record.kind === 'present' && record.problems.has(name)) continue;
    const written = hashes.get(name);
    if (written) {
      const now = read(name);
      // Deleted (no file) or edited (another hash): the person's decision. Unedited and outdated: the new version.
      if (now !== undefined && sha256(now) === written && written !== sha256(text) && !readonly) {
        writeFileDurable(path.join(folder, name), text);
        note(name, text);
        outcome.wrote = true;
      }
      continue;
    }
    if (taken.has(agent.name)) {
      // The person's own file of that name; one identical to the built-in is the built-in (a racing process wrote it).
      if (read(name) === text) note(name, text);
      continue;
    }
    if (readonly) {
      outcome.unwritten.push({ ...agent, file: rel(name) });
      continue;
    }
    if (writeNewFile(path.join(folder, name), text)) outcome.wrote = true;
    note(name, text);
  }
  return outcome;
}

/**
 * What reconcileBuiltIns reads, as stat keys (the record, the built-ins' files) and the names it
 * weighs: while it stays the same, its last outcome holds (a listing costs a few `stat`s).
 */
export function builtInsKey(folder: string, names: readonly string[], taken: ReadonlySet<string>): string {
  const stat = (name: string): string => {
    try {
      const st = fs.lstatSync(path.join(folder, name), { bigint: true });
      return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      return '-';
    }
  };
  return (
    [writtenRecordKey(folder, builtInFiles), ...builtInFiles.map(stat)].join('/') +
    `|${names.join('/')}|${[...taken].join('/')}`
  );
}
