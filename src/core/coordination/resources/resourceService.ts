import type { LedgerEngine } from '../../ports/store';
import type { BlackboardService } from '../blackboard/blackboardService';
import { namespaceOf, toEntrySnapshot } from '../blackboard/blackboardRules';
import type { BlackboardEntry } from '../blackboard/blackboardRules';
import { correlationCondition, workflowRunId } from '../../events/correlation';
import { coordinationError } from '../coordinationErrors';
import type { EventBusService } from '../bus/eventBusService';
import type { CoordinationEvent, EventFilter } from '../bus/eventRecords';
import type { GraphService } from '../plans/graphService';
import { listGraphs, listVersions, readChange, readLatest, readVersion } from '../plans/graphStore';
import { assertWatchable, parseScUri, scUri } from './scUris';
import type { ResourceKind } from './scUris';
import { renderSseStream, serialiseForSse } from '../bus/sse';
import { normaliseEventKind } from '../bus/eventRecords';
import type { SseMessage } from '../bus/sse';
import type { ResourcesWatchInput, ResourcesWatchOutput } from './resourceContracts';

/**
 * The `sc://` registry over the store: resources_list, resources_read, resources_watch.
 * Graphs and their versions and changes come from the plan-graph tables; run streams, child
 * logs and blackboard namespaces are views of the one events log, so a watch cursor is an event
 * seq and never skips nor repeats, across processes.
 */
export interface ResourceItem {
  uri: string;
  kind: ResourceKind;
  metadata?: Record<string, unknown>;
}

/** Most events resources_read returns for a run or a child (the newest ones). */
export const READ_EVENTS_MAX = 500;

function runEvent(e: CoordinationEvent, runId: string) {
  return { seq: e.seq, ts: e.ts, kind: e.kind, level: e.level, jobId: e.jobId, runId: e.runId ?? runId, opId: e.opId, graphId: e.graphId, nodeId: e.nodeId, childId: e.childId, payload: e.payload };
}

function childLog(e: CoordinationEvent, childId: string) {
  const p = (typeof e.payload === 'object' && e.payload !== null ? e.payload : {}) as Record<string, unknown>;
  const stream = p.stream === 'stdout' || p.stream === 'stderr' ? p.stream : 'meta';
  const message = typeof p.message === 'string' ? p.message : e.kind;
  return {
    seq: e.seq,
    ts: e.ts,
    stream: stream as 'stdout' | 'stderr' | 'meta',
    message,
    jobId: e.jobId,
    runId: e.runId,
    opId: e.opId,
    graphId: e.graphId,
    nodeId: e.nodeId,
    childId: e.childId ?? childId,
    raw: typeof p.raw === 'string' ? p.raw : null,
    parsed: p.parsed ?? null,
  };
}

type Snapshot = ReturnType<typeof toEntrySnapshot>;

function blackboardEvent(e: CoordinationEvent) {
  const p = e.payload as { kind: 'set' | 'delete' | 'expire'; key: string; entry?: Omit<BlackboardEntry, 'version'> | null; previous?: BlackboardEntry | null; reason?: string | null };
  const snap = (entry: BlackboardEntry | null | undefined): Snapshot | null => (entry ? toEntrySnapshot(entry) : null);
  return {
    seq: e.seq,
    version: e.seq,
    ts: e.ts,
    kind: p.kind,
    namespace: namespaceOf(p.key),
    key: p.key,
    entry: snap(p.entry ? { ...p.entry, version: e.seq } : null),
    previous: snap(p.previous),
    reason: p.reason ?? null,
  };
}

