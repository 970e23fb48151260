import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createKnowledgeGraph, insertTriples } from '../../../../../src/core/scheduling/knowledge/knowledgeGraph';
import type { KnowledgeGraph } from '../../../../../src/core/scheduling/knowledge/knowledgeGraph';
import {
  kgInsertInput,
  kgSuggestPlanInput,
  kgSuggestPlanResult,
} from '../../../../../src/core/scheduling/knowledge/knowledgeContracts';
import { suggestPlan } from '../../../../../src/core/scheduling/knowledge/planSuggestion';
import { fragmentToPlanAddition } from '../../../../../src/core/scheduling/knowledge/planFragments';
import { fragmentPatches } from '../../../../../src/core/scheduling/knowledge/planPatches';
import { applyGraphPatch } from '../../../../../src/core/coordination/plans/graphDiff';
import { normaliseGraph } from '../../../../../src/core/coordination/plans/planGraph';
import { checkGraph } from '../../../../../src/core/coordination/plans/graphInvariants';

/** A playbook in the public implementation's kg_insert format, loaded as it is. */
function releasePlaybook(): KnowledgeGraph {
  const raw = JSON.parse(
    readFileSync(path.join(__dirname, '../../../../fixtures/scheduling/release-playbook.json'), 'utf8'),
  );
  const input = kgInsertInput.parse(raw);
  return insertTriples(createKnowledgeGraph(), input.triples, 1_000).kg;
}

test('the playbook fixture loads through the kg_insert contract as it is', () => {
  const kg = releasePlaybook();
  assert.equal(kg.triples.size, 18);
  const freeze = [...kg.triples.values()].find((t) => t.object === 'freeze' && t.predicate === 'includes');
  assert.deepEqual(freeze?.provenance, [{ sourceId: 'docs/release.md', type: 'file', span: [10, 42] }]);
});

test('suggestPlan on the playbook: fragments, coverage, sources and rationale exactly', () => {
  const input = kgSuggestPlanInput.parse({
    goal: 'release',
    context: { preferred_sources: ['Playbook', 'ops'], exclude_tasks: ['smoke_test'], max_fragments: 2 },
  });
  const s = suggestPlan(releasePlaybook(), input.goal, input.context);
  kgSuggestPlanResult.parse({ ...s, patches: fragmentPatches(s.fragments, null) });
  assert.deepEqual(s.coverage, {
    total_tasks: 7,
    suggested_tasks: ['announce', 'build', 'changelog', 'freeze', 'legacy_audit', 'publish'],
    excluded_tasks: ['smoke_test'],
    missing_dependencies: [{ task: 'publish', dependencies: ['smoke_test'] }],
    unknown_dependencies: [{ task: 'legacy_audit', dependencies: ['compliance_check'] }],
  });
  assert.deepEqual(s.sources, [
    { source: 'playbook', tasks: 4 },
    { source: 'comms', tasks: 1 },
    { source: 'qa', tasks: 1 },
  ]);
  assert.deepEqual(s.preferred_sources_applied, ['Playbook']);
  assert.deepEqual(s.preferred_sources_ignored, ['ops']);
  assert.deepEqual(s.rationale, [
    "Plan 'release': 6/7 task(s) suggested.",
    'Fragment 1 – source Playbook: 4 task(s).',
    'Fragment 2 – other sources: 2 task(s) and 2 supporting dependencies.',
    'Excluded by the context: smoke_test.',
    'Dependencies left out (in the plan but excluded): publish -> smoke_test.',
    'Dependencies unknown to the graph: legacy_audit -> compliance_check.',
  ]);
  const [first, second] = s.fragments;
  assert.equal(first.id, 'release-fragment-1');
  assert.deepEqual(
    first.nodes.map((n) => n.id),
    ['changelog', 'freeze', 'build', 'publish'],
    'dependencies first, then by id',
  );
  assert.deepEqual(first.edges, [
    {
      id: 'release-fragment-1-edge-1',
      from: { nodeId: 'freeze' },
      to: { nodeId: 'build' },
      label: 'depends_on',
      attributes: { kg_dependency: true },
    },
    {
      id: 'release-fragment-1-edge-2',
      from: { nodeId: 'changelog' },
      to: { nodeId: 'publish' },
      label: 'depends_on',
      attributes: { kg_dependency: true },
    },
  ]);
  assert.deepEqual(
    first.nodes.find((n) => n.id === 'build'),
    {
      id: 'build',
      kind: 'task',
      attributes: {
        kg_goal: 'release',
        kg_source: 'playbook',
        kg_confidence: 0.88,
        kg_seed: true,
        kg_group: 'source Playbook',
        kg_duration: 12,
        kg_weight: 2,
      },
    },
  );
  assert.equal(first.nodes.find((n) => n.id === 'freeze')?.label, 'Freeze the main branch');
  assert.deepEqual(
    second.nodes.map((n) => [n.id, n.attributes.kg_seed]),
    [
      ['changelog', false],
      ['legacy_audit', true],
      ['publish', false],
      ['announce', true],
    ],
  );
  assert.deepEqual(
    second.edges.map((e) => `${e.from.nodeId}->${e.to.nodeId}`),
    ['changelog->publish', 'publish->announce'],
  );
  assert.equal(second.nodes[0].attributes.kg_group, 'other sources');
});

