import { z } from 'zod';
import { validationError } from '../../errors';

/**
 * A behaviour tree over a plan: the shapes of the public implementation's compiled trees
 * (sequence, selector, parallel with a join policy, retry, timeout, guard), with leaves that do
 * real work here: a task leaf queues a ledger task for its agent (the runner launches it), a gate
 * leaf waits until a person approves, a tool leaf calls one of the ledger's own tools.
 *
 * `after` on a leaf names other nodes of the tree that must have succeeded before it starts: a
 * plan graph's dependencies compile to it, so a diamond of tasks runs as a parallel node whose
 * leaves start as their dependencies finish, not in layers.
 */

export const joinPolicies = ['all', 'any'] as const;

export type ParallelPolicy = (typeof joinPolicies)[number] | { mode: 'quota'; threshold: number };

interface Base {
  /** Unique in the tree; the compiler names the nodes that have none. */
  id?: string;
}

export type BtNode =
  | (Base & { type: 'sequence'; children: BtNode[] })
  | (Base & { type: 'selector'; children: BtNode[] })
  | (Base & { type: 'parallel'; policy: ParallelPolicy; children: BtNode[] })
  | (Base & { type: 'retry'; max_attempts: number; child: BtNode })
  | (Base & { type: 'timeout'; timeout_ms: number; child: BtNode })
  | (Base & { type: 'guard'; condition_key: string; expected?: unknown; child: BtNode })
  | (Base & { type: 'task'; node_id: string; agent?: string; after?: string[] })
  | (Base & { type: 'gate'; title: string; after?: string[] })
  | (Base & { type: 'tool'; tool: string; input?: Record<string, unknown>; after?: string[] });

/** A tree with every node named. */
export type NamedNode = BtNode & { id: string };

export interface CompiledTree {
  /** The tree's id: the graph it was compiled from, or the caller's. */
  id: string;
  root: BtNode;
}

const nodeId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:~/-]*$/, 'letters, digits and . _ : ~ / - only')
  .describe('Unique id of the node in the tree');
const after = z
  .array(nodeId)
  .max(200)
  .optional()
  .describe('Nodes of the tree that must have succeeded before this leaf starts');

/** Most nodes a tree may have: a plan of a few thousand tasks, far below any store bound. */
export const MAX_TREE_NODES = 5_000;
/** Deepest nesting accepted (a compiled plan is 3 or 4 deep). */
export const MAX_TREE_DEPTH = 64;

export const btNodeSchema: z.ZodType<BtNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('sequence'), id: nodeId.optional(), children: z.array(btNodeSchema).min(1) }),
    z.strictObject({ type: z.literal('selector'), id: nodeId.optional(), children: z.array(btNodeSchema).min(1) }),
    z.strictObject({
      type: z.literal('parallel'),
      id: nodeId.optional(),
      policy: z
        .union([z.enum(joinPolicies), z.strictObject({ mode: z.literal('quota'), threshold: z.number().int().min(1) })])
        .describe(
          'all: succeeds when every child did, and once one failed starts nothing more and fails when the running ones end; any: succeeds with the first child that does (the others are stopped); quota: with `threshold` children',
        ),
      children: z.array(btNodeSchema).min(1),
    }),
    z.strictObject({
      type: z.literal('retry'),
      id: nodeId.optional(),
      max_attempts: z
        .number()
        .int()
        .min(1)
        .max(20)
        .describe('Attempts in all, the first included: 3 runs a failing child three times (two retries)'),
      child: btNodeSchema,
    }),
    z.strictObject({
      type: z.literal('timeout'),
      id: nodeId.optional(),
      timeout_ms: z
        .number()
        .int()
        .min(1)
        .max(7 * 86_400_000)
        .describe('The child fails (its running agents are stopped) when it is still running after this long'),
      child: btNodeSchema,
    }),
    z.strictObject({
      type: z.literal('guard'),
      id: nodeId.optional(),
      condition_key: z.string().trim().min(1).max(200).describe('The run variable the guard reads'),
      expected: z
        .union([z.string(), z.number(), z.boolean(), z.null()])
        .optional()
        .describe('The value it must have (default: any true value)'),
      child: btNodeSchema,
    }),
    z.strictObject({
      type: z.literal('task'),
      id: nodeId.optional(),
      node_id: z
        .string()
        .regex(/^task-[1-9][0-9]{0,14}$/, 'a ledger task, task-<id>')
        .describe('The ledger task this leaf runs (task-<id>)'),
      agent: z.string().trim().min(1).max(100).optional().describe('The agent that runs it (default: the run’s)'),
      after,
    }),
    z.strictObject({
      type: z.literal('gate'),
      id: nodeId.optional(),
      title: z.string().trim().min(1).max(200).describe('What the person approves'),
      after,
    }),
    z.strictObject({
      type: z.literal('tool'),
      id: nodeId.optional(),
      tool: z.string().trim().min(1).max(100).describe('One of the ledger’s own tools (not plan_* nor tx_*)'),
      input: z.record(z.string(), z.unknown()).optional().describe('Its arguments'),
      after,
    }),
  ]),
);

export const compiledTreeSchema = z.strictObject({
  id: z.string().trim().min(1).max(200).describe('Id of the tree'),
  root: btNodeSchema,
});

export function childrenOf(node: BtNode): BtNode[] {
  switch (node.type) {
    case 'sequence':
    case 'selector':
    case 'parallel':
      return node.children;
    case 'retry':
    case 'timeout':
    case 'guard':
      return [node.child];
    default:
      return [];
  }
}

