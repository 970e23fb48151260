import { coordinationError } from '../coordinationErrors';

/**
 * The `sc://` resource URIs (the public implementation's grammar, self-codex
 * `src/resources/registry.ts` `parseUri`):
 *
 * | URI                               | kind                   |
 * |-----------------------------------|------------------------|
 * | `sc://graphs/<graphId>`           | `graph`                |
 * | `sc://graphs/<graphId>@v<N>`      | `graph_version` (N ≥ 1)|
 * | `sc://snapshots/<graphId>/<txId>` | `snapshot`             |
 * | `sc://runs/<runId>/events`        | `run_events`           |
 * | `sc://children/<childId>/logs`    | `child_logs`           |
 * | `sc://blackboard/<namespace>`     | `blackboard_namespace` |
 *
 * Stricter than the public parser: a segment is 1–200 characters with no `/`, `?`, `#`,
 * whitespace or control character (and a graph id has no `@`), so every id formats back to
 * the URI it came from. Anything else is refused with `E-RES-INVALID`.
 */
export const resourceKinds = ['graph', 'graph_version', 'run_events', 'child_logs', 'snapshot', 'blackboard_namespace'] as const;

export type ResourceKind = (typeof resourceKinds)[number];

export type ScUri =
  | { kind: 'graph'; graphId: string }
  | { kind: 'graph_version'; graphId: string; version: number }
  | { kind: 'snapshot'; graphId: string; txId: string }
  | { kind: 'run_events'; runId: string }
  | { kind: 'child_logs'; childId: string }
  | { kind: 'blackboard_namespace'; namespace: string };

export const SC_SCHEME = 'sc://';

const BAD_SEGMENT = /[/?#\s\u0000-\u001f\u007f]/;

function invalid(uri: string, reason: string): never {
  throw coordinationError('E-RES-INVALID', `'${uri}' is not a valid sc:// URI: ${reason}`, { uri, reason });
}

function segment(value: string, what: string, uri: string, extra?: RegExp): string {
  if (value.length === 0 || value.length > 200) invalid(uri, `${what} must have 1 to 200 characters`);
  if (BAD_SEGMENT.test(value) || (extra && extra.test(value))) invalid(uri, `${what} '${value}' has a forbidden character`);
  return value;
}

/** True when `value` can be a URI segment of the given kind of id. */
export function isValidUriSegment(value: string, graphId = false): boolean {
  return value.length > 0 && value.length <= 200 && !BAD_SEGMENT.test(value) && !(graphId && value.includes('@'));
}

/** Parses an `sc://` URI; throws `E-RES-INVALID` when it is malformed. */
export function parseScUri(uri: string): ScUri {
  if (typeof uri !== 'string' || !uri.startsWith(SC_SCHEME)) invalid(String(uri), `it must start with ${SC_SCHEME}`);
  const parts = uri.slice(SC_SCHEME.length).split('/');
  const [root, a, b] = parts;
  switch (root) {
    case 'graphs': {
      if (parts.length !== 2) invalid(uri, 'expected sc://graphs/<id> or sc://graphs/<id>@v<N>');
      const at = a.lastIndexOf('@');
      if (at < 0) return { kind: 'graph', graphId: segment(a, 'graph id', uri, /@/) };
      const graphId = segment(a.slice(0, at), 'graph id', uri, /@/);
      const match = /^v([1-9][0-9]{0,14})$/.exec(a.slice(at + 1));
      if (!match) invalid(uri, 'a version is written @v<N> with N a positive integer');
      return { kind: 'graph_version', graphId, version: Number(match[1]) };
    }
    case 'snapshots':
      if (parts.length !== 3) invalid(uri, 'expected sc://snapshots/<graphId>/<txId>');
      return { kind: 'snapshot', graphId: segment(a, 'graph id', uri, /@/), txId: segment(b, 'transaction id', uri) };
    case 'runs':
      if (parts.length !== 3 || b !== 'events') invalid(uri, 'expected sc://runs/<runId>/events');
      return { kind: 'run_events', runId: segment(a, 'run id', uri) };
    case 'children':
      if (parts.length !== 3 || b !== 'logs') invalid(uri, 'expected sc://children/<childId>/logs');
      return { kind: 'child_logs', childId: segment(a, 'child id', uri) };
    case 'blackboard':
      if (parts.length !== 2) invalid(uri, 'expected sc://blackboard/<namespace>');
      return { kind: 'blackboard_namespace', namespace: segment(a, 'namespace', uri) };
    default:
      return invalid(uri, 'unknown resource family (graphs, snapshots, runs, children, blackboard)');
  }
}

/** Formats an `sc://` URI; throws `E-RES-INVALID` when an id cannot be a segment. */
export function formatScUri(target: ScUri): string {
  let uri: string;
  switch (target.kind) {
    case 'graph':
      uri = `${SC_SCHEME}graphs/${target.graphId}`;
      break;
    case 'graph_version':
      if (!Number.isSafeInteger(target.version) || target.version < 1) invalid(`${SC_SCHEME}graphs/${target.graphId}@v${target.version}`, 'version must be a positive integer');
      uri = `${SC_SCHEME}graphs/${target.graphId}@v${target.version}`;
      break;
    case 'snapshot':
      uri = `${SC_SCHEME}snapshots/${target.graphId}/${target.txId}`;
      break;
    case 'run_events':
      uri = `${SC_SCHEME}runs/${target.runId}/events`;
      break;
    case 'child_logs':
      uri = `${SC_SCHEME}children/${target.childId}/logs`;
      break;
    case 'blackboard_namespace':
      uri = `${SC_SCHEME}blackboard/${target.namespace}`;
      break;
  }
  // The round trip is the validation: one grammar, written once.
  const back = parseScUri(uri) as Record<string, unknown>;
  const fields = Object.entries(target);
  if (fields.length !== Object.keys(back).length || fields.some(([k, v]) => back[k] !== v)) invalid(uri, 'an id holds a character the grammar reserves');
  return uri;
}

/** Shorthands for the common URIs. */
export const scUri = {
  graph: (graphId: string) => formatScUri({ kind: 'graph', graphId }),
  graphVersion: (graphId: string, version: number) => formatScUri({ kind: 'graph_version', graphId, version }),
  snapshot: (graphId: string, txId: string) => formatScUri({ kind: 'snapshot', graphId, txId }),
  runEvents: (runId: string) => formatScUri({ kind: 'run_events', runId }),
  childLogs: (childId: string) => formatScUri({ kind: 'child_logs', childId }),
  blackboard: (namespace: string) => formatScUri({ kind: 'blackboard_namespace', namespace }),
};

/** Kinds that have an event stream `resources_watch` can follow. */
export const watchableKinds: ReadonlySet<ResourceKind> = new Set(['run_events', 'child_logs', 'blackboard_namespace']);

/** Throws `E-RES-WATCH-UNSUPPORTED` for a URI `resources_watch` cannot follow. */
export function assertWatchable(uri: string): ScUri {
  const parsed = parseScUri(uri);
  if (!watchableKinds.has(parsed.kind)) {
    throw coordinationError('E-RES-WATCH-UNSUPPORTED', `'${uri}' has no event stream; read it with resources_read`, { uri, kind: parsed.kind });
  }
  return parsed;
}
