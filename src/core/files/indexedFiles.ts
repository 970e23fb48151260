import * as path from 'node:path';
import type { LedgerEngine } from '../ports/store';
import type { Clock } from '../time';
import { StatCache } from './statCache';

/**
 * The skeleton of a collection whose files are the truth and whose table is an index of them
 * (agent definitions, Memory Bank entries): a folder of the workspace, its files parsed again
 * only when they change on disk, and the index kept by writable processes.
 */
export abstract class IndexedFiles<T> {
  /** Parsed files by path, read again when their size or time changes. */
  protected readonly cache: StatCache<T>;

  constructor(
    protected readonly db: LedgerEngine,
    protected readonly workspace: string,
    protected readonly clock: Clock,
    protected readonly options: { readonly: boolean },
    /** The folder relative to the workspace, with `/`. */
    private readonly relativeFolder: string,
    /** Parses a file's text; `rel` is its path relative to the workspace, with `/`. */
    parse: (text: string, rel: string) => T,
  ) {
    this.cache = new StatCache<T>((text, file) => parse(text, this.relative(file)));
  }

  get folder(): string {
    return path.join(this.workspace, ...this.relativeFolder.split('/'));
  }

  /** A path of the workspace as the index and messages name it: relative, with `/`. */
  protected relative(file: string): string {
    return path.relative(this.workspace, file).split(path.sep).join('/');
  }
}
