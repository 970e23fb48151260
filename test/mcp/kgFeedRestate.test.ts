import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';

/**
 * A finished workflow changed after the knowledge graph was fed states its facts again: through
 * the real SDK client over stdio, kg_query before and after the edit shows exactly the facts the
 * workflow states now (a retitled task's old label and a dependency taken off its plan graph gone,
 * a new task and dependency in), also when two server processes feed at once.
 */

interface Triple {
  subject: string;
  predicate: string;
  object: string;
  revision: number;
}

const goal = 'ship-the-cache';
/** Durations depend on the clock: left out of the comparisons. */
const timeless = (t: Triple) => t.predicate !== 'duration';

async function facts(c: LedgerClient): Promise<string[]> {
  const all = await c.call<{ triples: Triple[] }>('kg_export', { limit: 500 });
  return all.triples
    .filter(timeless)
    .map((t) => `${t.subject} ${t.predicate} ${t.object}`)
    .sort();
}

test('a workflow edited after it was fed: kg_query shows exactly its new facts, fed once by two processes', async () => {
  const repo = tempRepo();
  const c = await connect(repo, ['--enable-orchestrator']);
  try {
    const wf = await c.call<{ workflow_id: string }>('start_workflow', { name: 'Ship the cache', description: 'd' });
    const done = async (name: string) => {
      const t = await c.call<{ task_id: string }>('start_task', { workflow_id: wf.workflow_id, name, goal: name });
      await c.call('complete_task', { task_id: t.task_id, status: 'success', outcome: { summary: name } });
      return t.task_id;
    };
    const design = await done('Design the cache');
    const write = await done('Write the cache');
    await c.call('graph_patch', {
      graph_id: wf.workflow_id,
      patch: [{ op: 'add', path: `/edges/${design}`, value: { [write]: { label: 'depends_on', attributes: {} } } }],
    });

    const before = (await c.call<{ triples: Triple[] }>('kg_query', { subject: `task:${write}` })).triples
      .filter(timeless)
      .map((t) => `${t.predicate} ${t.object}`);
    assert.deepEqual(before.sort(), [`depends_on ${design}`, 'label Write the cache']);
    assert.deepEqual(await facts(c), [
      `${goal} includes ${design}`,
      `${goal} includes ${write}`,
      `${goal} label Ship the cache`,
      `task:${design} label Design the cache`,
      `task:${write} depends_on ${design}`,
      `task:${write} label Write the cache`,
    ]);

    // The edit: a task retitled, its dependency taken off the plan, a new task done after it.
    await c.call('task_update', { id: write, title: 'Write the LRU cache' });
    const bench = await done('Benchmark the cache');
    await c.call('graph_patch', {
      graph_id: wf.workflow_id,
      patch: [
        { op: 'remove', path: `/edges/${design}/${write}` },
        { op: 'add', path: `/nodes/${bench}`, value: { label: 'Benchmark the cache', attributes: {} } },
        { op: 'add', path: `/edges/${write}`, value: { [bench]: { label: 'depends_on', attributes: {} } } },
      ],
    });

    // Two processes ask at once: each feeds (or finds it fed) in its own transaction.
    const other = await connect(repo, ['--enable-orchestrator']);
    try {
      const [mine, theirs] = await Promise.all([
        c.call<{ triples: Triple[] }>('kg_query', { subject: `task:${write}` }),
        other.call<{ triples: Triple[] }>('kg_query', { subject: `task:${write}` }),
      ]);
      const expected = ['label Write the LRU cache'];
      assert.deepEqual(
        mine.triples.filter(timeless).map((t) => `${t.predicate} ${t.object}`),
        expected,
        'the old label and the dependency taken off the plan are gone',
      );
      assert.deepEqual(
        theirs.triples.filter(timeless).map((t) => `${t.predicate} ${t.object}`),
        expected,
      );
      const now = [
        `${goal} includes ${bench}`,
        `${goal} includes ${design}`,
        `${goal} includes ${write}`,
        `${goal} label Ship the cache`,
        `task:${bench} depends_on ${write}`,
        `task:${bench} label Benchmark the cache`,
        `task:${design} label Design the cache`,
        `task:${write} label Write the LRU cache`,
      ].sort();
      assert.deepEqual(await facts(c), now);
      assert.deepEqual(await facts(other), now);
      // Inserted once: a triple fed twice would be stored twice or carry a higher revision.
      const all = (await other.call<{ triples: Triple[] }>('kg_export', { limit: 500 })).triples;
      assert.deepEqual(
        all.filter((t) => timeless(t) && (t.subject === `task:${bench}` || t.object === bench)).map((t) => t.revision),
        [0, 0, 0],
      );
    } finally {
      await other.close();
    }
    // Nothing changed since: asking again feeds nothing.
    assert.deepEqual(await facts(c), await facts(c));
  } finally {
    await c.close();
  }
});
