import type { CatalogTool, FeatureInfo } from './toolDefinition';
import { familyInfos } from './families';

/**
 * Feature switches finer than families (the orchestrator's toggles: `--enable-resources`,
 * `--enable-events-bus`, `--enable-idempotency`, `--enable-locks`, `--enable-diff-patch`…), declared
 * by their family (its family.ts) and named by the tools they expose (`feature:` on the tool).
 * A family switched on brings every feature of it; a feature switched on alone exposes just its
 * tools; `--disable-<feature>` hides them again. A tool naming features is exposed when every one
 * of them is on (bb_batch_set needs blackboard and bulk); any other tool follows its family.
 * `idempotency` exposes no tool: it decides whether `idempotency_key` is remembered (by the
 * orchestrator's tools and by task_create, start_workflow, start_task and worker_command), and is
 * always on unless `--disable-idempotency` says otherwise.
 */
export interface Feature extends FeatureInfo {
  family: string;
}

export const features: readonly Feature[] = familyInfos.flatMap((f) =>
  (f.features ?? []).map((feature) => ({ ...feature, family: f.name })),
);

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

/** The features a tool names (none: it follows its family). */
export function featuresOf(tool: Pick<CatalogTool, 'feature'>): readonly string[] {
  return tool.feature === undefined ? [] : typeof tool.feature === 'string' ? [tool.feature] : tool.feature;
}

/** Whether a tool is exposed under these families and features. */
export function isToolExposed(
  tool: Pick<CatalogTool, 'family' | 'feature'>,
  families: ReadonlySet<string>,
  on: ReadonlySet<string>,
): boolean {
  const named = featuresOf(tool);
  if (named.length === 0) return families.has(tool.family);
  return named.every((f) => on.has(f));
}

/** The families with at least one tool exposed. */
export function familiesExposed<F extends { name: string; tools: readonly Pick<CatalogTool, 'family' | 'feature'>[] }>(
  all: readonly F[],
  families: ReadonlySet<string>,
  on: ReadonlySet<string>,
): F[] {
  return all.filter((f) => families.has(f.name) || f.tools.some((t) => isToolExposed(t, families, on)));
}

/** Which answered tools a server also lists (`mcp serve --list-deprecated`, `--list-runner-tools`). */
export interface ListingOptions {
  deprecated?: boolean;
  runnerTools?: boolean;
}

/**
 * Whether an exposed tool is listed: one tool per action for agents. A deprecated tool, a tool
 * only the runner calls, and another name of a tool that is exposed are answered but not listed
 * (their names stay the contract of clients written against them).
 */
export function isToolListed(
  tool: Pick<CatalogTool, 'deprecated' | 'audience' | 'aliasOf'>,
  exposed: ReadonlySet<string>,
  list: ListingOptions = {},
): boolean {
  if (tool.deprecated !== undefined && !list.deprecated) return false;
  if (tool.audience === 'runner' && !list.runnerTools) return false;
  return tool.aliasOf === undefined || !exposed.has(tool.aliasOf);
}