export function isLeaf(node: BtNode): node is Extract<BtNode, { type: 'task' | 'gate' | 'tool' }> {
  return node.type === 'task' || node.type === 'gate' || node.type === 'tool';
}

/** Every node, parents before children. */
export function walk(root: BtNode, visit: (node: BtNode, depth: number) => void, depth = 0): void {
  visit(root, depth);
  for (const child of childrenOf(root)) walk(child, visit, depth + 1);
}

/**
 * The tree with every node named (a task leaf after its task, others after their place), checked:
 * ids unique, `after` naming nodes of the tree and never the leaf itself or a node containing it,
 * a tool leaf never calling the plan or transaction tools. A refusal names the node.
 */
export function nameAndCheck(tree: CompiledTree): CompiledTree & { root: NamedNode } {
  const seen = new Set<string>();
  const tasks = new Map<string, string>();
  let count = 0;
  const name = (node: BtNode, place: string, depth: number): NamedNode => {
    if (++count > MAX_TREE_NODES)
      throw validationError(`the tree has more than ${MAX_TREE_NODES} nodes`, { max_nodes: MAX_TREE_NODES });
    if (depth > MAX_TREE_DEPTH)
      throw validationError(`the tree is nested deeper than ${MAX_TREE_DEPTH}`, { max_depth: MAX_TREE_DEPTH });
    const id = node.id ?? (node.type === 'task' && !seen.has(node.node_id) ? node.node_id : place);
    if (seen.has(id)) throw validationError(`two nodes of the tree are named ${id}`, { node_id: id });
    seen.add(id);
    if (node.type === 'task') {
      // One leaf per task: a task runs again under a retry, never as a second leaf.
      if (tasks.has(node.node_id))
        throw validationError(
          `${node.node_id} has two leaves (${tasks.get(node.node_id)} and ${id}): use a retry to run it again`,
          {
            node_id: id,
            task_id: node.node_id,
          },
        );
      tasks.set(node.node_id, id);
    }
    if (node.type === 'tool' && /^(plan_|tx_|op_cancel$)/.test(node.tool))
      throw validationError(`tool leaf ${id} calls ${node.tool}: a plan cannot run, change or cancel plans`, {
        node_id: id,
        tool: node.tool,
      });
    if (node.type === 'parallel' && typeof node.policy === 'object' && node.policy.threshold > node.children.length)
      throw validationError(
        `parallel ${id} needs ${node.policy.threshold} successes of ${node.children.length} children`,
        { node_id: id },
      );
    switch (node.type) {
      case 'sequence':
      case 'selector':
      case 'parallel':
        return { ...node, id, children: node.children.map((c, i) => name(c, `${id}/${i}`, depth + 1)) };
      case 'retry':
      case 'timeout':
      case 'guard':
        return { ...node, id, child: name(node.child, `${id}/${node.type}`, depth + 1) };
      default:
        return { ...node, id };
    }
  };
  const root = name(tree.root, 'root', 0);
  // `after` must name a node outside the leaf's own ancestry (waiting on itself would never start).
  const ancestors = new Map<string, Set<string>>();
  const collect = (node: BtNode, above: string[]): void => {
    ancestors.set(node.id!, new Set([...above, node.id!]));
    for (const child of childrenOf(node)) collect(child, [...above, node.id!]);
  };
  collect(root, []);
  walk(root, (node) => {
    if (!isLeaf(node)) return;
    for (const dep of node.after ?? []) {
      if (!seen.has(dep))
        throw validationError(`leaf ${node.id} waits for ${dep}, which is not a node of the tree`, {
          node_id: node.id,
          after: dep,
        });
      if (ancestors.get(node.id!)!.has(dep))
        throw validationError(`leaf ${node.id} waits for ${dep}, which contains it: it would never start`, {
          node_id: node.id,
          after: dep,
        });
    }
  });
  checkAfterCycles(root);
  return { id: tree.id, root: root as NamedNode };
}

/** Leaves waiting on each other in a circle would never start. */
function checkAfterCycles(root: BtNode): void {
  const edges = new Map<string, string[]>();
  // A leaf waits for the nodes it names; a node is done when the leaves under it are: so a leaf
  // also waits, through its `after`, on every leaf under the node it names.
  const leavesUnder = new Map<string, string[]>();
  const gather = (node: BtNode): string[] => {
    const own = isLeaf(node) ? [node.id!] : childrenOf(node).flatMap(gather);
    leavesUnder.set(node.id!, own);
    return own;
  };
  gather(root);
  walk(root, (node) => {
    if (isLeaf(node))
      edges.set(
        node.id!,
        (node.after ?? []).flatMap((d) => leavesUnder.get(d) ?? []),
      );
  });
  const state = new Map<string, 1 | 2>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 2) return;
    if (state.get(id) === 1)
      throw validationError(`leaves wait for each other in a circle: ${[...path, id].join(' -> ')}`, {
        cycle: [...path, id],
      });
    state.set(id, 1);
    for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
    state.set(id, 2);
  };
  for (const id of edges.keys()) visit(id, []);
}

/** The leaves of a tree, in order. */
export function leavesOf(root: BtNode): Array<Extract<NamedNode, { type: 'task' | 'gate' | 'tool' }>> {
  const out: Array<Extract<NamedNode, { type: 'task' | 'gate' | 'tool' }>> = [];
  walk(root, (n) => {
    if (isLeaf(n)) out.push(n as Extract<NamedNode, { type: 'task' | 'gate' | 'tool' }>);
  });
  return out;
}