test('without preferred sources one fragment holds the whole plan; max_fragments cuts groups and says so', () => {
  const kg = releasePlaybook();
  const whole = suggestPlan(kg, 'release');
  assert.equal(whole.fragments.length, 1);
  assert.equal(whole.fragments[0].nodes.length, 7);
  assert.equal(whole.fragments[0].nodes[0].attributes.kg_group, 'full plan');
  assert.equal(whole.rationale[0], "Plan 'release': 7/7 task(s) suggested.");
  const cut = suggestPlan(kg, 'release', { preferred_sources: ['qa', 'comms'], max_fragments: 1 });
  assert.deepEqual(
    cut.fragments.map((f) => f.nodes.filter((n) => n.attributes.kg_seed).map((n) => n.id)),
    [['legacy_audit', 'smoke_test']],
  );
  assert.ok(cut.rationale.includes('2 more group(s) left out by max_fragments=1.'));
  assert.deepEqual(cut.preferred_sources_ignored, ['comms'], 'comms had tasks but its fragment was cut');
  assert.deepEqual(suggestPlan(kg, 'release', { max_fragments: 99 }).fragments.length, 1, 'clamped to 1–5');
});

test('unknown goals and fully excluded plans answer with a rationale, never an error; answers are deterministic', () => {
  const kg = releasePlaybook();
  const none = suggestPlan(kg, 'migrate', { preferred_sources: ['playbook'] });
  assert.deepEqual([none.fragments, none.coverage.total_tasks, none.preferred_sources_ignored], [[], 0, ['playbook']]);
  assert.match(none.rationale[0], /^No known plan for 'migrate'/);
  const all = suggestPlan(kg, 'release', {
    exclude_tasks: ['freeze', 'changelog', 'build', 'smoke_test', 'publish', 'announce', 'legacy_audit'],
  });
  assert.equal(all.fragments.length, 0);
  assert.equal(all.coverage.excluded_tasks.length, 7);
  assert.match(all.rationale[0], /excluded all of them/);
  const again = releasePlaybook();
  assert.equal(
    JSON.stringify(suggestPlan(again, 'release', { preferred_sources: ['qa'] })),
    JSON.stringify(suggestPlan(kg, 'release', { preferred_sources: ['qa'] })),
  );
});

