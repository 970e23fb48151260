import type { CatalogTool, FamilyInfo, ToolFamily } from './toolDefinition';
import { familyInfos, introspectionInfo } from './families';

/**
 * A family's tools — their zod contracts, their handlers, the services they import — loaded from
 * its folder, `tools/<name>/index.ts` exporting `<name>Family`, only when something needs them
 * (docs/performance.md). esbuild bundles every such index behind this one dynamic import and
 * evaluates one on first call, so a family that is off is never built; a new family needs no line
 * here. Each tool must name the family whose index lists it.
 */
export function loadFamily(info: Pick<FamilyInfo, 'name'>): Promise<ToolFamily> {
  let pending = loaded.get(info.name);
  if (!pending) loaded.set(info.name, (pending = importFamily(info.name)));
  return pending;
}

const loaded = new Map<string, Promise<ToolFamily>>();

async function importFamily(name: string): Promise<ToolFamily> {
  const module = (await import(`./tools/${name}/index.ts`)) as Record<string, ToolFamily | undefined>;
  const family = module[`${name}Family`];
  if (!family || family.name !== name) throw new Error(`tools/${name}/index.ts exports no family ${name}Family`);
  const strays = family.tools.filter((t) => t.family !== name).map((t) => `${t.name} (${t.family})`);
  if (strays.length) throw new Error(`tools/${name}/index.ts lists tools of other families: ${strays.join(', ')}`);
  return family;
}

/** Every family with its tools: introspection first, then each switchable family in order. */
export interface Catalog {
  introspection: ToolFamily;
  /** The switchable families, in the order of families.ts. */
  families: readonly ToolFamily[];
  /** Every tool, introspection's first, then each family's in order. */
  tools: readonly CatalogTool[];
}

/** Every family loaded (the CLI, the build's listing, introspection): what the catalog holds. */
export async function loadCatalog(): Promise<Catalog> {
  const [introspection, ...switchable] = await Promise.all([introspectionInfo, ...familyInfos].map(loadFamily));
  return { introspection, families: switchable, tools: [introspection, ...switchable].flatMap((f) => f.tools) };
}
