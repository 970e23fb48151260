/**
 * What `git status --porcelain=v2 -z --branch --untracked-files=all` says about the private
 * index a snapshot starts from (workingTree.ts): HEAD, the paths whose working file must be
 * read, and each difference with the modes and ids git already knows (changedTree.ts builds
 * the snapshot's tree from them).
 *
 * Paths are kept as "byte strings" (the output decoded as latin1: one character per byte), so
 * a file name that is not UTF-8 travels to git and to the file system unchanged, and sorting
 * them sorts bytes, as git sorts tree entries.
 */
import { splitNul } from '../parsers';

/** A difference between HEAD, the private index and the work tree at one path. */
export type StatusEntry =
  | {
      kind: 'tracked';
      /** Index vs HEAD (`.` unchanged, `M`, `T`, `A`, `D`). */
      x: string;
      /** Work tree vs index (`.`, `M`, `T`, `A` for an intent-to-add entry, `D`). */
      y: string;
      /** Octal modes as git prints them (`100644`, `100755`, `120000`, `160000`, `000000`). */
      modeIndex: string;
      modeWorktree: string;
      /** The index's object id. */
      idIndex: string;
      path: string;
    }
  | { kind: 'untracked'; path: string }
  /** What a tree built here does not handle (a conflict, a rename, a nested repository): the index route does. */
  | { kind: 'other'; path: string };

export interface StatusReport {
  head: string | null;
  /** Paths whose working file differs from the index, unmerged, or untracked. */
  toAdd: string[];
  /** Any difference at all, also index vs HEAD. */
  changed: boolean;
  entries: StatusEntry[];
}

/** Parses the status output (decoded as latin1); throws on anything it does not know. */
export function parseStatus(output: string): StatusReport {
  const records = splitNul(output);
  const report: StatusReport = { head: null, toAdd: [], changed: false, entries: [] };
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length);
      report.head = oid === '(initial)' ? null : oid;
      continue;
    }
    if (record.startsWith('# ')) continue;
    const kind = record[0];
    if (kind === '1' || kind === '2') {
      report.changed = true;
      const worktreeChanged = record[3] !== '.';
      const file = afterFields(record, kind === '1' ? 8 : 9);
      if (kind === '2') {
        i++; // the original path follows a rename
        report.entries.push({ kind: 'other', path: file });
      } else {
        // 1 XY sub mH mI mW hH hI path
        const [, xy, , , modeIndex, modeWorktree, , idIndex] = record.split(' ', 8);
        report.entries.push({ kind: 'tracked', x: xy[0], y: xy[1], modeIndex, modeWorktree, idIndex, path: file });
      }
      if (worktreeChanged) report.toAdd.push(file);
    } else if (kind === 'u') {
      report.changed = true;
      const file = afterFields(record, 10);
      report.toAdd.push(file);
      report.entries.push({ kind: 'other', path: file });
    } else if (kind === '?') {
      report.changed = true;
      const listed = nonEmpty(record.slice(2), record);
      // A folder is reported whole only when it is a repository of its own (add records it as a gitlink).
      const file = listed.replace(/\/$/, '');
      report.toAdd.push(nonEmpty(file, record));
      report.entries.push(listed.endsWith('/') ? { kind: 'other', path: file } : { kind: 'untracked', path: file });
    } else if (kind !== '!') {
      throw new Error(`unexpected git status record: ${record.slice(0, 40)}`);
    }
  }
  return report;
}

/** The rest of `record` after `count` space-separated fields (a path may contain spaces). */
function afterFields(record: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) {
    at = record.indexOf(' ', at) + 1;
    if (at === 0) throw new Error(`short git status record: ${record.slice(0, 40)}`);
  }
  return nonEmpty(record.slice(at), record);
}

/** An index git read wrongly can list an entry without a name: never a path to pass on. */
function nonEmpty(file: string, record: string): string {
  if (file === '') throw new Error(`git status record without a path: ${record.slice(0, 40)}`);
  return file;
}
