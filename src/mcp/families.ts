import type { FamilyInfo, ToolFamily } from './toolDefinition';
import { introspectionInfo } from './tools/introspection/family';
import { trackingInfo } from './tools/tracking/family';
import { tasksInfo } from './tools/tasks/family';
import { pipelineInfo } from './tools/pipeline/family';
import { pmInfo } from './tools/pm/family';
import { orchestratorInfo } from './tools/orchestrator/family';

/**
 * Tool families (feature toggles). A lean default keeps the tool count far under VS Code's
 * 128-tools-per-request limit and avoids two faces of one thing: the families on by default are
 * those whose info says so; the others are opt-in. mcp_info and mcp_capabilities are always on
 * and say what is.
 */

/**
 * Every switchable family, in the order they are offered (the `agentLedger.toolFamilies` setting
 * lists them in the same order; a test holds the two together): the one list of families. Plain
 * data (each `tools/<family>/family.ts`), so `mcp serve` parses its switches and the extension
 * launches it without building a tool; catalog.ts loads a family's tools from its folder by name.
 */
export const familyInfos: readonly FamilyInfo[] = [trackingInfo, tasksInfo, pipelineInfo, pmInfo, orchestratorInfo];

/** mcp_info and mcp_capabilities: always on, never switched. */
export { introspectionInfo };

/** The names of the switchable families. */
export const families: readonly string[] = familyInfos.map((f) => f.name);

/** What a family without a single tool is said to have, wherever it is offered. */
export const noToolsYet = 'no tools yet';

/**
 * A family's description, saying so when it has no tool yet (pm and orchestrator are switchable
 * before their tools exist): computed, so the note goes away with the first tool.
 */
export function describeFamily(family: ToolFamily): string {
  return family.tools.length === 0 ? `${family.description} — ${noToolsYet}` : family.description;
}

/** Applies `--enable-x` / `--disable-x` switches (later ones win) to the defaults. */
export function resolveFamilies(
  all: readonly Pick<ToolFamily, 'name' | 'enabledByDefault'>[],
  enable: readonly string[] = [],
  disable: readonly string[] = [],
): Set<string> {
  const known = all.map((f) => f.name);
  const unknown = [...enable, ...disable].filter((f) => !known.includes(f));
  if (unknown.length)
    throw new Error(
      `unknown tool famil${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}; known: ${known.join(', ')}`,
    );
  const set = new Set(all.filter((f) => f.enabledByDefault).map((f) => f.name));
  for (const f of enable) set.add(f);
  for (const f of disable) set.delete(f);
  return set;
}
