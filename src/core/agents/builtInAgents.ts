import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurable } from '../files/durableWrite';
import { readFileConfined } from '../files/confinedPath';
import { writeNewFile } from '../files/writeNewFile';
import { agentsFolder } from '../ledgerFiles';
import type { AgentDefinition, AgentProblem } from './agentModel';
import { agentYaml, defaultAgents } from './agentFiles';

/**
 * The built-in agents (coder, reviewer) beside a person's own files. The ledger keeps a record of
 * the agent files it wrote itself, with the hash of what it wrote (`.agent-ledger/agents/.written.json`,
 * beside the files, so it travels with them in Git), which tells three cases apart that the folder
 * alone cannot:
 * - a built-in the ledger wrote and the person deleted: recorded, no file — stays deleted;
 * - a built-in the person edited: recorded, the file's hash differs — theirs, never rewritten
 *   (an unedited one follows the ledger's new version of it);
 * - a folder the person started with their own file: the built-ins were never written — they
 *   are written beside it (never over a file of that name), so `coder` stays available.
 */
export const writtenRecordFile = '.written.json';

interface WrittenRecord {
  version: 1;
  /** By file name in the agents folder: the SHA-256 of the content the ledger wrote. */
  files: Record<string, { sha256: string }>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The text the ledger writes for a built-in agent. */
export function builtInText(agent: (typeof defaultAgents)[number]): string {
  return agentYaml({ ...agent, file: '' }, Infinity);
}

const fileOf = (agent: (typeof defaultAgents)[number]): string => `${agent.name}.yaml`;

/** The built-ins' files and the record, in a folder about to be renamed into place (first use). */
export function writeBuiltIns(staging: string): void {
  const record: WrittenRecord = { version: 1, files: {} };
  for (const agent of defaultAgents) {
    const text = builtInText(agent);
    writeNewFile(path.join(staging, fileOf(agent)), text);
    record.files[fileOf(agent)] = { sha256: sha256(text) };
  }
  writeFileDurable(path.join(staging, writtenRecordFile), `${JSON.stringify(record, null, 2)}\n`);
}

/** What reconcileBuiltIns did: files it wrote (list again), built-ins a read-only process shows without writing, a damaged record. */
export interface BuiltInsOutcome {
  wrote: boolean;
  unwritten: AgentDefinition[];
  problem?: AgentProblem;
}

/**
 * Brings the folder in line with the record (see above). `names`: the agent-file names listed in
 * the folder; `taken`: the agent names the person's files define or try to (broken or linked-out
 * files included). Costs a few `stat`s when nothing is to do.
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
  let record = readRecord(workspace, folder);
  // Damaged: kept as it is for a person to look at, and nothing is written on its word.
  if (record === 'damaged')
    return {
      wrote: false,
      unwritten: [],
      problem: {
        file: rel(writtenRecordFile),
        message: `the record of the agent files the ledger wrote cannot be read; delete it to have the built-in agents written again where no file defines them`,
      },
    };
  let changed = false;
  if (!record) {
    // A folder from before the record: a built-in file exactly as the ledger writes it says the
    // ledger wrote the built-ins there — a missing one was deleted by the person.
    const earlier = defaultAgents.some((a) => read(fileOf(a)) === builtInText(a));
    record = { version: 1, files: {} };
    if (earlier) for (const a of defaultAgents) record.files[fileOf(a)] = { sha256: sha256(builtInText(a)) };
    changed = true;
  }
  const outcome: BuiltInsOutcome = { wrote: false, unwritten: [] };
  for (const agent of defaultAgents) {
    const name = fileOf(agent);
    const text = builtInText(agent);
    const written = record.files[name];
    if (written) {
      const now = read(name);
      // Deleted (no file) or edited (another hash): the person's decision. Unedited and outdated: the new version.
      if (now !== undefined && sha256(now) === written.sha256 && written.sha256 !== sha256(text) && !readonly) {
        writeFileDurable(path.join(folder, name), text);
        record.files[name] = { sha256: sha256(text) };
        changed = outcome.wrote = true;
      }
      continue;
    }
    if (taken.has(agent.name)) {
      // The person's own file of that name; one identical to the built-in is the built-in (a racing process wrote it).
      if (read(name) === text) {
        record.files[name] = { sha256: sha256(text) };
        changed = true;
      }
      continue;
    }
    if (readonly) {
      outcome.unwritten.push({ ...agent, file: rel(name) });
      continue;
    }
    if (writeNewFile(path.join(folder, name), text)) outcome.wrote = true;
    record.files[name] = { sha256: sha256(text) };
    changed = true;
  }
  if (changed && !readonly) writeRecord(folder, record);
  return outcome;
}

/**
 * What reconcileBuiltIns reads, as stat keys (the record, the built-ins' files) and the names it
 * weighs: while it stays the same, its last outcome holds (a listing costs three `stat`s).
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
    [writtenRecordFile, ...defaultAgents.map(fileOf)].map(stat).join('/') +
    `|${names.join('/')}|${[...taken].join('/')}`
  );
}

function readRecord(workspace: string, folder: string): WrittenRecord | 'damaged' | undefined {
  const file = path.join(folder, writtenRecordFile);
  if (!fs.existsSync(file) && !isLink(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileConfined(workspace, file)) as Partial<WrittenRecord>;
    const files = parsed.files;
    if (
      parsed.version === 1 &&
      files &&
      typeof files === 'object' &&
      Object.values(files).every((f) => typeof f?.sha256 === 'string')
    )
      return parsed as WrittenRecord;
  } catch {
    // Unreadable, not JSON, or a link out of the workspace.
  }
  return 'damaged';
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function writeRecord(folder: string, record: WrittenRecord): void {
  writeFileDurable(path.join(folder, writtenRecordFile), `${JSON.stringify(record, null, 2)}\n`);
}
