import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../../errors';
import { confinedPath } from '../../files/confinedPath';
import type { FlowTemplate } from '../engine/flowTemplate';
import { parseFlow } from '../engine/flowParse';
import { ledgerFolder } from '../../ledgerFiles';

/**
 * The flow template and agent instruction files a pipeline uses: the defaults shipped in
 * `resources/pipeline/`, each overridable per repository in `.agent-ledger/pipeline/`
 * (`flow.yaml`, `agents/<name>.md`). Files are re-read only when they change.
 */
export const OVERRIDE_DIR = path.join(ledgerFolder, 'pipeline');

interface Cached<T> {
  key: string;
  value: T;
}

export class PipelineResources {
  private readonly cache = new Map<string, Cached<unknown>>();

  constructor(
    private readonly root: string,
    /** The shipped defaults: a folder holding flow.yaml and agents/. */
    readonly defaultsDir: string,
  ) {}

  /** The repository's flow.yaml when it has one, else the default. */
  flow(): FlowTemplate {
    const override = path.join(this.root, OVERRIDE_DIR, 'flow.yaml');
    const file = this.exists(override) ? override : path.join(this.defaultsDir, 'flow.yaml');
    return this.cached(file, (text) =>
      parseFlow(
        text,
        path.relative(this.root, file).startsWith('..')
          ? 'default flow (resources/pipeline/flow.yaml)'
          : path.relative(this.root, file),
      ),
    );
  }

  /** Layer 1 of a prompt: `agents/<name>.md`, the repository's own first. */
  agentInstructions(name: string): string {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      throw new LedgerError('ConfigError', `agent name "${name}" is not a plain name`);
    const override = path.join(this.root, OVERRIDE_DIR, 'agents', `${name}.md`);
    if (this.exists(override)) return this.cached(override, (text) => text);
    const shipped = path.join(this.defaultsDir, 'agents', `${name}.md`);
    if (fs.existsSync(shipped)) return this.cached(shipped, (text) => text);
    throw new LedgerError(
      'ConfigError',
      `no instructions for agent "${name}": add ${path.join(OVERRIDE_DIR, 'agents', `${name}.md`)}`,
      { agent: name },
    );
  }

  /** Whether a repository override exists; one linked outside the workspace is refused (ConfigError naming the link). */
  private exists(override: string): boolean {
    return fs.existsSync(confinedPath(this.root, override));
  }

  private cached<T>(file: string, parse: (text: string) => T): T {
    let key: string;
    try {
      const stat = fs.statSync(file);
      key = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      throw new LedgerError('ConfigError', `cannot read ${file}; reinstall Agent Ledger or remove the override`, {
        file,
      });
    }
    const hit = this.cache.get(file);
    if (hit && hit.key === key) return hit.value as T;
    const value = parse(fs.readFileSync(file, 'utf8'));
    this.cache.set(file, { key, value });
    return value;
  }
}

/** Where the shipped defaults are: beside the bundle (dist/resources) or, from sources, the repository's resources/. */
export function findDefaultsDir(startDir: string): string {
  const candidates = [
    path.join(startDir, 'resources', 'pipeline'),
    path.join(startDir, '..', 'resources', 'pipeline'),
    path.join(startDir, '..', '..', 'resources', 'pipeline'),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'flow.yaml'))) ?? candidates[0];
}