test('a fragment becomes additions to a workflow’s plan graph: renamed, de-duplicated, in three forms', () => {
  const fragment = suggestPlan(releasePlaybook(), 'release', { preferred_sources: ['playbook'] }).fragments[0];
  const add = fragmentToPlanAddition(fragment, { nodes: [{ id: 'task-40' }], edges: [] }, { changelog: 'task-40' });
  assert.deepEqual(add.skipped, { nodes: ['task-40'], edges: [] });
  assert.deepEqual(
    add.nodes.map((n) => n.id),
    ['freeze', 'build', 'smoke_test', 'publish'],
    'smoke_test comes along as a dependency of publish',
  );
  assert.deepEqual(
    add.edges.map((e) => `${e.from}->${e.to}`),
    ['freeze->build', 'build->smoke_test', 'smoke_test->publish', 'task-40->publish'],
  );
  assert.ok(add.edges.every((e) => e.label === 'depends_on' && e.attributes.kg_dependency === true));
  assert.deepEqual(
    add.operations.map((o) => o.op),
    ['add_node', 'add_node', 'add_node', 'add_node', 'add_edge', 'add_edge', 'add_edge', 'add_edge'],
  );
  assert.deepEqual(
    add.patch.map((p) => p.path),
    [
      '/nodes/freeze',
      '/nodes/build',
      '/nodes/smoke_test',
      '/nodes/publish',
      '/edges/freeze',
      '/edges/build',
      '/edges/smoke_test',
      '/edges/task-40',
    ],
  );
  assert.deepEqual(add.patch[0].value, { label: add.nodes[0].label, attributes: add.nodes[0].attributes });
  assert.deepEqual(add.patch[7].value, { publish: { label: 'depends_on', attributes: { kg_dependency: true } } });
  assert.equal(add.nodes[0].label, 'Freeze the main branch');
  const twice = fragmentToPlanAddition(
    fragment,
    { nodes: [...add.nodes, { id: 'task-40' }], edges: add.edges },
    { changelog: 'task-40' },
  );
  assert.deepEqual([twice.nodes, twice.edges], [[], []], 'applying twice adds nothing');
});

test("a ready patch applies with the graph tools' own patch code: new nodes and edges, nothing overwritten", () => {
  const s = suggestPlan(releasePlaybook(), 'release', { preferred_sources: ['playbook'], max_fragments: 1 });
  // The target already has `build` with an edge out of it, and its own task-40.
  const target = normaliseGraph(
    {
      nodes: [{ id: 'build', label: 'Our build', attributes: { status: 'done' } }, { id: 'task-40' }],
      edges: [{ from: 'build', to: 'task-40', label: 'depends_on' }],
    },
    { graph_id: 'wf-9', graph_version: 3 },
  );
  const [ready] = fragmentPatches(s.fragments, target);
  assert.deepEqual([ready.graph_id, ready.base_version, ready.skipped.nodes], ['wf-9', 3, ['build']]);
  const patched = applyGraphPatch(target, ready.patch);
  assert.deepEqual(checkGraph(patched), { ok: true });
  assert.deepEqual(
    patched.nodes.map((n) => n.id),
    ['build', 'changelog', 'freeze', 'publish', 'smoke_test', 'task-40'],
  );
  assert.equal(patched.nodes[0].label, 'Our build', 'a node the graph has keeps its label and attributes');
  assert.deepEqual(
    patched.edges.map((e) => `${e.from}->${e.to}`),
    ['build->smoke_test', 'build->task-40', 'changelog->publish', 'freeze->build', 'smoke_test->publish'],
  );
  // Ledger task ids of another workflow become goal-scoped nodes; ids with "/" are escaped in paths.
  const foreign = fragmentPatches(
    [
      {
        id: 'f',
        nodes: [
          { id: 'task-3', kind: 'task', attributes: { kg_goal: 'ship' } },
          { id: 'spec/phase-1', kind: 'task', attributes: { kg_goal: 'ship' } },
        ],
        edges: [
          {
            id: 'e',
            from: { nodeId: 'spec/phase-1' },
            to: { nodeId: 'task-3' },
            label: 'depends_on',
            attributes: { kg_dependency: true },
          },
        ],
      },
    ],
    null,
  )[0];
  assert.deepEqual(foreign.node_ids, { 'task-3': 'ship:task-3', 'spec/phase-1': 'spec/phase-1' });
  assert.deepEqual(
    foreign.patch.map((p) => p.path),
    ['/nodes/ship:task-3', '/nodes/spec~1phase-1', '/edges/spec~1phase-1'],
  );
  const empty = applyGraphPatch(normaliseGraph({ nodes: [], edges: [] }, { graph_id: 'g' }), foreign.patch);
  assert.deepEqual(
    empty.edges.map((e) => `${e.from}->${e.to}`),
    ['spec/phase-1->ship:task-3'],
  );
});
