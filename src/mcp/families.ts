/**
 * Tool families (seed 001's feature toggles). A lean default keeps the tool count far under
 * VS Code's 128-tools-per-request limit and avoids two faces of one thing: tracking, tasks
 * and pipeline are on; pm and orchestrator are opt-in. mcp_info and mcp_capabilities are
 * always on and say what is.
 */
export const families = ['tracking', 'tasks', 'pipeline', 'pm', 'orchestrator'] as const;
export type Family = (typeof families)[number];

export const defaultFamilies: readonly Family[] = ['tracking', 'tasks', 'pipeline'];

export const familyDescriptions: Record<Family | 'introspection', string> = {
  introspection: 'mcp_info and mcp_capabilities: what this server is and which tools it exposes (always on)',
  tracking: 'Workflow tracking: workflows, tasks with Git snapshots, decisions, issues, milestones, exact files changed',
  tasks: 'Task management: tasks, agents, workers in Git worktrees, sessions, Memory Bank',
  pipeline: 'Pipelines: a deterministic phase engine with human checkpoints',
  pm: 'Agent PM: agent login, handoffs, execution logs',
  orchestrator: 'Orchestration: blackboard, event streams, resources watch, idempotency',
};

/** What a family without a single tool in the catalog is said to have, wherever it is offered. */
export const noToolsYet = 'no tools yet';

/**
 * A family's description, saying so when the catalog has no tool of it yet (pm and orchestrator
 * are switchable before their tools exist): computed, so the note goes away with the first tool.
 */
export function describeFamily(family: Family | 'introspection', catalog: ReadonlyArray<{ family: string }>): string {
  const empty = !catalog.some((t) => t.family === family);
  return empty ? `${familyDescriptions[family]} — ${noToolsYet}` : familyDescriptions[family];
}

export function isFamily(name: string): name is Family {
  return (families as readonly string[]).includes(name);
}

/** Applies `--enable-x` / `--disable-x` switches (later ones win) to the defaults. */
export function resolveFamilies(enable: readonly string[] = [], disable: readonly string[] = [], base: readonly Family[] = defaultFamilies): Set<Family> {
  const unknown = [...enable, ...disable].filter((f) => !isFamily(f));
  if (unknown.length) throw new Error(`unknown tool famil${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}; known: ${families.join(', ')}`);
  const set = new Set<Family>(base);
  for (const f of enable) set.add(f as Family);
  for (const f of disable) set.delete(f as Family);
  return set;
}
