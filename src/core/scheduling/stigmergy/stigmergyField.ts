import { validationError } from '../../errors';
import { MapWriter, mapEntries, mapFrom, mapGet, mapValues } from './shardedMap';
import type { ShardedMap } from './shardedMap';

/**
 * The stigmergic field: marks ("pheromones") on nodes — for us workspace paths and write-scope
 * globs — keyed by (node_id, type), each with an intensity that decays by half-life. Pure: a
 * field goes in, a new field comes out, the input is never changed, and `now` (epoch ms) is
 * always passed in. Shapes and rules follow the public implementation of the orchestrator
 * seed (src/coord/stigmergy.ts): types are trimmed and lower-cased, intensities accumulate and
 * are clamped to the maximum, decay is exponential and drops points under a floor.
 */

/** How a field clamps, normalises and evaporates. */
export interface StigmergyConfig {
  /** Lower bound used when normalising (intensities at or below it read as 0). */
  min_intensity: number;
  /** Upper bound of one point (and of a node total); null = unbounded. */
  max_intensity: number | null;
  /** Points whose intensity falls to or below this evaporate (are removed). */
  evaporation_floor: number;
  /** When set, a mark first decays the point it adds to, so old pressure is not revived. */
  half_life_ms: number | null;
}

/** One mark: the intensity of one type on one node. */
export interface StigPoint {
  node_id: string;
  type: string;
  intensity: number;
  updated_at: number;
}

/** The intensity of every type on one node, summed. */
export interface StigNodeTotal {
  node_id: string;
  intensity: number;
  updated_at: number;
}

/** What one mark or decay step changed (intensity 0 = the point evaporated or was removed). */
export interface StigChange {
  point: StigPoint;
  node_total: StigNodeTotal;
}

/** The running sum of one node's marks (unclamped) and its last change. */
export interface NodeSum {
  sum: number;
  updated_at: number;
}

/**
 * A field: configuration, points by (node, type) and running sums by node, in copy-on-write
 * shards so a mark in a large field copies little. Treat as immutable; read it with
 * `fieldPoints`, `nodeTotal`, `nodeSums`.
 */
export interface StigmergyField {
  readonly config: StigmergyConfig;
  readonly points: ShardedMap<StigPoint>;
  readonly sums: ShardedMap<NodeSum>;
}

/** One deposit asked of the field. */
export interface StigMarkEntry {
  node_id: string;
  type: string;
  intensity: number;
}

/** Smallest intensity kept by default (the public implementation's epsilon). */
export const defaultEvaporationFloor = 1e-6;

/** An empty field; bounds default to [0, unbounded). */
export function createField(config: Partial<StigmergyConfig> = {}, points: readonly StigPoint[] = []): StigmergyField {
  const full: StigmergyConfig = {
    min_intensity: config.min_intensity ?? 0,
    max_intensity: config.max_intensity ?? null,
    evaporation_floor: config.evaporation_floor ?? defaultEvaporationFloor,
    half_life_ms: config.half_life_ms ?? null,
  };
  if (!(full.min_intensity >= 0) || (full.max_intensity !== null && !(full.max_intensity > full.min_intensity))) {
    throw validationError('the field needs 0 <= min_intensity < max_intensity', { error: 'E-STIG-BOUNDS' });
  }
  if (full.half_life_ms !== null && !(full.half_life_ms > 0)) {
    throw validationError('half_life_ms must be positive when set', { error: 'E-STIG-HALF-LIFE' });
  }
  const map = mapFrom(points.map((p): [string, StigPoint] => [pointKey(p.node_id, p.type), { ...p }]));
  return { config: full, points: map, sums: sumsOf(mapValues(map)) };
}

/** Every point of a field (to persist it); `createField(config, points)` reads them back. */
export function fieldPoints(field: StigmergyField): StigPoint[] {
  return [...mapValues(field.points)].map((p) => ({ ...p }));
}

/** Every point of a field, without copying (do not change them). */
export function pointValues(field: StigmergyField): Iterable<StigPoint> {
  return mapValues(field.points);
}

