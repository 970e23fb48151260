import type {
  BbDeleteOutput,
  BbGetOutput,
  BbQueryOutput,
  BbSetOutput,
  BbWatchOutput,
  BlackboardEntryOutput,
} from '../../core/coordination/blackboard/blackboardContracts';
import type { EventsSubscribeOutput } from '../../core/coordination/bus/eventContracts';
import type {
  GraphLockOutput,
  GraphPatchOutput,
  GraphUnlockOutput,
} from '../../core/coordination/plans/graphToolContracts';
import type { GraphBatchMutateOutput, GraphMutateOutput } from '../../core/coordination/plans/graphContracts';
import type {
  txApplyOutput,
  txBeginOutput,
  txCommitOutput,
  txRollbackOutput,
} from '../../core/coordination/plans/transactions/transactionContracts';
import type { z } from 'zod';
import type { ValuesExplainOutput } from '../../core/scheduling/stepGuards/stepGuardsContracts';
import type { ResourcesListOutput, ResourcesWatchOutput } from '../../core/coordination/resources/resourceContracts';
import { style } from '../output';
import { visible } from '../terminalText';
import type { ToolGroup } from '../toolGroups';
import { headedTable, inline, nextLine, resultLines, when } from '../resultText';

/** `latest`, `v3` or `3` for a side of `graph diff`; anything else is JSON (`{"graph": {...}}`) for the tool to judge. */
function graphSide(text: string): unknown {
  if (text === 'latest') return { latest: true };
  const version = /^v?(\d+)$/.exec(text);
  if (version) return { version: Number(version[1]) };
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type Graph = GraphMutateOutput['graph'];
const attributes = (a: Record<string, unknown>): string => {
  const pairs = Object.entries(a).map(([k, v]) => `${visible(k)}: ${inline(v, 40)}`);
  return pairs.length ? style.dim(` (${pairs.join(', ')})`) : '';
};

/** A graph on a few lines: its version, nodes and edges. */
function graphLines(g: Graph): string[] {
  return [
    `${style.bold(visible(g.graph_id))} v${g.graph_version}: ${g.nodes.length} node(s), ${g.edges.length} edge(s)`,
    ...g.nodes.map((n) => `  ${visible(n.id)}${n.label ? ` “${visible(n.label)}”` : ''}${attributes(n.attributes)}`),
    ...g.edges.map(
      (e) =>
        `  ${visible(e.from)} → ${visible(e.to)}${e.label ? ` ${style.dim(visible(e.label))}` : ''}${attributes(e.attributes)}`,
    ),
  ];
}

const appliedLines = (applied: GraphMutateOutput['applied']): string[] =>
  applied.map((a) => `${a.changed ? style.green('✓') : style.dim('·')} ${visible(a.description)}`);

const entryLine = (e: BlackboardEntryOutput): string =>
  `${style.bold(visible(e.key))} = ${inline(e.value)}  ${style.dim(`v${e.version}${e.tags.length ? ` [${e.tags.map(visible).join(', ')}]` : ''}${e.expires_at ? ` expires ${when(e.expires_at)}` : ''}`)}`;

/** The blackboard: entries every agent of the workspace reads and writes. */
export const blackboardGroup: ToolGroup = {
  name: 'bb',
  commands: [
    {
      name: 'set',
      tool: 'bb_set',
      args: ['key', 'value'],
      summary: 'Write one entry; the value is JSON when it parses as JSON, else the text',
      format: (r: BbSetOutput) => [entryLine(r)],
    },
    {
      name: 'batch-set',
      tool: 'bb_batch_set',
      args: ['entries'],
      summary: 'Write 1–100 entries at once (all or none)',
      format: (r: { entries: BlackboardEntryOutput[] }) => r.entries.map(entryLine),
    },
    {
      name: 'get',
      tool: 'bb_get',
      args: ['key'],
      summary: 'Read one entry',
      format: (r: BbGetOutput) => [entryLine(r.entry)],
    },
    {
      name: 'query',
      tool: 'bb_query',
      summary: 'List entries by key, key prefix or tags, most recently updated first',
      format: (r: BbQueryOutput) =>
        headedTable(
          ['KEY', 'VERSION', 'TAGS', 'VALUE'],
          r.entries.map((e) => [
            style.bold(visible(e.key)),
            `v${e.version}`,
            e.tags.map(visible).join(', ') || '-',
            inline(e.value),
          ]),
          'No blackboard entries match.',
        ),
    },
    {
      name: 'delete',
      tool: 'bb_delete',
      args: ['key'],
      summary: 'Delete one entry',
      format: (r: BbDeleteOutput) => [`${style.green('deleted')} ${visible(r.key)}`],
    },
    {
      name: 'watch',
      tool: 'bb_watch',
      summary: 'Changes after a version; waits up to --wait-ms (≤ 50 s) for one',
      format: (r: BbWatchOutput) => [
        ...(r.events.length
          ? r.events.map(
              (e) =>
                `v${e.version}  ${e.kind.padEnd(6)}  ${style.bold(visible(e.key))}${e.entry ? ` = ${inline(e.entry.value)}` : ''}`,
            )
          : [style.dim('No changes.')]),
        nextLine('--start-version', r.next_version),
      ],
    },
  ],
};

/** Plan graphs: a workflow's tasks and their dependencies, versioned. */
export const graphGroup: ToolGroup = {
  name: 'graph',
  commands: [
    {
      name: 'mutate',
      tool: 'graph_mutate',
      args: ['graph', 'operations'],
      summary: 'Apply operations to a graph given inline and print the result (nothing is stored)',
      format: (r: GraphMutateOutput) => [...appliedLines(r.applied), ...graphLines(r.graph)],
    },
    {
      name: 'batch-mutate',
      tool: 'graph_batch_mutate',
      args: ['graph_id', 'operations'],
      summary: 'Apply operations to a stored graph in one transaction',
      format: (r: GraphBatchMutateOutput) => [
        `${visible(r.graph_id)} v${r.base_version} → v${r.committed_version}${r.changed ? '' : style.dim(' (unchanged)')}`,
        ...appliedLines(r.applied),
        ...graphLines(r.graph),
      ],
    },
    {
      name: 'diff',
      tool: 'graph_diff',
      args: ['graph_id', 'from', 'to'],
      summary: 'Compare two versions (latest, v<N>, or a JSON selector) as an RFC 6902 patch',
      parse: { from: graphSide, to: graphSide },
    },
    {
      name: 'patch',
      tool: 'graph_patch',
      args: ['graph_id', 'patch'],
      summary: 'Apply an RFC 6902 patch to a stored graph, invariants checked',
      format: (r: GraphPatchOutput) => [
        `${visible(r.graph_id)} v${r.base_version} → v${r.committed_version}${r.changed ? '' : style.dim(' (unchanged)')}, ${r.operations_applied} operation(s)`,
        ...(r.invariants && !r.invariants.ok ? resultLines({ violations: r.invariants.violations }) : []),
        ...graphLines(r.graph),
      ],
    },
    {
      name: 'lock',
      tool: 'graph_lock',
      args: ['graph_id'],
      summary: 'Take or refresh the lock that keeps other writers out',
      format: (r: GraphLockOutput) => [
        `${style.bold(visible(r.lock_id))} on ${visible(r.graph_id)} held by ${visible(r.holder)} until ${when(r.expires_at)}`,
      ],
    },
    {
      name: 'unlock',
      tool: 'graph_unlock',
      args: ['lock_id'],
      summary: 'Release a lock',
      format: (r: GraphUnlockOutput) => [
        `${style.green('released')} ${visible(r.lock_id)} on ${visible(r.graph_id)}${r.expired ? style.dim(' (it had already expired)') : ''}`,
      ],
    },
    {
      name: 'explain',
      tool: 'values_explain',
      args: ['graph_id'],
      summary: 'Why each step of a plan may start now or not, guard by guard',
      format: (r: ValuesExplainOutput) => [
        `${visible(r.graph_id)} v${r.graph_version}: ${r.decision.allowed_steps} of ${r.decision.steps} step(s) may start${r.decision.truncated ? style.dim(' (more steps: --limit)') : ''}`,
        ...r.steps.map(
          (s) =>
            `${s.allowed ? style.green('✓') : style.yellow('✗')} ${visible(s.node_id)}${s.status ? style.dim(` (${s.status})`) : ''}${
              s.allowed
                ? ''
                : `: ${s.guards
                    .filter((g) => !g.passed)
                    .map((g) => visible(g.message))
                    .join('; ')}`
            }`,
        ),
        ...(r.plan.lock ? [`locked by ${visible(r.plan.lock.holder)}`] : []),
        ...r.plan.transactions.map((t) => `transaction ${t.tx_id} open${t.owner ? ` by ${visible(t.owner)}` : ''}`),
      ],
    },
    {
      name: 'tx-begin',
      tool: 'tx_begin',
      args: ['graph_id'],
      summary: 'Begin a transaction on a stored graph: prints its tx_id for tx-apply, tx-commit, tx-rollback',
      format: (r: z.infer<typeof txBeginOutput>) => [
        `${style.bold(r.tx_id)} on ${visible(r.graph_id)} v${r.base_version}, open until ${when(r.expires_at)}`,
      ],
    },
    {
      name: 'tx-apply',
      tool: 'tx_apply',
      args: ['tx_id', 'operations'],
      summary: "Apply operations to a transaction's working copy (nothing is committed yet)",
      format: (r: z.infer<typeof txApplyOutput>) => [
        `${visible(r.tx_id)}: ${visible(r.graph_id)} v${r.base_version} → v${r.preview_version} on commit`,
        ...appliedLines(r.applied),
      ],
    },
    {
      name: 'tx-commit',
      tool: 'tx_commit',
      args: ['tx_id'],
      summary: 'Commit a transaction (refused when the graph moved and the changes do not commute)',
      format: (r: z.infer<typeof txCommitOutput>) => [
        `${visible(r.graph_id)} v${r.base_version} → v${r.version}${r.changed ? '' : style.dim(' (unchanged)')}${r.merged ? style.dim(' (merged with commits made meanwhile)') : ''}`,
        ...graphLines(r.graph),
      ],
    },
    {
      name: 'tx-rollback',
      tool: 'tx_rollback',
      args: ['tx_id'],
      summary: 'Roll a transaction back: nothing is committed',
      format: (r: z.infer<typeof txRollbackOutput>) => [
        `${style.green('rolled back')} ${visible(r.tx_id)} on ${visible(r.graph_id)}${r.expired ? style.dim(' (it had already expired)') : ''}`,
      ],
    },
  ],
};

/** The sc:// registry of graphs, runs, child logs, snapshots and blackboard namespaces. */
export const resourcesGroup: ToolGroup = {
  name: 'resources',
  commands: [
    {
      name: 'list',
      tool: 'resources_list',
      summary: 'List sc:// resources, optionally under a prefix',
      format: (r: ResourcesListOutput) =>
        headedTable(
          ['URI', 'KIND'],
          r.items.map((i) => [visible(i.uri), i.kind]),
          'No resources.',
        ),
    },
    { name: 'read', tool: 'resources_read', args: ['uri'], summary: 'Read one sc:// resource' },
    {
      name: 'watch',
      tool: 'resources_watch',
      args: ['uri'],
      summary: 'Records of a resource after a seq; waits up to --wait-ms (≤ 50 s) for one',
      format: (r: ResourcesWatchOutput) => [
        ...(r.events.length ? resultLines(r.events) : [style.dim('No new records.')]),
        nextLine('--from-seq', r.next_seq),
      ],
    },
  ],
};

/** The event bus over the events log. */
export const eventsGroup: ToolGroup = {
  name: 'events',
  commands: [
    {
      name: 'subscribe',
      tool: 'events_subscribe',
      summary: 'Events after a seq, filtered; waits up to --wait-ms (≤ 50 s) for one',
      format: (r: EventsSubscribeOutput) => [
        ...headedTable(
          ['SEQ', 'TIME', 'KIND', 'LEVEL', 'DATA'],
          r.events.map((e) => [String(e.seq), when(e.ts), visible(e.kind), e.level, inline(e.data, 60)]),
          'No new events.',
        ),
        nextLine('--from-seq', r.next_seq),
      ],
    },
  ],
};