export class ResourceService {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly graphs: GraphService,
    private readonly bus: EventBusService,
    private readonly blackboard: BlackboardService,
  ) {}

  /** Every resource, in URI order, those starting with `prefix`, at most `limit`. */
  async list(prefix: string | undefined, limit: number): Promise<ResourceItem[]> {
    const items = await this.engine.read(async (db) => {
      const out: ResourceItem[] = [];
      const graphs = await listGraphs(db);
      const stored = new Set(graphs.map((g) => g.graph_id));
      for (const g of graphs) out.push({ uri: scUri.graph(g.graph_id), kind: 'graph', metadata: { latest_version: Number(g.version), updated_at: Number(g.updated_at) } });
      for (const v of await listVersions(db)) {
        out.push({ uri: scUri.graphVersion(v.graph_id, Number(v.version)), kind: 'graph_version', metadata: { committed_at: Number(v.committed_at) } });
        if (v.tx_id) out.push({ uri: scUri.snapshot(v.graph_id, v.tx_id), kind: 'snapshot', metadata: { version: Number(v.version) } });
      }
      const runs = new Set<string>();
      for (const w of await db.all<{ id: number; name: string }>('SELECT id, name FROM workflows ORDER BY id')) {
        const id = workflowRunId(Number(w.id));
        runs.add(id);
        if (!stored.has(id)) out.push({ uri: scUri.graph(id), kind: 'graph', metadata: { latest_version: 0, workflow: w.name } });
      }
      for (const r of await db.all<{ run_id: string }>('SELECT DISTINCT run_id FROM events WHERE run_id IS NOT NULL')) runs.add(r.run_id);
      for (const run of runs) if (safe(() => scUri.runEvents(run))) out.push({ uri: scUri.runEvents(run), kind: 'run_events' });
      for (const c of await db.all<{ child_id: string }>('SELECT DISTINCT child_id FROM events WHERE child_id IS NOT NULL')) {
        if (safe(() => scUri.childLogs(c.child_id))) out.push({ uri: scUri.childLogs(c.child_id), kind: 'child_logs' });
      }
      return out;
    });
    const namespaces = new Map<string, number>();
    for (const e of await this.blackboard.query({}, 100_000)) namespaces.set(namespaceOf(e.key), (namespaces.get(namespaceOf(e.key)) ?? 0) + 1);
    for (const [ns, count] of namespaces) if (safe(() => scUri.blackboard(ns))) items.push({ uri: scUri.blackboard(ns), kind: 'blackboard_namespace', metadata: { entry_count: count } });
    return items
      .filter((i) => prefix === undefined || i.uri.startsWith(prefix))
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))
      .slice(0, limit);
  }

  /** The content of one resource. */
  async read(uri: string) {
    const target = parseScUri(uri);
    switch (target.kind) {
      case 'graph': {
        const g = await this.graphs.latest(target.graphId);
        return { uri, kind: target.kind, payload: { graphId: target.graphId, version: g.graph.graph_version, committedAt: g.committed_at, graph: g.graph } };
      }
      case 'graph_version': {
        const g = await this.graphs.version(target.graphId, target.version);
        return { uri, kind: target.kind, payload: { graphId: target.graphId, version: g.graph.graph_version, committedAt: g.committed_at, graph: g.graph } };
      }
      case 'snapshot': {
        const found = await this.engine.read(async (db) => {
          const row = await readChange(db, target.graphId, target.txId);
          if (!row) return null;
          const base = Number(row.base_version ?? 0);
          const before = base > 0 ? await readVersion(db, target.graphId, base) : await readLatest(db, target.graphId).then((l) => (l && !l.stored ? l : null));
          const final = await readVersion(db, target.graphId, Number(row.version));
          return final ? { row, final, before } : null;
        });
        if (!found) throw coordinationError('E-RES-NOT-FOUND', `no change '${target.txId}' of graph '${target.graphId}'`, { uri });
        const { row, final, before } = found;
        const baseGraph = before?.graph ?? { graph_id: target.graphId, graph_version: 0, name: final.graph.name, metadata: {}, nodes: [], edges: [] };
        const at = Number(row.committed_at);
        return {
          uri,
          kind: target.kind,
          payload: { graphId: target.graphId, txId: target.txId, baseVersion: Number(row.base_version ?? 0), startedAt: at, state: 'committed' as const, committedAt: at, finalVersion: final.graph.graph_version, baseGraph, finalGraph: final.graph, owner: row.owner, note: row.note, expiresAt: null },
        };
      }
      case 'run_events': {
        const events = await this.bus.latest(correlationCondition('run_id', target.runId), READ_EVENTS_MAX);
        return { uri, kind: target.kind, payload: { runId: target.runId, events: events.map((e) => runEvent(e, target.runId)) } };
      }
      case 'child_logs': {
        const events = await this.bus.latest(correlationCondition('child_id', target.childId), READ_EVENTS_MAX);
        return { uri, kind: target.kind, payload: { childId: target.childId, logs: events.map((e) => childLog(e, target.childId)) } };
      }
      case 'blackboard_namespace': {
        const entries = (await this.blackboard.query({}, 100_000)).filter((e) => namespaceOf(e.key) === target.namespace).map(toEntrySnapshot);
        return { uri, kind: target.kind, payload: { namespace: target.namespace, entries } };
      }
    }
  }

  /** Records of a stream after `from_seq`, waiting up to `wait_ms` for one from any process. */
  async watch(input: ResourcesWatchInput & { signal?: AbortSignal }): Promise<ResourcesWatchOutput> {
    const target = assertWatchable(input.uri);
    const limit = input.limit ?? 100;
    const base = { fromSeq: input.from_seq ?? 0, limit, waitMs: input.wait_ms, signal: input.signal };
    let records: Array<{ seq: number; kind: string } & Record<string, unknown>>;
    let next: number;
    if (target.kind === 'run_events') {
      const r = input.run ?? {};
      const filter: EventFilter = { levels: r.levels, kinds: r.kinds };
      const accept = (e: CoordinationEvent) =>
        (!r.job_ids?.length || r.job_ids.includes(e.jobId ?? '')) &&
        (!r.op_ids?.length || r.op_ids.includes(e.opId ?? '')) &&
        (!r.graph_ids?.length || r.graph_ids.includes(e.graphId ?? '')) &&
        (!r.node_ids?.length || r.node_ids.includes(e.nodeId ?? '')) &&
        (!r.child_ids?.length || r.child_ids.includes(e.childId ?? ''));
      const page = await this.bus.page({ ...base, where: correlationCondition('run_id', target.runId), filter, accept });
      records = page.events.map((e) => runEvent(e, target.runId));
      next = page.next_seq;
    } else if (target.kind === 'child_logs') {
      const page = await this.bus.page({ ...base, where: correlationCondition('child_id', target.childId) });
      records = page.events.map((e) => ({ ...childLog(e, target.childId), kind: childLog(e, target.childId).stream }));
      next = page.next_seq;
    } else {
      const ns = target.kind === 'blackboard_namespace' ? target.namespace : '';
      const b = input.blackboard ?? {};
      const keys = input.keys;
      const accept = (e: CoordinationEvent) => {
        const p = e.payload as { kind?: string; key?: string; entry?: { tags?: string[] } | null };
        if (typeof p.key !== 'string' || namespaceOf(p.key) !== ns) return false;
        if (keys?.length && !keys.includes(p.key)) return false;
        if (b.kinds?.length && !b.kinds.includes(p.kind as 'set')) return false;
        if (b.tags?.length && !b.tags.every((t) => (p.entry?.tags ?? []).includes(t.trim().toLowerCase()))) return false;
        return true;
      };
      const page = await this.bus.page({ ...base, where: { sql: "entity = 'blackboard' AND substr(entity_id, 1, ?) = ?", params: [ns.length, ns] }, accept });
      records = page.events.map(blackboardEvent);
      next = page.next_seq;
    }
    const format = input.format ?? 'json';
    // The child-log records carry their stream as kind only for the SSE event name.
    const events = target.kind === 'child_logs' ? records.map(({ kind: _stream, ...rest }) => rest) : records;
    const result = { uri: input.uri, kind: target.kind, events: events as ResourcesWatchOutput['events'], next_seq: next, format };
    if (format === 'json') return result;
    const messages: SseMessage[] = records.map((r, i) => ({ id: String(r.seq), event: normaliseEventKind(r.kind), data: serialiseForSse(events[i]) }));
    return { ...result, messages, stream: renderSseStream(messages) };
  }
}

function safe(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}
