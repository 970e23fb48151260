import { z } from 'zod';
import {
  attributeRecord,
  attributeValue,
  correlationInputWithoutGraph,
  idempotencyKeyInput,
  idempotencyOutput,
  opIdOutput,
} from '../../contracts/callOptions';

/**
 * Contracts of `graph_mutate` and `graph_batch_mutate`, and the graph descriptor every graph
 * tool exchanges. Field names, bounds and operations follow the public implementation
 * (self-codex `src/tools/graph/mutate.ts`, `src/tools/graphBatchTools.ts`).
 */

const nodeId = z.string().min(1).max(200);
const label = z.string().max(240);

/** A node as a caller writes it. */
export const graphNodeInput = z.strictObject({
  id: nodeId.describe('Node id, unique in the graph (for a plan: the task id)'),
  label: label.nullable().optional().describe('Human label of the node'),
  attributes: attributeRecord
    .optional()
    .describe('Scalar attributes (string, number or boolean), e.g. status and title'),
});

/** An edge as a caller writes it. */
export const graphEdgeInput = z.strictObject({
  from: nodeId.describe('Source node id (for a plan: the dependency)'),
  to: nodeId.describe('Target node id (for a plan: the task that depends on the source)'),
  label: label.nullable().optional().describe('Label of the edge, e.g. depends_on'),
  attributes: attributeRecord.optional().describe('Scalar attributes of the edge'),
});

/** A whole graph given inline (`graph_mutate`, `graph_diff` selectors). */
export const graphDescriptorInput = z.strictObject({
  graph_id: z.string().min(1).max(200).optional().describe('Id of the graph'),
  graph_version: z.number().int().positive().optional().describe('Version of the graph this descriptor is'),
  name: z.string().min(1).max(200).default('workflow').describe('Name of the graph'),
  metadata: attributeRecord.optional().describe('Scalar metadata of the graph'),
  nodes: z.array(graphNodeInput).max(10_000).describe('Nodes of the graph'),
  edges: z.array(graphEdgeInput).max(50_000).describe('Directed edges of the graph'),
});

/** A normalised node as results carry it. */
export const graphNodeOutput = z.strictObject({
  id: z.string().describe('Node id'),
  label: z.string().nullable().describe('Label, null when none'),
  attributes: attributeRecord.describe('Scalar attributes, keys sorted'),
});

/** A normalised edge as results carry it. */
export const graphEdgeOutput = z.strictObject({
  from: z.string().describe('Source node id'),
  to: z.string().describe('Target node id'),
  label: z.string().nullable().describe('Label, null when none'),
  attributes: attributeRecord.describe('Scalar attributes, keys sorted'),
});

/** A normalised graph as results carry it: nodes by id, edges by (from, to), keys sorted. */
export const planGraphOutput = z.strictObject({
  graph_id: z.string().describe('Id of the graph'),
  graph_version: z.number().int().describe('Committed version of the graph'),
  name: z.string().describe('Name of the graph'),
  metadata: attributeRecord.describe('Scalar metadata of the graph'),
  nodes: z.array(graphNodeOutput).describe('Nodes, sorted by id'),
  edges: z.array(graphEdgeOutput).describe('Edges, sorted by source then target'),
});

const opName = <N extends string>(name: N, what: string) => z.literal(name).describe(what);