/** Every node's running sum, without copying. */
export function nodeSums(field: StigmergyField): Iterable<[string, NodeSum]> {
  return mapEntries(field.sums);
}

/** The total of one node, clamped like the public implementation clamps it. */
export function nodeTotal(field: StigmergyField, nodeId: string): StigNodeTotal | undefined {
  const sum = mapGet(field.sums, nodeId);
  return sum
    ? { node_id: nodeId, intensity: clampIntensity(field.config, sum.sum), updated_at: sum.updated_at }
    : undefined;
}

/** Node ids are paths: `\` becomes `/`, `./` and repeated or trailing slashes go. */
export function normaliseNodeId(nodeId: string): string {
  return nodeId
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/+$/, '$1');
}

/** Types are case-insensitive names. */
export function normaliseType(type: string): string {
  return type.trim().toLowerCase();
}

/** Why an entry cannot be applied, or null when it can. */
export function markProblem(entry: StigMarkEntry): { code: string; message: string } | null {
  if (typeof entry.node_id !== 'string' || normaliseNodeId(entry.node_id).length === 0)
    return { code: 'E-STIG-NODE', message: 'node_id must not be empty' };
  if (typeof entry.type !== 'string' || normaliseType(entry.type).length === 0)
    return { code: 'E-STIG-TYPE', message: 'pheromone type must not be empty' };
  if (typeof entry.intensity !== 'number' || !Number.isFinite(entry.intensity) || entry.intensity <= 0) {
    return { code: 'E-STIG-INTENSITY', message: 'intensity must be a positive finite number' };
  }
  return null;
}

/** Adds one mark. Throws a ValidationError (data.error = E-STIG-…) for a bad entry. */
export function mark(
  field: StigmergyField,
  entry: StigMarkEntry,
  now: number,
): { field: StigmergyField; change: StigChange } {
  const problem = markProblem(entry);
  if (problem) throw validationError(problem.message, { error: problem.code, entry: { ...entry } });
  const points = new MapWriter(field.points);
  const sums = new MapWriter(field.sums);
  const change = applyMark(field.config, points, sums, entry, now);
  return { field: { config: field.config, points: points.done(), sums: sums.done() }, change };
}

/**
 * Applies several marks as one: every entry is validated before anything is applied, so one bad
 * entry refuses the whole batch (ValidationError, data.error = E-BULK-PARTIAL, data.failures
 * listing each bad entry, data.rolled_back = true) and the field stays exactly as it was. The
 * changes, in entry order, exist only once the whole batch has been applied.
 */
export function batchMark(
  field: StigmergyField,
  entries: readonly StigMarkEntry[],
  now: number,
): { field: StigmergyField; changes: StigChange[] } {
  const failures = entries.flatMap((entry, index) => {
    const problem = markProblem(entry);
    return problem ? [{ index, code: problem.code, message: problem.message, stage: 'mark', entry: { ...entry } }] : [];
  });
  if (failures.length > 0) {
    const first = failures[0];
    throw validationError(`stigmergy batch refused: entry ${first.index} — ${first.message}; nothing was applied`, {
      error: 'E-BULK-PARTIAL',
      failures,
      rolled_back: true,
    });
  }
  const points = new MapWriter(field.points);
  const sums = new MapWriter(field.sums);
  const changes = entries.map((entry) => applyMark(field.config, points, sums, entry, now));
  return { field: { config: field.config, points: points.done(), sums: sums.done() }, changes };
}

/**
 * Decays every point to `now`: I × 0.5^((now − updated_at) / halfLifeMs). Points at or under
 * the evaporation floor are removed (their change reads intensity 0). Changes are sorted by
 * node then type; points already at `now` are untouched.
 */
