import type { CnpAnnounceResult, CnpAwardResult } from '../../core/scheduling/contractNet/contractNetContracts';
import type { KgExportResult, KgInsertResult, KgQueryResult } from '../../core/scheduling/knowledge/knowledgeContracts';
import type { StigMarkResult, StigSnapshotResult } from '../../core/scheduling/stigmergy/stigmergyContracts';
import { style } from '../output';
import { headedTable, inline, nextLine, when } from '../resultText';
import { visible } from '../terminalText';
import type { ToolGroup } from '../toolGroups';

const round = (n: number): string => String(Math.round(n * 1000) / 1000);

type Triple = KgQueryResult['triples'][number];
const tripleRows = (triples: readonly Triple[]): string[][] =>
  triples.map((t) => [
    visible(t.id),
    visible(t.subject),
    visible(t.predicate),
    inline(t.object, 50),
    round(t.confidence),
    visible(t.source ?? '-'),
  ]);
const tripleTable = (triples: readonly Triple[]): string[] =>
  headedTable(['ID', 'SUBJECT', 'PREDICATE', 'OBJECT', 'CONFIDENCE', 'SOURCE'], tripleRows(triples), 'No facts match.');

type Call = Pick<CnpAnnounceResult, 'call_id' | 'task_id' | 'status' | 'awarded_agent_id' | 'bids'>;
const callLines = (c: Call): string[] => [
  `${style.bold(visible(c.call_id))} for ${visible(c.task_id)}: ${c.status}${c.awarded_agent_id ? ` → ${style.green(visible(c.awarded_agent_id))}` : ''}`,
  ...headedTable(
    ['BIDDER', 'COST', 'KIND'],
    c.bids.map((b) => [visible(b.agent_id), round(b.cost), b.kind]),
    'No bids.',
  ),
];

/** Stigmergy: marks agents leave on the areas they change, fading with time. */
export const stigmergyGroup: ToolGroup = {
  name: 'stig',
  commands: [
    {
      name: 'mark',
      tool: 'stig_mark',
      args: ['node_id', 'type', 'intensity'],
      summary: 'Leave a mark on an area (a path, glob or task:N)',
      format: (r: StigMarkResult) => [
        `${style.bold(visible(r.point.node_id))} ${visible(r.point.type)} ${round(r.point.intensity)} ${style.dim(`(area total ${round(r.node_total.intensity)})`)}`,
      ],
    },
    { name: 'batch', tool: 'stig_batch', args: ['entries'], summary: 'Leave several marks at once (all or none)' },
    { name: 'decay', tool: 'stig_decay', args: ['half_life_ms'], summary: 'Fade every mark by the given half-life' },
    {
      name: 'snapshot',
      tool: 'stig_snapshot',
      summary: 'Where agents are working: the strongest areas and their marks',
      format: (r: StigSnapshotResult) =>
        headedTable(
          ['AREA', 'TOTAL', 'MARKS'],
          r.totals.map((t) => [
            visible(t.node_id),
            round(t.intensity),
            r.points
              .filter((p) => p.node_id === t.node_id)
              .map((p) => `${visible(p.type)} ${round(p.intensity)}`)
              .join(', '),
          ]),
          'No marks.',
        ),
    },
  ],
};

/** Contract-net: tasks put out for bids and awarded. */
export const contractNetGroup: ToolGroup = {
  name: 'cnp',
  commands: [
    {
      name: 'announce',
      tool: 'cnp_announce',
      args: ['task_id'],
      summary: 'Put a task out for bids (and award it unless --no-award)',
      format: (r: CnpAnnounceResult) => [
        ...callLines(r),
        ...(r.notAwardedReason ? [style.dim(`not awarded: ${r.notAwardedReason}`)] : []),
      ],
    },
    {
      name: 'bid',
      tool: 'cnp_bid',
      args: ['call_id', 'agent_id', 'cost'],
      summary: 'Bid on an open call for an agent',
      format: (r: Call) => callLines(r),
    },
    {
      name: 'award',
      tool: 'cnp_award',
      args: ['call_id', 'agent_id'],
      summary: 'Award an open call (to the best bid, or to the agent named)',
      format: (r: CnpAwardResult) => [
        `${visible(r.call_id)} → ${style.green(visible(r.agent_id))} at cost ${round(r.cost)} ${style.dim(`(effective ${round(r.effective_cost)}, ${when(r.awarded_at)})`)}`,
      ],
    },
    {
      name: 'refresh-bounds',
      tool: 'cnp_refresh_bounds',
      args: ['call_id'],
      summary: 'Change the bounds of an open call and refresh its automatic bids',
    },
    { name: 'telemetry', tool: 'cnp_watcher_telemetry', summary: 'Counters of the watcher that refreshes open calls' },
  ],
};

/** The knowledge graph: facts as triples, and plans suggested from them. */
export const knowledgeGroup: ToolGroup = {
  name: 'kg',
  commands: [
    {
      name: 'insert',
      tool: 'kg_insert',
      args: ['triples'],
      summary: 'Add or update facts',
      format: (r: KgInsertResult) => [
        ...tripleTable(r.inserted),
        style.dim(`${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged; ${r.total} in the graph`),
      ],
    },
    {
      name: 'query',
      tool: 'kg_query',
      summary: 'Facts matching a subject, predicate, object or source',
      format: (r: KgQueryResult) => [...tripleTable(r.triples), nextLine('--cursor', r.next_cursor)],
    },
    {
      name: 'export',
      tool: 'kg_export',
      summary: 'Every fact, a page at a time',
      format: (r: KgExportResult) => [...tripleTable(r.triples), nextLine('--cursor', r.next_cursor)],
    },
    {
      name: 'suggest-plan',
      tool: 'kg_suggest_plan',
      args: ['goal'],
      summary: 'Suggest a plan fragment for a goal from the facts',
    },
  ],
};
