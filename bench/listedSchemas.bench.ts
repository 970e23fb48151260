// What an MCP client pays for our tools list: the SDK's Client.listTools() compiles an Ajv validator
// for every listed outputSchema at once (client/index.js cacheToolMetadata, SDK 1.x), before the
// client can call anything. This compiles each output schema of the default families with the
// SDK's own AjvJsonSchemaValidator (a fresh one per round, as each client has), in two forms
// measured in the same run, turn about:
//   as zod gives it   z.toJSONSchema of the contract (what was listed before session 7)
//   listed            what tools/list gives: the same schema rewritten by src/mcp/listing/compactSchema.ts
// and prints the cost per tool (CPU ms of this process, median of the rounds: less sensitive to the
// machine's load than wall time), the whole list warm, and the whole list in a fresh process (cold:
// what a client really pays once, Ajv itself not yet compiled by V8).
// Usage: node --import tsx bench/listedSchemas.bench.ts [--rounds 40] [--cold 7] [--families introspection,tracking,tasks,pipeline]
//        [--listing other/dist/toolsListing.json]  (compares that build's listing instead of zod's own)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { loadCatalog } from '../src/mcp/catalog';
import { familyInfos, introspectionInfo } from '../src/mcp/families';
import { jsonSchema, liveListing } from '../src/mcp/listing/liveListing';
import type { ToolListing } from '../src/mcp/listing/builtListing';
import { ms, percentile, printTable, ratio } from './lib/report';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const rounds = Number(arg('--rounds', '40'));
const coldRuns = Number(arg('--cold', '7'));
const families = arg(
  '--families',
  [introspectionInfo, ...familyInfos]
    .filter((f) => f.enabledByDefault !== false)
    .map((f) => f.name)
    .join(','),
).split(',');
const other = process.argv.includes('--listing') ? path.resolve(arg('--listing', '')) : undefined;

type Schemas = Map<string, Record<string, unknown>>;

/** Output schemas of the chosen families' tools, by tool name, in listing order. */
function outputSchemas(listing: ToolListing): Schemas {
  return new Map(
    listing.families
      .filter((f) => families.includes(f.name))
      .flatMap((f) =>
        f.tools.filter((t) => t.outputSchema).map((t) => [t.name, t.outputSchema as Record<string, unknown>] as const),
      ),
  );
}

/** Zod's own output schemas of the chosen families' tools, by tool name, in catalog order. */
async function zodSchemas(): Promise<Schemas> {
  const catalog = await loadCatalog();
  return new Map(
    [catalog.introspection, ...catalog.families]
      .filter((f) => families.includes(f.name))
      .flatMap((f) => f.tools.filter((t) => t.output).map((t) => [t.name, jsonSchema(t.output!, 'output')] as const)),
  );
}
const baselineName = other ? path.relative(process.cwd(), other) : 'as zod gives it';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One client's compilation of every schema: CPU ms per tool and in all. */
function compileAll(schemas: Schemas): { perTool: Map<string, number>; total: number } {
  const copies = [...schemas].map(([name, s]) => [name, structuredClone(s)] as const); // Ajv caches by object: a fresh copy each round
  const validator = new AjvJsonSchemaValidator();
  const perTool = new Map<string, number>();
  const start = cpuMs();
  for (const [name, schema] of copies) {
    const t = cpuMs();
    validator.getValidator(schema);
    perTool.set(name, cpuMs() - t);
  }
  return { perTool, total: cpuMs() - start };
}

/** The whole list compiled once in a fresh process (Ajv's own code cold, as in a client that just started). */
function cold(schemas: Schemas): number {
  const file = path.join(fs.mkdtempSync(path.join(tmpdir(), 'agent-ledger-schemas-')), 'schemas.json');
  fs.writeFileSync(file, JSON.stringify([...schemas.values()]));
  const script = `const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv-provider.js'); const s = JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8')); const v = new AjvJsonSchemaValidator(); const c = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const t = c(); for (const x of s) v.getValidator(x); console.log(c() - t);`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: path.resolve(__dirname, '..'), encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout.trim());
}

async function main(): Promise<void> {
  const listed = outputSchemas(await liveListing());
  const baseline: Schemas = other
    ? outputSchemas(JSON.parse(fs.readFileSync(other, 'utf8')) as ToolListing)
    : await zodSchemas();
  const missing = [...listed.keys()].filter((n) => !baseline.has(n));
  if (missing.length) throw new Error(`${baselineName} has no output schema for ${missing.join(', ')}`);
  const load = loadavg()[0];
  const samples = {
    base: new Map<string, number[]>(),
    listed: new Map<string, number[]>(),
    baseTotal: [] as number[],
    listedTotal: [] as number[],
  };
  for (let warm = 0; warm < 3; warm++) {
    compileAll(baseline);
    compileAll(listed);
  }
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0 ? (['base', 'listed'] as const) : (['listed', 'base'] as const)) {
      const { perTool, total } = compileAll(which === 'base' ? baseline : listed);
      for (const [name, t] of perTool) (samples[which].get(name) ?? samples[which].set(name, []).get(name)!).push(t);
      (which === 'base' ? samples.baseTotal : samples.listedTotal).push(total);
    }
  }
  const coldBase: number[] = [];
  const coldListed: number[] = [];
  for (let i = 0; i < coldRuns; i++) {
    coldBase.push(cold(baseline));
    coldListed.push(cold(listed));
  }
  const med = (xs: number[]) => percentile(xs, 50);
  const size = (s: unknown) => JSON.stringify(s).length;
  const names = [...listed.keys()].sort((a, b) => med(samples.base.get(b)!) - med(samples.base.get(a)!));
  const rows = names.map((n) => [
    n,
    size(baseline.get(n)),
    size(listed.get(n)),
    ms(med(samples.base.get(n)!)),
    ms(med(samples.listed.get(n)!)),
    ratio(med(samples.listed.get(n)!), med(samples.base.get(n)!)),
  ]);
  const sum = (s: Schemas) => [...s.values()].reduce((a, x) => a + size(x), 0);
  rows.push([
    `all ${listed.size}, warm (one client's listTools)`,
    sum(baseline),
    sum(listed),
    ms(med(samples.baseTotal)),
    ms(med(samples.listedTotal)),
    ratio(med(samples.listedTotal), med(samples.baseTotal)),
  ]);
  rows.push([
    `all ${listed.size}, cold (a fresh process, median of ${coldRuns})`,
    '',
    '',
    ms(med(coldBase)),
    ms(med(coldListed)),
    ratio(med(coldListed), med(coldBase)),
  ]);
  printTable(
    `Output schemas of the ${families.join(', ')} tools compiled by the MCP SDK client's AjvJsonSchemaValidator: CPU ms, median of ${rounds} rounds, turn about (load average ${load.toFixed(1)} on ${cpus().length} cores${load > 4 ? ': under load' : ''})`,
    ['tool', `bytes, ${baselineName}`, 'bytes, listed', `compile ms, ${baselineName}`, 'compile ms, listed', 'ratio'],
    rows,
  );
}

void main();