/** The operations `graph_mutate` and `graph_batch_mutate` apply, in order. */
export const graphMutationOperation = z.discriminatedUnion('op', [
  z.strictObject({
    op: opName('add_node', 'Add a node; an existing node gets the label and attributes merged in'),
    node: graphNodeInput.describe('The node to add'),
  }),
  z.strictObject({
    op: opName('remove_node', 'Remove a node and every edge touching it'),
    id: nodeId.describe('Id of the node to remove'),
  }),
  z.strictObject({
    op: opName('rename_node', 'Change a node id, rewiring its edges'),
    id: nodeId.describe('Current id'),
    new_id: nodeId.describe('New id; must not exist yet'),
  }),
  z.strictObject({
    op: opName('add_edge', 'Add an edge; an existing edge gets the label and attributes merged in'),
    edge: graphEdgeInput.describe('The edge to add'),
  }),
  z.strictObject({
    op: opName('remove_edge', 'Remove the edge between two nodes'),
    from: nodeId.describe('Source node id'),
    to: nodeId.describe('Target node id'),
  }),
  z.strictObject({
    op: opName('set_node_attribute', 'Set one attribute of a node, or remove it with null'),
    id: nodeId.describe('Node id'),
    key: z.string().min(1).max(200).describe('Attribute name'),
    value: attributeValue.nullable().describe('New value; null removes the attribute'),
  }),
  z.strictObject({
    op: opName('set_edge_attribute', 'Set one attribute of an edge, or remove it with null'),
    from: nodeId.describe('Source node id'),
    to: nodeId.describe('Target node id'),
    key: z.string().min(1).max(200).describe('Attribute name'),
    value: attributeValue.nullable().describe('New value; null removes the attribute'),
  }),
  z.strictObject({
    op: opName('patch_metadata', 'Set and remove keys of the graph metadata'),
    set: attributeRecord.optional().describe('Metadata keys to set'),
    unset: z.array(z.string().min(1).max(200)).max(200).optional().describe('Metadata keys to remove'),
  }),
]);

/** Most operations one call applies. */
export const GRAPH_OPERATIONS_MAX = 200;

const operations = z
  .array(graphMutationOperation)
  .min(1)
  .max(GRAPH_OPERATIONS_MAX)
  .describe('Operations applied in order; the whole list succeeds or nothing changes');

/** What one operation did. */
export const graphMutationRecordOutput = z.strictObject({
  op: z.string().describe('The operation name'),
  description: z.string().describe('What the operation did, or why it changed nothing'),
  changed: z.boolean().describe('False when the operation was a no-op'),
});

export const graphMutateInput = z.strictObject({
  graph: graphDescriptorInput.describe('The graph to transform, given inline'),
  operations,
  ...correlationInputWithoutGraph,
});

export const graphMutateOutput = z.strictObject({
  ...opIdOutput,
  graph: planGraphOutput.describe('The resulting graph; its version grows by one only when something changed'),
  applied: z.array(graphMutationRecordOutput).describe('One record per operation, in order'),
});

const owner = z.string().trim().min(1).max(120);
const note = z.string().trim().min(1).max(240);

export const graphBatchMutateInput = z.strictObject({
  graph_id: z.string().min(1).max(200).describe('Id of the stored graph to change'),
  operations,
  expected_version: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Refuse the change unless this is the committed version (optimistic concurrency)'),
  owner: owner.optional().describe('Who makes the change; must be the lock holder when the graph is locked'),
  note: note.optional().describe('Why the change is made, kept with the version'),
  ...idempotencyKeyInput,
  ...correlationInputWithoutGraph,
});

export const graphBatchMutateOutput = z.strictObject({
  ...opIdOutput,
  graph_id: z.string().describe('Id of the graph'),
  base_version: z.number().int().describe('Version the operations were applied to'),
  committed_version: z.number().int().describe('Version after the call; equals base_version when nothing changed'),
  committed_at: z.number().int().describe('Commit time (epoch ms); the previous commit time when nothing changed'),
  changed: z.boolean().describe('Whether the version moved'),
  operations_applied: z.number().int().describe('Number of operations applied'),
  applied: z.array(graphMutationRecordOutput).describe('One record per operation, in order'),
  graph: planGraphOutput.describe('The committed graph'),
  owner: z.string().nullable().describe('Owner recorded with the change'),
  note: z.string().nullable().describe('Note recorded with the change'),
  ...idempotencyOutput,
});

export type GraphDescriptorInput = z.input<typeof graphDescriptorInput>;
export type GraphMutationOperation = z.infer<typeof graphMutationOperation>;
export type GraphMutationRecord = z.infer<typeof graphMutationRecordOutput>;
export type GraphMutateInput = z.infer<typeof graphMutateInput>;
export type GraphMutateOutput = z.infer<typeof graphMutateOutput>;
export type GraphBatchMutateInput = z.infer<typeof graphBatchMutateInput>;
export type GraphBatchMutateOutput = z.infer<typeof graphBatchMutateOutput>;