export function decay(
  field: StigmergyField,
  halfLifeMs: number,
  now: number,
): { field: StigmergyField; changes: StigChange[] } {
  if (!Number.isFinite(halfLifeMs) || halfLifeMs <= 0) {
    throw validationError('half_life_ms must be a positive finite number', { error: 'E-STIG-HALF-LIFE' });
  }
  const kept: [string, StigPoint][] = [];
  const touched: StigPoint[] = [];
  for (const p of mapValues(field.points)) {
    const elapsed = now - p.updated_at;
    if (elapsed <= 0) {
      kept.push([pointKey(p.node_id, p.type), p]);
      continue;
    }
    const intensity = p.intensity * Math.pow(0.5, elapsed / halfLifeMs);
    if (intensity <= field.config.evaporation_floor) {
      touched.push({ ...p, intensity: 0, updated_at: now });
    } else {
      const next = { ...p, intensity, updated_at: now };
      kept.push([pointKey(p.node_id, p.type), next]);
      touched.push(next);
    }
  }
  const points = mapFrom(kept);
  const result: StigmergyField = { config: field.config, points, sums: sumsOf(mapValues(points)) };
  return { field: result, changes: changesFor(result, touched, now) };
}

/** Removes every point whose type `matches` (e.g. the marks of a task that ended). */
export function removeMarks(
  field: StigmergyField,
  matches: (point: StigPoint) => boolean,
  now: number,
): { field: StigmergyField; changes: StigChange[] } {
  const removed: StigPoint[] = [];
  for (const p of mapValues(field.points)) if (matches(p)) removed.push({ ...p, intensity: 0, updated_at: now });
  if (removed.length === 0) return { field, changes: [] };
  const points = new MapWriter(field.points);
  for (const p of removed) points.delete(pointKey(p.node_id, p.type));
  const done = points.done();
  const result: StigmergyField = { config: field.config, points: done, sums: sumsOf(mapValues(done)) };
  return { field: result, changes: changesFor(result, removed, now) };
}

function applyMark(
  config: StigmergyConfig,
  points: MapWriter<StigPoint>,
  sums: MapWriter<NodeSum>,
  entry: StigMarkEntry,
  now: number,
): StigChange {
  const nodeId = normaliseNodeId(entry.node_id);
  const type = normaliseType(entry.type);
  const key = pointKey(nodeId, type);
  const existing = points.get(key);
  let previous = existing?.intensity ?? 0;
  if (existing && config.half_life_ms !== null && now > existing.updated_at) {
    previous *= Math.pow(0.5, (now - existing.updated_at) / config.half_life_ms);
  }
  const intensity = clampIntensity(config, previous + entry.intensity);
  const point: StigPoint = { node_id: nodeId, type, intensity, updated_at: now };
  points.set(key, point);
  const sum = sums.get(nodeId)?.sum ?? 0;
  const next = { sum: sum - (existing?.intensity ?? 0) + intensity, updated_at: now };
  sums.set(nodeId, next);
  return {
    point: { ...point },
    node_total: { node_id: nodeId, intensity: clampIntensity(config, next.sum), updated_at: now },
  };
}

function changesFor(field: StigmergyField, touched: StigPoint[], now: number): StigChange[] {
  return touched
    .sort((a, b) => compareText(a.node_id, b.node_id) || compareText(a.type, b.type))
    .map((point) => ({
      point,
      node_total: nodeTotal(field, point.node_id) ?? { node_id: point.node_id, intensity: 0, updated_at: now },
    }));
}

function sumsOf(points: Iterable<StigPoint>): ShardedMap<NodeSum> {
  const sums = new Map<string, NodeSum>();
  for (const p of points) {
    const s = sums.get(p.node_id);
    if (s) {
      s.sum += p.intensity;
      s.updated_at = Math.max(s.updated_at, p.updated_at);
    } else {
      sums.set(p.node_id, { sum: p.intensity, updated_at: p.updated_at });
    }
  }
  return mapFrom(sums);
}

/** An intensity clamped to [0, max_intensity] (marks and node totals alike, as the public implementation clamps them). */
export function clampIntensity(config: StigmergyConfig, value: number): number {
  return config.max_intensity === null ? Math.max(0, value) : Math.min(config.max_intensity, Math.max(0, value));
}

function pointKey(nodeId: string, type: string): string {
  return `${nodeId}\u0000${type}`;
}

/** Plain code-unit order: the same on every machine, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
