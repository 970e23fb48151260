import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import * as stig from '../../../../src/core/scheduling/stigmergy/stigmergyContracts';
import * as cnp from '../../../../src/core/scheduling/contractNet/contractNetContracts';
import * as kg from '../../../../src/core/scheduling/knowledge/knowledgeContracts';

const tools: Record<string, { input: z.ZodType; result: z.ZodType }> = {
  stig_mark: { input: stig.stigMarkInput, result: stig.stigMarkResult },
  stig_batch: { input: stig.stigBatchInput, result: stig.stigBatchResult },
  stig_decay: { input: stig.stigDecayInput, result: stig.stigDecayResult },
  stig_snapshot: { input: stig.stigSnapshotInput, result: stig.stigSnapshotResult },
  cnp_announce: { input: cnp.cnpAnnounceInput, result: cnp.cnpAnnounceResult },
  cnp_bid: { input: cnp.cnpBidInput, result: cnp.cnpBidResult },
  cnp_award: { input: cnp.cnpAwardInput, result: cnp.cnpAwardResult },
  cnp_refresh_bounds: { input: cnp.cnpRefreshBoundsInput, result: cnp.cnpRefreshBoundsResult },
  cnp_watcher_telemetry: { input: cnp.cnpWatcherTelemetryInput, result: cnp.cnpWatcherTelemetryResult },
  kg_insert: { input: kg.kgInsertInput, result: kg.kgInsertResult },
  kg_query: { input: kg.kgQueryInput, result: kg.kgQueryResult },
  kg_export: { input: kg.kgExportInput, result: kg.kgExportResult },
  kg_suggest_plan: { input: kg.kgSuggestPlanInput, result: kg.kgSuggestPlanResult },
};

/** Every property of every object in a JSON schema, with its path. */
function properties(
  schema: Record<string, any>,
  at: string,
  out: [string, Record<string, any>][] = [],
): [string, Record<string, any>][] {
  for (const [name, prop] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    out.push([`${at}.${name}`, prop]);
    properties(prop, `${at}.${name}`, out);
  }
  for (const key of ['items', 'additionalProperties'])
    if (schema[key] && typeof schema[key] === 'object') properties(schema[key], `${at}[]`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    for (const s of schema[key] ?? []) properties(s, at, out);
  return out;
}

function objects(schema: Record<string, any>, out: Record<string, any>[] = []): Record<string, any>[] {
  if (schema.type === 'object' && schema.properties) out.push(schema);
  for (const v of Object.values(schema)) {
    if (Array.isArray(v)) v.forEach((x) => x && typeof x === 'object' && objects(x, out));
    else if (v && typeof v === 'object') objects(v, out);
  }
  return out;
}

test('every field of every input and result is described, and every object is strict', () => {
  for (const [name, { input, result }] of Object.entries(tools)) {
    for (const [kind, schema] of [
      ['input', input],
      ['result', result],
    ] as const) {
      const json = z.toJSONSchema(schema, {
        io: kind === 'input' ? 'input' : 'output',
        unrepresentable: 'any',
      }) as Record<string, any>;
      for (const [path, prop] of properties(json, `${name}.${kind}`)) {
        assert.ok(typeof prop.description === 'string' && prop.description.length > 3, `${path} has no description`);
        assert.doesNotMatch(prop.description, /\bseed\b/i, `${path} talks about a seed`);
      }
      for (const obj of objects(json))
        assert.equal(obj.additionalProperties, false, `${name}.${kind}: an object is not strict`);
    }
  }
});

test('the seed’s bounds hold: batch 1–200, intensity in (0, 10000], half-life, preferred sources, exclusions, fragments', () => {
  const entry = { node_id: 'src/a.ts', type: 'scope:task-1', intensity: 1 };
  assert.equal(stig.stigBatchInput.safeParse({ entries: [] }).success, false);
  assert.equal(stig.stigBatchInput.safeParse({ entries: Array(200).fill(entry) }).success, true);
  assert.equal(stig.stigBatchInput.safeParse({ entries: Array(201).fill(entry) }).success, false);
  assert.equal(stig.stigMarkInput.safeParse({ ...entry, intensity: 0 }).success, false);
  assert.equal(stig.stigMarkInput.safeParse({ ...entry, intensity: 10_000 }).success, true);
  assert.equal(stig.stigMarkInput.safeParse({ ...entry, intensity: 10_000.5 }).success, false);
  assert.equal(stig.stigMarkInput.safeParse({ ...entry, type: '  ' }).success, false);
  assert.equal(stig.stigBatchInput.safeParse({ entries: [{ ...entry, extra: 1 }] }).success, false, 'strict entries');
  assert.equal(stig.stigDecayInput.safeParse({ half_life_ms: 86_400_001 }).success, false);
  assert.equal(stig.stigDecayInput.safeParse({ half_life_ms: 1.5 }).success, false);
  const goal = (context: unknown) => kg.kgSuggestPlanInput.safeParse({ goal: 'launch', context }).success;
  assert.equal(goal({ preferred_sources: Array(16).fill('playbook') }), true);
  assert.equal(goal({ preferred_sources: Array(17).fill('playbook') }), false);
  assert.equal(goal({ preferred_sources: ['x'.repeat(121)] }), false);
  assert.equal(goal({ exclude_tasks: Array(256).fill('t') }), true);
  assert.equal(goal({ exclude_tasks: Array(257).fill('t') }), false);
  assert.equal(goal({ max_fragments: 0 }), false);
  assert.equal(goal({ max_fragments: 5 }), true);
  assert.equal(goal({ max_fragments: 6 }), false);
  assert.equal(goal({ other: 1 }), false);
  assert.equal(kg.kgSuggestPlanInput.safeParse({ goal: '' }).success, false);
  assert.equal(
    kg.kgInsertInput.safeParse({ triples: Array(257).fill({ subject: 's', predicate: 'p', object: 'o' }) }).success,
    false,
  );
});

test('cnp_announce keeps the seed’s names, defaults our own fields and refuses unknown ones', () => {
  const parsed = cnp.cnpAnnounceInput.parse({
    task_id: 'task-12',
    heuristics: { busy_penalty: 2 },
    manual_bids: [{ agent_id: 'coder', cost: 3 }],
    idempotency_key: 'k1',
    run_id: 'r',
    deadline_ms: 60_000,
  });
  assert.deepEqual([parsed.tags, parsed.award, parsed.allowOverlap], [[], true, false]);
  assert.equal(cnp.cnpAnnounceInput.safeParse({ task_id: 't', heuristics: { busy_penalty: 101 } }).success, false);
  assert.equal(cnp.cnpAnnounceInput.safeParse({ task_id: 't', heuristics: { busy: 1 } }).success, false);
  assert.equal(
    cnp.cnpAnnounceInput.safeParse({ task_id: 't', manual_bids: [{ agent_id: 'a', cost: -1 }] }).success,
    false,
  );
  assert.equal(cnp.cnpAnnounceInput.safeParse({ task_id: 't', deadline_ms: 0 }).success, false);
  assert.equal(
    cnp.cnpRefreshBoundsInput.safeParse({
      call_id: 'c',
      bounds: { min_intensity: 0, max_intensity: null, normalisation_ceiling: 3 },
      refresh_auto_bids: false,
      include_new_agents: false,
    }).success,
    true,
  );
  assert.equal(cnp.cnpWatcherTelemetryInput.safeParse({ op_id: 'x' }).success, false);
});
