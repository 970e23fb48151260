import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFileConfined, writeFileConfined } from '../files/confinedPath';
import { agentsFolder } from '../ledgerFiles';
import type { AgentProblem } from './agentModel';

/**
 * The record of the agent files the ledger wrote itself: one file per agent file,
 * `.agent-ledger/agents/.written/<file>.sha256`, holding the SHA-256 of what the ledger wrote in
 * `sha256sum`'s format (so `sha256sum -c` run in the agents folder says whether a file is still
 * as the ledger wrote it). Beside the files, it travels with them in Git.
 *
 * One file per entry because the editor, a runner, `mcp serve` and the CLI all open a workspace at
 * once: each process writes only the entries it decided, each replaced whole (temp file, fsync,
 * rename), so no process can drop another's entry and no reader sees half an entry — with no lock
 * to wait for or to find abandoned after a `kill -9`.
 */
export const writtenRecordFolder = '.written';

/** What the record says of some agent files. */
export type WrittenRecord =
  /** No record folder: the agents folder is from before the record (or was never written by the ledger). */
  | { kind: 'absent' }
  /** The record folder itself cannot be used (a file, a link, unreadable): nothing is decided on its word. */
  | { kind: 'damaged'; problem: AgentProblem }
  | {
      kind: 'present';
      /** By agent file name: the SHA-256 of the content the ledger wrote. */
      hashes: Map<string, string>;
      /** Entries that cannot be read or parsed: kept as they are, said, and their file left alone. */
      problems: Map<string, AgentProblem>;
    };

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const entryName = (file: string): string => `${file}.sha256`;
const entryText = (file: string, hash: string): string => `${hash}  ${file}\n`;
const relative = (...parts: string[]): string => [agentsFolder, writtenRecordFolder, ...parts].join('/');

/** The record's entries for `files` (agent file names) in the agents folder `folder`. */
export function readWrittenRecord(workspace: string, folder: string, files: readonly string[]): WrittenRecord {
  const dir = path.join(folder, writtenRecordFolder);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return { kind: 'absent' };
  }
  if (!stat.isDirectory())
    return {
      kind: 'damaged',
      problem: {
        file: relative(),
        message: `the record of the agent files the ledger wrote must be a folder of <file>.sha256 entries (found a ${stat.isSymbolicLink() ? 'link' : 'file'}); move it away to have the built-in agents written again where no file defines them`,
      },
    };
  const hashes = new Map<string, string>();
  const problems = new Map<string, AgentProblem>();
  for (const file of files) {
    const entry = path.join(dir, entryName(file));
    if (!exists(entry)) continue;
    let text: string | undefined;
    try {
      text = readFileConfined(workspace, entry);
    } catch {
      // Unreadable, or a link out of the workspace.
    }
    const hash = text === undefined ? undefined : parseEntry(text, file);
    if (hash) hashes.set(file, hash);
    else
      problems.set(file, {
        file: relative(entryName(file)),
        message: `the record of what the ledger wrote to ${file} cannot be read (expected "<sha-256>  ${file}"); ${file} is left alone until it is deleted`,
      });
  }
  return { kind: 'present', hashes, problems };
}

/** Records that the ledger wrote `text` to `file` of the agents folder `folder` (one entry, replaced whole). */
export function recordWritten(workspace: string, folder: string, file: string, text: string): void {
  writeFileConfined(workspace, path.join(folder, writtenRecordFolder, entryName(file)), entryText(file, sha256(text)));
}

/** What readWrittenRecord reads for `files`, as stat keys: the same key, the same record. */
export function writtenRecordKey(folder: string, files: readonly string[]): string {
  const dir = path.join(folder, writtenRecordFolder);
  return [dir, ...files.map((f) => path.join(dir, entryName(f)))].map(statKey).join('/');
}

function parseEntry(text: string, file: string): string | undefined {
  const match = /^([0-9a-f]{64}) [ *](.+)\n?$/.exec(text);
  return match && match[2] === file ? match[1] : undefined;
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function statKey(file: string): string {
  try {
    const st = fs.lstatSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return '-';
  }
}
