/**
 * What a subfolder workspace sees of its repository (`mcp serve --workspace repo/pkg/app`, a
 * package of a monorepo): the files under its folder, named relative to it. Snapshots stay
 * commits of the whole repository (taking them touches nothing of the user's either way); the
 * scope applies where paths come in and go out — diffs, commits, file contents and rewinds.
 */
import type { FileChanges } from '../core/ports/workspaceTruth';

export class FolderScope {
  /** The folder relative to the repository's top level, without a trailing `/` ('' = all of it). */
  readonly path: string;

  /** @param prefix git's `--show-prefix`: '' at the top, else the folder with a trailing `/`. */
  constructor(prefix: string) {
    this.path = prefix.replace(/\/+$/, '');
  }

  get isWhole(): boolean {
    return this.path === '';
  }

  /**
   * Pathspec arguments limiting a command to the folder; run it with `GIT_LITERAL_PATHSPECS=1`
   * (see {@link literalEnv}) so a folder name with `*` or `:` is never read as a pattern.
   */
  pathspec(): string[] {
    return this.isWhole ? [] : [this.path];
  }

  /** Environment that makes {@link pathspec} literal. */
  literalEnv(): Record<string, string> {
    return this.isWhole ? {} : { GIT_LITERAL_PATHSPECS: '1' };
  }

  /** A workspace-relative path as the repository names it. */
  toRepo(workspacePath: string): string {
    return this.isWhole ? workspacePath : `${this.path}/${workspacePath}`;
  }

  /** A repository path relative to the workspace, or null when it lies outside. */
  fromRepo(repoPath: string): string | null {
    if (this.isWhole) return repoPath;
    return repoPath.startsWith(`${this.path}/`) ? repoPath.slice(this.path.length + 1) : null;
  }

  /**
   * The changes inside the folder, relative to it. A file moved across the boundary is, seen
   * from inside, a file that appeared (moved in) or went away (moved out).
   */
  narrow(changes: FileChanges): FileChanges {
    if (this.isWhole) return changes;
    const inside = (list: string[]) => list.map((p) => this.fromRepo(p)).filter((p): p is string => p !== null);
    const out: FileChanges = {
      added: inside(changes.added),
      modified: inside(changes.modified),
      deleted: inside(changes.deleted),
      renamed: [],
    };
    for (const { from, to } of changes.renamed) {
      const [f, t] = [this.fromRepo(from), this.fromRepo(to)];
      if (f !== null && t !== null) out.renamed.push({ from: f, to: t });
      else if (t !== null) out.added.push(t);
      else if (f !== null) out.deleted.push(f);
    }
    out.added.sort(byCodeUnits);
    out.deleted.sort(byCodeUnits);
    return out;
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
