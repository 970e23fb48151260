import type { ToolFamily } from './toolDefinition';

/**
 * Tool families (seed 001's feature toggles). A lean default keeps the tool count far under
 * VS Code's 128-tools-per-request limit and avoids two faces of one thing: the families on by
 * default are those whose index says so; the others are opt-in. mcp_info and mcp_capabilities
 * are always on and say what is. The families themselves are listed in catalog.ts.
 */

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
