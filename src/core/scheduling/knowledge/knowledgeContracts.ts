import { z } from 'zod';
import { provenanceTypes } from './knowledgeGraph';

/**
 * Inputs and results of the knowledge-graph tools (`kg_insert`, `kg_query`, `kg_export`,
 * `kg_suggest_plan`): facts as triples, and plans suggested from what worked before. Names and
 * bounds are the orchestrator seed's (a plan's triples load as its playbooks write them); ours
 * are `cursor` (pages), `limit` on export and `unchanged` on insert.
 */

const text = (what: string, max = 2000) => z.string().trim().min(1).max(max).describe(what);
const timestamp = (what: string) => z.number().int().nonnegative().describe(`${what} (milliseconds since the epoch)`);

const provenance = z.strictObject({
  sourceId: z
    .string()
    .min(1)
    .max(2000)
    .describe('What backs the fact: a URL, a workspace file, a ledger record ("wf-3")'),
  type: z.enum(provenanceTypes).describe('Kind of source'),
  span: z
    .tuple([z.number(), z.number()])
    .refine((s) => s.every(Number.isFinite) && s[1] >= s[0], 'span is [start, end] with end >= start')
    .optional()
    .describe('Character or line range inside the source'),
  confidence: z.number().min(0).max(1).optional().describe('Confidence in this source, 0..1'),
});

/** One triple to insert (the public playbook format). */
export const kgTripleInput = z.strictObject({
  subject: text('Subject, e.g. a goal "launch" or a task "task:design"'),
  predicate: text('Relation, e.g. "includes", "depends_on", "label", "duration"', 200),
  object: text('Object, e.g. a task id "design" or a value'),
  source: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Where the fact comes from, e.g. "playbook", "workflow"; preferred sources of kg_suggest_plan match it'),
  confidence: z.number().min(0).max(1).optional().describe('Confidence 0..1 (default 1)'),
  provenance: z.array(provenance).max(50).optional().describe('Precise origins of the fact'),
});

/** `kg_insert`: up to 256 triples. */
export const kgInsertInput = z.strictObject({
  triples: z
    .array(kgTripleInput)
    .min(1)
    .max(256)
    .describe('Facts to add; an existing triple is updated (source, confidence, provenance)'),
});

/** `kg_query`: a motif with * wildcards, paged. */
export const kgQueryInput = z.strictObject({
  subject: z.string().min(1).max(2000).optional().describe('Subject to match; * matches any run of characters'),
  predicate: z.string().min(1).max(200).optional().describe('Predicate to match; * allowed'),
  object: z.string().min(1).max(2000).optional().describe('Object to match; * allowed'),
  source: z.string().min(1).max(200).optional().describe('Source to match; * allowed'),
  min_confidence: z.number().min(0).max(1).optional().describe('Only facts at least this confident'),
  limit: z.number().int().min(1).max(500).default(50).describe('Most triples to return'),
  order: z.enum(['asc', 'desc']).default('asc').describe('Insertion order (asc) or newest first (desc)'),
  cursor: z.number().int().nonnegative().optional().describe('next_cursor of the previous page'),
});

/** `kg_export`: every triple, paged. */
export const kgExportInput = z.strictObject({
  format: z.literal('triples').default('triples').describe('Export format: every triple as stored'),
  limit: z.number().int().min(1).max(5000).default(1000).describe('Most triples in one page'),
  cursor: z.number().int().nonnegative().optional().describe('next_cursor of the previous page'),
});

/** `kg_suggest_plan`: a goal and how to shape the suggestion. */
export const kgSuggestPlanInput = z.strictObject({
  goal: text('Goal to plan, e.g. "launch" or a workflow name like "Add OAuth login"', 500),
  context: z
    .strictObject({
      preferred_sources: z
        .array(z.string().min(1).max(120))
        .max(16)
        .optional()
        .describe('Sources to build fragments from first, in this order (case-insensitive)'),
      exclude_tasks: z.array(z.string().min(1).max(120)).max(256).optional().describe('Task ids to leave out'),
      max_fragments: z.number().int().min(1).max(5).optional().describe('Most fragments to return (default 3)'),
    })
    .optional()
    .describe('How to shape the suggestion'),
  graph_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Plan graph the fragments are meant for (a workflow\'s is "wf-<id>"): each fragment\'s ready patch is computed against its latest version',
    ),
});

const triple = z.strictObject({
  id: z.string().describe('Triple id, e.g. "kg-12"'),
  subject: z.string().describe('Subject'),
  predicate: z.string().describe('Predicate'),
  object: z.string().describe('Object'),
  source: z.string().nullable().describe('Where it comes from'),
  provenance: z.array(provenance).describe('Precise origins'),
  confidence: z.number().min(0).max(1).describe('Confidence 0..1'),
  inserted_at: timestamp('First inserted'),
  updated_at: timestamp('Last updated'),
  revision: z.number().int().nonnegative().describe('Times it was updated'),
  ordinal: z.number().int().positive().describe('Insertion order; pages use it as cursor'),
});

const attribute = z.union([z.string(), z.number(), z.boolean()]);

