/**
 * Pure parsers of git output. Every command is run with `-z` (or a NUL format), so paths arrive
 * raw — no `core.quotePath` quoting to undo — and may hold spaces, quotes, tabs or non-ASCII.
 */
import type { CommitInfo, FileChanges } from '../core/ports/workspaceTruth';

/** Sorts by UTF-16 code units: stable across platforms and locales. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Splits NUL-terminated (or NUL-separated) output into its fields. */
export function splitNul(output: string): string[] {
  const fields = output.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}

/**
 * Parses `git diff-tree -r -z --name-status --find-renames` output:
 * `M\0path\0`, `R087\0old\0new\0`, `C100\0src\0copy\0`, …
 * Type changes (T) count as modified, copies (C) as added, unmerged (U) as modified.
 */
export function parseNameStatus(output: string): FileChanges {
  const changes: FileChanges = { added: [], modified: [], deleted: [], renamed: [] };
  const fields = splitNul(output);
  for (let i = 0; i < fields.length;) {
    const status = fields[i++].charAt(0);
    if (status === 'R' || status === 'C') {
      const from = fields[i++];
      const to = fields[i++];
      if (status === 'R') changes.renamed.push({ from, to });
      else changes.added.push(to);
      continue;
    }
    const file = fields[i++];
    if (status === 'A') changes.added.push(file);
    else if (status === 'D') changes.deleted.push(file);
    else changes.modified.push(file);
  }
  return sortChanges(changes);
}

/** One record of `git diff-tree -r -z --raw`: modes and object ids on both sides. */
export interface RawChange {
  /** A, M, D, T, R, C, U (the similarity score dropped). */
  status: string;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  /** The source of a rename or copy. */
  from?: string;
  path: string;
}

/** The mode of a gitlink: a submodule's commit recorded in its superproject's tree. */
export const gitlinkMode = '160000';

/**
 * Parses `git diff-tree -r -z --raw --find-renames`:
 * `:100644 100644 <sha> <sha> M\0path\0`, `:100644 100644 <sha> <sha> R100\0old\0new\0`.
 */
export function parseRawDiff(output: string): RawChange[] {
  const fields = splitNul(output);
  const changes: RawChange[] = [];
  for (let i = 0; i < fields.length;) {
    const [oldMode, newMode, oldSha, newSha, score] = fields[i++].replace(/^:/, '').split(' ');
    const status = score.charAt(0);
    if (status === 'R' || status === 'C') {
      const from = fields[i++];
      changes.push({ status, oldMode, newMode, oldSha, newSha, from, path: fields[i++] });
    } else {
      changes.push({ status, oldMode, newMode, oldSha, newSha, path: fields[i++] });
    }
  }
  return changes;
}

/**
 * Raw changes as added/modified/deleted/renamed, sorted: type changes (T) and unmerged (U)
 * count as modified, copies (C) as added — the classification of {@link parseNameStatus}.
 */
export function rawToFileChanges(changes: readonly RawChange[]): FileChanges {
  const out: FileChanges = { added: [], modified: [], deleted: [], renamed: [] };
  for (const c of changes) {
    if (c.status === 'R') out.renamed.push({ from: c.from!, to: c.path });
    else if (c.status === 'A' || c.status === 'C') out.added.push(c.path);
    else if (c.status === 'D') out.deleted.push(c.path);
    else out.modified.push(c.path);
  }
  return sortChanges(out);
}

/** Sorts every list of `changes` in place (UTF-16 code units) and returns it. */
export function sortChanges(changes: FileChanges): FileChanges {
  changes.added.sort(byCodeUnits);
  changes.modified.sort(byCodeUnits);
  changes.deleted.sort(byCodeUnits);
  changes.renamed.sort((a, b) => byCodeUnits(a.from, b.from) || byCodeUnits(a.to, b.to));
  return changes;
}

/** The `--format` that {@link parseLog} reads; with `-z` commits are NUL-separated too. */
export const logFormat = '--format=%H%x00%s%x00%an%x00%aI';

/** Parses `git log -z --format=%H%x00%s%x00%an%x00%aI` (four fields a commit). */
export function parseLog(output: string): CommitInfo[] {
  const fields = splitNul(output);
  const commits: CommitInfo[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    commits.push({ sha: fields[i], subject: fields[i + 1], author: fields[i + 2], date: fields[i + 3] });
  }
  return commits;
}

export interface TreeEntry {
  /** Octal mode as git prints it: 100644, 100755, 120000 (symlink), 160000 (submodule), 040000. */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  path: string;
}

/** Parses `git ls-tree -z`: `<mode> SP <type> SP <sha> TAB <path> NUL`. */
export function parseLsTree(output: string): TreeEntry[] {
  return splitNul(output).map((record) => {
    const tab = record.indexOf('\t');
    const [mode, type, sha] = record.slice(0, tab).split(' ');
    return { mode, type: type as TreeEntry['type'], sha, path: record.slice(tab + 1) };
  });
}

/** One object of `git cat-file --batch` output; `content` is null when git said `missing`. */
export interface BatchObject {
  name: string;
  type: string | null;
  content: Buffer | null;
}

/**
 * Parses `git cat-file --batch`: for each request `<sha> SP <type> SP <size> LF <content> LF`,
 * or `<name> SP missing LF`. Binary safe: contents are sliced from the Buffer by size.
 */
export function parseCatFileBatch(output: Buffer): BatchObject[] {
  const objects: BatchObject[] = [];
  let at = 0;
  while (at < output.length) {
    const eol = output.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = output.toString('utf8', at, eol);
    at = eol + 1;
    const missing = / (missing|ambiguous)$/.exec(header);
    if (missing) {
      objects.push({ name: header.slice(0, missing.index), type: null, content: null });
      continue;
    }
    const [name, type, size] = header.split(' ');
    const length = Number(size);
    objects.push({ name, type, content: output.subarray(at, at + length) });
    at += length + 1;
  }
  return objects;
}
