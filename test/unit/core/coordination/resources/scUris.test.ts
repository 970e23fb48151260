import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertWatchable, formatScUri, parseScUri, scUri } from '../../../../../src/core/coordination/resources/scUris';
import { isCoordinationError } from '../../../../../src/core/coordination/coordinationErrors';
import { seeded } from '../plans/random';

test('every sc:// form parses and formats back', () => {
  const cases: Array<[string, ReturnType<typeof parseScUri>]> = [
    ['sc://graphs/wf-3', { kind: 'graph', graphId: 'wf-3' }],
    ['sc://graphs/wf-3@v12', { kind: 'graph_version', graphId: 'wf-3', version: 12 }],
    ['sc://snapshots/wf-3/tx-9', { kind: 'snapshot', graphId: 'wf-3', txId: 'tx-9' }],
    ['sc://runs/run_123/events', { kind: 'run_events', runId: 'run_123' }],
    ['sc://children/child-a/logs', { kind: 'child_logs', childId: 'child-a' }],
    ['sc://blackboard/plan', { kind: 'blackboard_namespace', namespace: 'plan' }],
  ];
  for (const [uri, parsed] of cases) {
    assert.deepEqual(parseScUri(uri), parsed, uri);
    assert.equal(formatScUri(parsed), uri);
  }
  assert.equal(scUri.graphVersion('g', 1), 'sc://graphs/g@v1');
  assert.equal(scUri.runEvents('wf-1'), 'sc://runs/wf-1/events');
  assert.equal(scUri.blackboard('plan'), 'sc://blackboard/plan');
});

test('malformed URIs are refused with E-RES-INVALID', () => {
  const bad = [
    '', 'graphs/g', 'http://graphs/g', 'sc://', 'sc://graphs/', 'sc://graphs/g/extra', 'sc://graphs/g@v0', 'sc://graphs/g@v-1', 'sc://graphs/g@v1.5',
    'sc://graphs/g@vx', 'sc://graphs/g@v01', 'sc://graphs/@v1', 'sc://graphs/a@b@v1', 'sc://runs/r', 'sc://runs/r/logs', 'sc://runs//events',
    'sc://children/c/events', 'sc://snapshots/g', 'sc://blackboard/', 'sc://blackboard/a/b', 'sc://blackboard/a b', 'sc://tools/x', 'sc://graphs/a?b', `sc://graphs/${'x'.repeat(201)}`,
  ];
  for (const uri of bad) assert.throws(() => parseScUri(uri), (e) => isCoordinationError(e, 'E-RES-INVALID'), uri);
  assert.throws(() => scUri.graph('a/b'), (e) => isCoordinationError(e, 'E-RES-INVALID'));
  assert.throws(() => scUri.graphVersion('g', 0), (e) => isCoordinationError(e, 'E-RES-INVALID'));
  assert.throws(() => scUri.graph('g@v2'), (e) => isCoordinationError(e, 'E-RES-INVALID'), 'a graph id cannot hold @');
});

test('random ids round-trip or are refused, never misparsed', () => {
  const r = seeded(4);
  const chars = ['a', 'B', '9', '-', '_', '.', ':', '@', '/', ' ', 'é', '~', '%'];
  for (let i = 0; i < 2000; i++) {
    const id = Array.from({ length: r.int(8) }, () => r.pick(chars)).join('');
    const target = r.pick([{ kind: 'graph' as const, graphId: id }, { kind: 'run_events' as const, runId: id }, { kind: 'blackboard_namespace' as const, namespace: id }]);
    let uri: string;
    try {
      uri = formatScUri(target);
    } catch (e) {
      assert.ok(isCoordinationError(e, 'E-RES-INVALID'));
      continue;
    }
    assert.deepEqual(parseScUri(uri), target);
  }
});

test('only streams are watchable', () => {
  assert.equal(assertWatchable('sc://runs/r/events').kind, 'run_events');
  assert.equal(assertWatchable('sc://blackboard/ns').kind, 'blackboard_namespace');
  assert.throws(() => assertWatchable('sc://graphs/g'), (e) => isCoordinationError(e, 'E-RES-WATCH-UNSUPPORTED'));
});
