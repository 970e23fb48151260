import type { CatalogTool } from './toolDefinition';
import { defaultIdempotencySettings } from '../core/coordination/idempotency/idempotency';
import type { IdempotencySettings } from '../core/coordination/idempotency/idempotency';

/**
 * Feature switches finer than families (the orchestrator's toggles: `--enable-resources`,
 * `--enable-events-bus`, `--enable-idempotency`, `--enable-locks`, `--enable-diff-patch`…).
 * A family switched on brings every feature of it; a feature switched on alone exposes just its
 * tools; `--disable-<feature>` hides them again. A tool listed by features is exposed when every
 * feature listing it is on (bb_batch_set needs blackboard and bulk); any other tool follows its
 * family. `idempotency` exposes no tool: it decides whether `idempotency_key` is remembered (by the
 * orchestrator's tools and by task_create, start_workflow, start_task and worker_command), and is
 * always on unless `--disable-idempotency` says otherwise.
 */
export interface Feature {
  /** The switch: `--enable-<name>` / `--disable-<name>`. */
  name: string;
  /** Its name in `mcp_info.features`. */
  toggle: string;
  family: string;
  description: string;
  tools: readonly string[];
}

export const features: readonly Feature[] = [
  {
    name: 'resources',
    toggle: 'enableResources',
    family: 'orchestrator',
    description:
      'the sc:// registry: resources_list, resources_read, resources_watch over plan graphs and their versions, runs, child logs, blackboard namespaces',
    tools: ['resources_list', 'resources_read', 'resources_watch'],
  },
  {
    name: 'events-bus',
    toggle: 'enableEventsBus',
    family: 'orchestrator',
    description: 'events_subscribe: the events log filtered by kind, level and correlation ids, with waits',
    tools: ['events_subscribe'],
  },
  {
    name: 'blackboard',
    toggle: 'enableBlackboard',
    family: 'orchestrator',
    description: 'the shared blackboard: bb_set, bb_batch_set, bb_get, bb_query, bb_delete, bb_watch',
    tools: ['bb_set', 'bb_batch_set', 'bb_get', 'bb_query', 'bb_delete', 'bb_watch'],
  },
  {
    name: 'bulk',
    toggle: 'enableBulk',
    family: 'orchestrator',
    description: 'atomic batches: graph_batch_mutate, bb_batch_set',
    tools: ['graph_batch_mutate', 'bb_batch_set'],
  },
  {
    name: 'diff-patch',
    toggle: 'enableDiffPatch',
    family: 'orchestrator',
    description: 'graph_diff and graph_patch (RFC 6902 patches between plan-graph versions)',
    tools: ['graph_diff', 'graph_patch'],
  },
  {
    name: 'locks',
    toggle: 'enableLocks',
    family: 'orchestrator',
    description: 'graph_lock and graph_unlock: a holder with a lifetime protects a plan graph from other writers',
    tools: ['graph_lock', 'graph_unlock'],
  },
  {
    name: 'idempotency',
    toggle: 'enableIdempotency',
    family: 'orchestrator',
    description:
      'idempotency_key is remembered: a retried call returns the first answer without doing the change twice',
    tools: [],
  },
];

export const featureNames: readonly string[] = features.map((f) => f.name);

/** Applies `--enable-x` / `--disable-x` feature switches on top of the families switched on. */
export function resolveFeatures(
  families: ReadonlySet<string>,
  enable: readonly string[] = [],
  disable: readonly string[] = [],
): Set<string> {
  const unknown = [...enable, ...disable].filter((f) => !featureNames.includes(f));
  if (unknown.length)
    throw new Error(
      `unknown feature${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${featureNames.join(', ')}`,
    );
  const on = new Set(features.filter((f) => families.has(f.family)).map((f) => f.name));
  for (const f of enable) on.add(f);
  // Retries must never double a change: keys are remembered unless switched off.
  on.add('idempotency');
  for (const f of disable) on.delete(f);
  return on;
}

/** Whether a tool is exposed under these families and features. */
export function isToolExposed(
  tool: Pick<CatalogTool, 'name' | 'family'>,
  families: ReadonlySet<string>,
  on: ReadonlySet<string>,
): boolean {
  const listing = features.filter((f) => f.tools.includes(tool.name));
  if (listing.length === 0) return families.has(tool.family);
  return listing.every((f) => on.has(f.name));
}

/** The families with at least one tool exposed. */
export function familiesExposed<F extends { name: string; tools: readonly { name: string }[] }>(
  all: readonly F[],
  families: ReadonlySet<string>,
  on: ReadonlySet<string>,
): F[] {
  return all.filter(
    (f) => families.has(f.name) || f.tools.some((t) => isToolExposed({ name: t.name, family: f.name }, families, on)),
  );
}

/** How `idempotency_key` behaves under these features (every feature on when none were given: the CLI). */
export function idempotencySettings(on: ReadonlySet<string> | undefined): IdempotencySettings {
  return { ...defaultIdempotencySettings, enabled: on === undefined || on.has('idempotency') };
}