const fragment = z.strictObject({
  id: z.string().describe('Fragment id, "<goal>-fragment-<n>"'),
  nodes: z
    .array(
      z.strictObject({
        id: z.string().describe('Task id'),
        kind: z.literal('task').describe('Node kind'),
        label: z.string().optional().describe('Task title'),
        attributes: z
          .record(z.string(), attribute)
          .describe(
            'kg_goal, kg_source, kg_confidence, kg_seed (true: chosen for itself, false: a dependency), kg_group, kg_duration / kg_weight when known',
          ),
      }),
    )
    .describe('Tasks, dependencies first'),
  edges: z
    .array(
      z.strictObject({
        id: z.string().describe('Edge id'),
        from: z.strictObject({ nodeId: z.string().describe('The dependency') }).describe('Task that must come first'),
        to: z.strictObject({ nodeId: z.string().describe('The task that needs it') }).describe('Task that waits'),
        label: z.literal('depends_on').describe('Edge kind'),
        attributes: z
          .strictObject({ kg_dependency: z.literal(true).describe('Marks a dependency from the knowledge graph') })
          .describe('Edge attributes'),
      }),
    )
    .describe('depends_on edges'),
});

const gap = z.strictObject({
  task: z.string().describe('Task id'),
  dependencies: z.array(z.string()).describe('Its dependencies in question'),
});

/** `kg_insert`: the stored triples and the counts. */
export const kgInsertResult = z.strictObject({
  inserted: z.array(triple).describe('Every triple as now stored, in input order'),
  created: z.number().int().nonnegative().describe('New triples'),
  updated: z.number().int().nonnegative().describe('Existing triples changed'),
  unchanged: z.number().int().nonnegative().describe('Triples already stored exactly so'),
  total: z.number().int().nonnegative().describe('Triples in the graph'),
});

/** `kg_query`: one page of matches. */
export const kgQueryResult = z.strictObject({
  triples: z.array(triple).describe('Matching triples'),
  total: z.number().int().nonnegative().describe('Triples returned'),
  next_cursor: z
    .number()
    .int()
    .positive()
    .nullable()
    .describe('Pass as cursor for the next page (null: nothing returned)'),
});

/** `kg_export`: one page of the whole graph. */
export const kgExportResult = z.strictObject({
  format: z.literal('triples').describe('Export format'),
  triples: z.array(triple).describe('Triples in insertion order'),
  total: z.number().int().nonnegative().describe('Triples in the graph'),
  next_cursor: z
    .number()
    .int()
    .positive()
    .nullable()
    .describe('Pass as cursor for the next page (null: this was the last)'),
});

/** `kg_suggest_plan`: fragments, rationale, coverage and sources. */
export const kgSuggestPlanResult = z.strictObject({
  goal: z.string().describe('Goal asked'),
  fragments: z.array(fragment).describe('Plan fragments ready to add to a plan graph'),
  rationale: z.array(z.string()).describe('Why: coverage, fragments, exclusions, unknown dependencies'),
  coverage: z
    .strictObject({
      total_tasks: z.number().int().nonnegative().describe('Tasks the plan includes'),
      suggested_tasks: z.array(z.string()).describe('Tasks in at least one fragment'),
      excluded_tasks: z.array(z.string()).describe('Tasks of the plan left out by exclude_tasks'),
      missing_dependencies: z.array(gap).describe('Dependencies on tasks of the plan that were excluded'),
      unknown_dependencies: z.array(gap).describe('Dependencies on tasks the plan does not include'),
    })
    .describe('What the fragments cover'),
  sources: z
    .array(
      z.strictObject({
        source: z.string().describe('Source'),
        tasks: z.number().int().positive().describe('Suggested tasks from it'),
      }),
    )
    .describe('Sources of the suggested tasks'),
  preferred_sources_applied: z.array(z.string()).describe('Preferred sources that gave a fragment'),
  preferred_sources_ignored: z.array(z.string()).describe('Preferred sources with no task in the plan'),
  patches: z
    .array(
      z.strictObject({
        fragment_id: z.string().describe('The fragment this patch adds'),
        graph_id: z
          .string()
          .nullable()
          .describe('The graph it was computed for (null: any graph holding none of its nodes)'),
        base_version: z
          .number()
          .int()
          .nonnegative()
          .nullable()
          .describe('Version it was computed against; pass it to graph_patch so a graph changed meanwhile refuses it'),
        node_ids: z
          .record(z.string(), z.string())
          .describe(
            'Fragment task id → plan-graph node id (a ledger task of another workflow, "task-12", becomes "<goal>:task-12")',
          ),
        patch: z
          .array(
            z.strictObject({
              op: z.literal('add').describe('Operation name'),
              path: z.string().describe('/nodes/<id>, /edges/<from> or /edges/<from>/<to>'),
              value: z.record(z.string(), z.unknown()).describe('The node or edge(s) to add'),
            }),
          )
          .describe('RFC 6902 operations for graph_patch'),
        skipped: z
          .strictObject({
            nodes: z.array(z.string()).describe('Nodes the graph already has'),
            edges: z.array(z.string()).describe('Edges (from->to) it already has'),
          })
          .describe('Left out: already in the graph'),
      }),
    )
    .describe('One ready graph_patch per fragment, in fragment order'),
});

export type KgInsertInput = z.infer<typeof kgInsertInput>;
export type KgQueryInput = z.infer<typeof kgQueryInput>;
export type KgExportInput = z.infer<typeof kgExportInput>;
export type KgSuggestPlanInput = z.infer<typeof kgSuggestPlanInput>;
export type KgInsertResult = z.infer<typeof kgInsertResult>;
export type KgQueryResult = z.infer<typeof kgQueryResult>;
export type KgExportResult = z.infer<typeof kgExportResult>;
export type KgSuggestPlanResult = z.infer<typeof kgSuggestPlanResult>;
